// Shapes and strides: overflow-checked sizes and the two compact orders.
#include "tenferro/core/shape.hpp"

#include <gtest/gtest.h>

#include <limits>

#include "tenferro/core/error.hpp"

namespace tenferro {
namespace {

constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();

template <class F>
void expect_validation(F&& f) {
  try {
    f();
    ADD_FAILURE() << "expected a Validation error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Validation) << e.what();
  }
}

TEST(CheckedNumel, ProductOfExtents) {
  EXPECT_EQ(checked_numel(Shape{}), 1);
  EXPECT_EQ(checked_numel(Shape{7}), 7);
  EXPECT_EQ(checked_numel(Shape{2, 3, 4}), 24);
  EXPECT_EQ(checked_numel(Shape{1, 1, 1, 1}), 1);
  EXPECT_EQ(checked_numel(Shape{kMax}), kMax);
  EXPECT_EQ(checked_numel(Shape{kMax, 1}), kMax);
}

TEST(CheckedNumel, ZeroExtentGivesZero) {
  EXPECT_EQ(checked_numel(Shape{0}), 0);
  EXPECT_EQ(checked_numel(Shape{3, 0, 5}), 0);
  EXPECT_EQ(checked_numel(Shape{0, kMax, kMax}), 0);  // no element, so nothing to overflow
}

TEST(CheckedNumel, NegativeExtentIsValidation) {
  expect_validation([] { checked_numel(Shape{-1}); });
  expect_validation([] { checked_numel(Shape{2, -3}); });
  expect_validation([] { checked_numel(Shape{0, -1}); });  // a zero does not excuse it
}

TEST(CheckedNumel, OverflowIsValidation) {
  expect_validation([] { checked_numel(Shape{kMax, 2}); });
  expect_validation([] { checked_numel(Shape{std::int64_t{1} << 32, std::int64_t{1} << 32}); });
  expect_validation([] { checked_numel(Shape{3037000500, 3037000500}); });  // just above 2^63
  EXPECT_EQ(checked_numel(Shape{3037000499, 3037000499}), std::int64_t{3037000499} * 3037000499);
}

TEST(CheckedBytes, ProductWithElementSize) {
  EXPECT_EQ(checked_bytes(0, 16), 0u);
  EXPECT_EQ(checked_bytes(10, 8), 80u);
  EXPECT_EQ(checked_bytes(std::int64_t{1} << 40, 16), std::size_t{1} << 44);
}

TEST(CheckedBytes, OverflowIsValidation) {
  expect_validation([] { checked_bytes(kMax, 2); });
  expect_validation([] { checked_bytes(std::int64_t{1} << 61, 16); });
  expect_validation([] { checked_bytes(kMax, 16); });
}

TEST(Strides, ColumnMajorFirstIndexFastest) {
  EXPECT_EQ(col_major_strides(Shape{}), Strides{});
  EXPECT_EQ(col_major_strides(Shape{5}), (Strides{1}));
  EXPECT_EQ(col_major_strides(Shape{2, 3, 4}), (Strides{1, 2, 6}));
  EXPECT_EQ(col_major_strides(Shape{4, 1, 3}), (Strides{1, 4, 4}));
}

TEST(Strides, RowMajorLastIndexFastest) {
  EXPECT_EQ(row_major_strides(Shape{}), Strides{});
  EXPECT_EQ(row_major_strides(Shape{5}), (Strides{1}));
  EXPECT_EQ(row_major_strides(Shape{2, 3, 4}), (Strides{12, 4, 1}));
}

TEST(Strides, CompactnessCheck) {
  EXPECT_TRUE(is_col_major_compact(Shape{}, Strides{}));
  EXPECT_TRUE(is_col_major_compact(Shape{2, 3}, Strides{1, 2}));
  EXPECT_FALSE(is_col_major_compact(Shape{2, 3}, Strides{3, 1}));  // row-major
  EXPECT_FALSE(is_col_major_compact(Shape{2, 3}, Strides{2, 4}));  // gaps
  EXPECT_FALSE(is_col_major_compact(Shape{2, 3}, Strides{1}));     // rank mismatch
  // Extent-1 axes never move, so their stride is irrelevant.
  EXPECT_TRUE(is_col_major_compact(Shape{1, 3}, Strides{99, 1}));
  EXPECT_TRUE(is_col_major_compact(Shape{3, 1}, Strides{1, -7}));
  // Zero-size shapes hold no element: every stride set describes them compactly.
  EXPECT_TRUE(is_col_major_compact(Shape{2, 0, 3}, col_major_strides(Shape{2, 0, 3})));
  for (const Shape& s : {Shape{2, 3, 4}, Shape{1, 5}, Shape{0, 2}, Shape{7}}) {
    EXPECT_TRUE(is_col_major_compact(s, col_major_strides(s))) << shape_to_string(s);
  }
}

// Issue 21 item 6: these products used to overflow a signed int64 (undefined behaviour that
// UBSan reports; Release returned garbage strides). Now a typed error, or no product at all.
TEST(Strides, OverflowingStrideIsValidation) {
  constexpr std::int64_t k40 = std::int64_t{1} << 40;
  expect_validation([] { col_major_strides(Shape{k40, k40, 2}); });  // third stride is 2^80
  expect_validation([] { row_major_strides(Shape{2, k40, k40}); });  // first stride is 2^80
  expect_validation([] { col_major_strides(Shape{kMax, 2, 1}); });
}

TEST(Strides, TheUnusedProductAfterTheLastAxisIsNeverFormed) {
  constexpr std::int64_t k40 = std::int64_t{1} << 40;
  // (2^40, 2^40): both strides fit; only the element count (never a stride) would overflow.
  EXPECT_EQ(col_major_strides(Shape{k40, k40}), (Strides{1, k40}));
  EXPECT_EQ(row_major_strides(Shape{k40, k40}), (Strides{k40, 1}));
  // Zero extents count as 1, so an empty tensor of huge other extents still has strides.
  EXPECT_EQ(col_major_strides(Shape{0, kMax, kMax}), (Strides{1, 1, kMax}));
}

TEST(Strides, CompactnessCheckDoesNotOverflow) {
  constexpr std::int64_t k40 = std::int64_t{1} << 40;
  EXPECT_TRUE(is_col_major_compact(Shape{k40, k40}, Strides{1, k40}));
  EXPECT_FALSE(is_col_major_compact(Shape{k40, k40, 2}, Strides{1, k40, 0}));
}

TEST(ShapeSizeViolation, NonZeroExtentsTimesItemSizeMustFitInt64) {
  EXPECT_EQ(shape_size_violation(Shape{}, 16), "");
  EXPECT_EQ(shape_size_violation(Shape{2, 3}, 8), "");
  EXPECT_EQ(shape_size_violation(Shape{kMax / 8}, 8), "");
  EXPECT_NE(shape_size_violation(Shape{kMax / 8 + 1}, 8), "");
  // A zero extent does not excuse the others: their strides would still overflow.
  EXPECT_EQ(shape_size_violation(Shape{0, kMax / 16}, 16), "");
  EXPECT_NE(shape_size_violation(Shape{0, kMax}, 16), "");
  EXPECT_NE(shape_size_violation(Shape{std::int64_t{1} << 40, 0, std::int64_t{1} << 40}, 1), "");
  const std::string negative = shape_size_violation(Shape{2, -1}, 4);
  EXPECT_NE(negative.find("negative"), std::string::npos) << negative;
}

TEST(ShapeToString, Brackets) {
  EXPECT_EQ(shape_to_string(Shape{}), "[]");
  EXPECT_EQ(shape_to_string(Shape{5}), "[5]");
  EXPECT_EQ(shape_to_string(Shape{2, 0, 3}), "[2, 0, 3]");
}

}  // namespace
}  // namespace tenferro
