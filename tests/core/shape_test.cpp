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

TEST(ShapeToString, Brackets) {
  EXPECT_EQ(shape_to_string(Shape{}), "[]");
  EXPECT_EQ(shape_to_string(Shape{5}), "[5]");
  EXPECT_EQ(shape_to_string(Shape{2, 0, 3}), "[2, 0, 3]");
}

}  // namespace
}  // namespace tenferro
