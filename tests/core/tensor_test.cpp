// Tensor: compact column-major layout, factories, checked element access, strided views and
// copies, with rank-0 and zero-size tensors exercised everywhere.
#include "tenferro/core/tensor.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <complex>
#include <limits>
#include <numeric>
#include <random>
#include <vector>

namespace tenferro {
namespace {

using c32 = std::complex<float>;
using c64 = std::complex<double>;
using Index = std::vector<std::int64_t>;

template <class F>
void expect_validation(F&& f) {
  try {
    f();
    ADD_FAILURE() << "expected a Validation error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Validation) << e.what();
  }
}

// values[k] = k for the column-major linear index k.
Tensor iota(const Shape& shape) {
  std::vector<double> values(static_cast<std::size_t>(checked_numel(shape)));
  std::iota(values.begin(), values.end(), 0.0);
  return Tensor::from_col_major<double>(shape, std::span<const double>(values));
}

// Column-major linear index of `index` in `shape`, by arithmetic only.
std::int64_t col_major_linear(const Shape& shape, const Index& index) {
  std::int64_t k = 0, stride = 1;
  for (std::size_t a = 0; a < shape.size(); ++a) {
    k += index[a] * stride;
    stride *= shape[a];
  }
  return k;
}

// Every multi-index of `shape` in column-major order.
std::vector<Index> all_indices(const Shape& shape) {
  std::vector<Index> out;
  const std::int64_t n = checked_numel(shape);
  for (std::int64_t k = 0; k < n; ++k) {
    Index idx(shape.size());
    std::int64_t rest = k;
    for (std::size_t a = 0; a < shape.size(); ++a) {
      idx[a] = rest % shape[a];
      rest /= shape[a];
    }
    out.push_back(idx);
  }
  return out;
}

double at(const Tensor& t, const Index& idx) {
  return t.at<double>(std::span<const std::int64_t>(idx));
}

// ---- layout and factories -------------------------------------------------------------

TEST(TensorLayout, ZerosIsCompactColumnMajor) {
  const Tensor t = Tensor::zeros(DType::C32, {2, 3, 4});
  EXPECT_EQ(t.dtype(), DType::C32);
  EXPECT_EQ(t.shape(), (Shape{2, 3, 4}));
  EXPECT_EQ(t.strides(), (Strides{1, 2, 6}));
  EXPECT_EQ(t.offset(), 0);
  EXPECT_EQ(t.rank(), 3);
  EXPECT_EQ(t.numel(), 24);
  EXPECT_EQ(t.nbytes(), 24u * 8u);
  EXPECT_TRUE(t.is_compact());
  for (const c32 v : t.to_vector<c32>()) EXPECT_EQ(v, c32(0, 0));
}

TEST(TensorLayout, StorageIsAligned) {
  for (const DType d : kAllDTypes) {
    const Tensor t = Tensor::zeros(d, {3});
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(t.raw_data()) % kBufferAlignment, 0u);
    EXPECT_GE(t.storage()->size_bytes(), t.nbytes());
  }
}

// A moved-from Tensor is Tensor(): its storage was null, and every data access (at, data,
// clone, copy_into, upload) dereferenced it (a C++ user's review found the segfault).
TEST(TensorLayout, AMovedFromTensorIsARankZeroF64Zero) {
  Tensor t = Tensor::from_col_major<float>({2}, {1.f, 2.f});
  Tensor u = std::move(t);
  for (Tensor* moved : {&t}) {
    EXPECT_EQ(moved->rank(), 0);
    EXPECT_EQ(moved->dtype(), DType::F64);
    ASSERT_NE(moved->storage(), nullptr);
    EXPECT_EQ(moved->at<double>({}), 0.0);
    EXPECT_EQ(moved->clone().at<double>({}), 0.0);
  }
  EXPECT_EQ(u.to_vector<float>(), (std::vector<float>{1.f, 2.f}));
  Tensor v = Tensor::zeros(DType::C32, {3});
  v = std::move(u);
  EXPECT_EQ(v.to_vector<float>(), (std::vector<float>{1.f, 2.f}));
  EXPECT_EQ(u.rank(), 0);
  EXPECT_EQ(u.at<double>({}), 0.0);
  u.at<double>({}) = 5.0;  // its own zero: writing it changes no other tensor
  EXPECT_EQ(t.at<double>({}), 0.0);
}

TEST(TensorLayout, DefaultIsRankZeroF64Zero) {
  const Tensor t;
  EXPECT_EQ(t.dtype(), DType::F64);
  EXPECT_EQ(t.rank(), 0);
  EXPECT_EQ(t.numel(), 1);
  EXPECT_EQ(t.at<double>({}), 0.0);
}

TEST(TensorLayout, FromColMajorFirstIndexFastest) {
  const Tensor t = Tensor::from_col_major<double>({2, 3}, {0, 1, 2, 3, 4, 5});
  for (std::int64_t i = 0; i < 2; ++i) {
    for (std::int64_t j = 0; j < 3; ++j) EXPECT_EQ(t.at<double>({i, j}), i + 2.0 * j);
  }
}

TEST(TensorLayout, FromRowMajorLastIndexFastestAndStoredColumnMajor) {
  const Tensor t = Tensor::from_row_major<double>({2, 3}, {0, 1, 2, 3, 4, 5});
  EXPECT_TRUE(t.is_compact());
  for (std::int64_t i = 0; i < 2; ++i) {
    for (std::int64_t j = 0; j < 3; ++j) EXPECT_EQ(t.at<double>({i, j}), 3.0 * i + j);
  }
  EXPECT_EQ(t.to_vector<double>(), (std::vector<double>{0, 3, 1, 4, 2, 5}));
}

TEST(TensorLayout, RowMajorEqualsColMajorOfReversedShapeWithAxesReversed) {
  const Shape shape = {3, 2, 4};
  std::vector<c64> data(24);
  for (std::size_t k = 0; k < data.size(); ++k) data[k] = c64(double(k), -double(k) / 2);
  const Tensor row = Tensor::from_row_major<c64>(shape, std::span<const c64>(data));
  const Tensor col =
      Tensor::from_col_major<c64>({4, 2, 3}, std::span<const c64>(data)).permute({2, 1, 0});
  ASSERT_EQ(col.shape(), shape);
  for (const Index& idx : all_indices(shape)) {
    EXPECT_EQ(row.at<c64>(std::span<const std::int64_t>(idx)),
              col.at<c64>(std::span<const std::int64_t>(idx)));
  }
  EXPECT_EQ(row.to_vector<c64>(), col.contiguous().to_vector<c64>());
}

TEST(TensorLayout, FactoriesRejectWrongDataLength) {
  expect_validation([] { Tensor::from_col_major<float>({2, 3}, {1, 2, 3}); });
  expect_validation([] { Tensor::from_row_major<float>({2}, {1, 2, 3}); });
  expect_validation([] { Tensor::from_col_major<double>({}, std::span<const double>()); });
}

TEST(TensorLayout, ZerosRejectsNegativeAndOverflowingShapes) {
  expect_validation([] { Tensor::zeros(DType::F32, {2, -1}); });
  expect_validation([] {
    Tensor::zeros(DType::F64, {std::int64_t{1} << 32, std::int64_t{1} << 32});
  });
  expect_validation([] { Tensor::zeros(DType::C64, {std::int64_t{1} << 61}); });  // bytes overflow
}

TEST(TensorLayout, ScalarIsRankZero) {
  const Tensor s = Tensor::scalar<c32>(c32(1, -2));
  EXPECT_EQ(s.rank(), 0);
  EXPECT_EQ(s.numel(), 1);
  EXPECT_TRUE(s.shape().empty());
  EXPECT_TRUE(s.strides().empty());
  EXPECT_EQ(s.at<c32>({}), c32(1, -2));
  EXPECT_EQ(s.to_vector<c32>(), (std::vector<c32>{c32(1, -2)}));
}

TEST(TensorLayout, DimAcceptsNegativeAxes) {
  const Tensor t = Tensor::zeros(DType::F32, {2, 3, 5});
  EXPECT_EQ(t.dim(0), 2);
  EXPECT_EQ(t.dim(2), 5);
  EXPECT_EQ(t.dim(-1), 5);
  EXPECT_EQ(t.dim(-3), 2);
  expect_validation([&] { t.dim(3); });
  expect_validation([&] { t.dim(-4); });
  expect_validation([] { Tensor().dim(0); });
}

// ---- element access --------------------------------------------------------------------

TEST(TensorAt, WritesAreVisibleThroughReads) {
  Tensor t = Tensor::zeros(DType::F32, {2, 2});
  t.at<float>({1, 0}) = 5.f;
  t.at<float>({0, 1}) = 7.f;
  EXPECT_EQ(t.to_vector<float>(), (std::vector<float>{0, 5, 7, 0}));
  EXPECT_EQ(t.data<float>()[1], 5.f);
}

TEST(TensorAt, OutOfBoundsIsValidation) {
  const Tensor t = Tensor::zeros(DType::F64, {2, 3});
  expect_validation([&] { t.at<double>({2, 0}); });
  expect_validation([&] { t.at<double>({0, 3}); });
  expect_validation([&] { t.at<double>({-1, 0}); });
  expect_validation([&] { t.at<double>({0}); });        // too few indices
  expect_validation([&] { t.at<double>({0, 0, 0}); });  // too many
  expect_validation([] { Tensor().at<double>({0}); });
}

TEST(TensorAt, WrongElementTypeIsValidation) {
  Tensor t = Tensor::zeros(DType::F64, {2});
  expect_validation([&] { t.at<float>({0}); });
  expect_validation([&] { t.at<c64>({0}); });
  expect_validation([&] { t.data<c32>(); });
  expect_validation([&] { t.to_vector<float>(); });
  EXPECT_NO_THROW(t.data<double>());
}

TEST(TensorAt, ZeroSizeHasNoElement) {
  const Tensor t = Tensor::zeros(DType::C64, {3, 0});
  EXPECT_EQ(t.numel(), 0);
  EXPECT_EQ(t.nbytes(), 0u);
  expect_validation([&] { t.at<c64>({0, 0}); });
  EXPECT_TRUE(t.to_vector<c64>().empty());
}

// ---- permute / transpose ---------------------------------------------------------------

TEST(TensorPermute, MovesAxesAndSharesStorage) {
  Tensor t = iota({2, 3, 4});
  const Tensor p = t.permute({2, 0, 1});
  EXPECT_EQ(p.shape(), (Shape{4, 2, 3}));
  EXPECT_EQ(p.strides(), (Strides{6, 1, 2}));
  EXPECT_FALSE(p.is_compact());
  EXPECT_EQ(p.storage(), t.storage());
  for (const Index& idx : all_indices(p.shape())) {
    EXPECT_EQ(at(p, idx), at(t, {idx[1], idx[2], idx[0]}));
  }
  t.at<double>({1, 2, 3}) = -1;  // writes to the base are seen by the view
  EXPECT_EQ(p.at<double>({3, 1, 2}), -1);
}

TEST(TensorPermute, IdentityAndRankZero) {
  const Tensor t = iota({3, 2});
  EXPECT_TRUE(t.permute({0, 1}).is_compact());
  const Tensor s = Tensor::scalar<double>(4.0);
  const Tensor ps = s.permute(std::span<const std::int64_t>());
  EXPECT_EQ(ps.rank(), 0);
  EXPECT_EQ(ps.at<double>({}), 4.0);
}

TEST(TensorPermute, InvalidPermutationsAreValidation) {
  const Tensor t = iota({2, 3, 4});
  expect_validation([&] { t.permute({0, 1}); });
  expect_validation([&] { t.permute({0, 1, 2, 3}); });
  expect_validation([&] { t.permute({0, 0, 1}); });
  expect_validation([&] { t.permute({0, 1, 3}); });
  expect_validation([] { Tensor().permute({0}); });
}

TEST(TensorTranspose, SwapsTwoAxes) {
  const Tensor m = iota({2, 3});
  const Tensor mt = m.transpose();
  EXPECT_EQ(mt.shape(), (Shape{3, 2}));
  for (const Index& idx : all_indices(mt.shape())) EXPECT_EQ(at(mt, idx), at(m, {idx[1], idx[0]}));
  const Tensor t = iota({2, 3, 4});
  const Tensor t02 = t.transpose(0, 2);
  EXPECT_EQ(t02.shape(), (Shape{4, 3, 2}));
  EXPECT_EQ(at(t02, {3, 1, 0}), at(t, {0, 1, 3}));
  EXPECT_EQ(t.transpose(-1, 0).shape(), (Shape{4, 3, 2}));
  EXPECT_EQ(t.transpose(1, 1).strides(), t.strides());
  expect_validation([] { Tensor().transpose(); });
  expect_validation([] { iota({5}).transpose(); });
  expect_validation([&] { t.transpose(0, 3); });
}

// ---- slice -------------------------------------------------------------------------------

TEST(TensorSlice, ContiguousRange) {
  const Tensor t = iota({4, 3});
  const Tensor s = t.slice(0, 1, 3);
  EXPECT_EQ(s.shape(), (Shape{2, 3}));
  EXPECT_EQ(s.storage(), t.storage());
  for (const Index& idx : all_indices(s.shape()))
    EXPECT_EQ(at(s, idx), at(t, {idx[0] + 1, idx[1]}));
  const Tensor cols = t.slice(1, 1, 3);  // a column block of compact data stays compact
  EXPECT_TRUE(cols.is_compact());
  EXPECT_EQ(cols.to_vector<double>(), (std::vector<double>{4, 5, 6, 7, 8, 9, 10, 11}));
}

TEST(TensorSlice, StepGreaterThanOne) {
  const Tensor t = iota({7, 2});
  const Tensor s = t.slice(0, 1, 7, 3);  // rows 1, 4
  EXPECT_EQ(s.shape(), (Shape{2, 2}));
  EXPECT_EQ(s.to_vector<double>(), (std::vector<double>{1, 4, 8, 11}));
  const Tensor s2 = t.slice(0, 0, 7, 2);  // rows 0, 2, 4, 6
  EXPECT_EQ(s2.dim(0), 4);
  for (std::int64_t i = 0; i < 4; ++i) EXPECT_EQ(s2.at<double>({i, 1}), 7.0 + 2 * i);
  const Tensor s3 = t.slice(-2, 2, 3, 5);  // a single row with a step beyond the range
  EXPECT_EQ(s3.shape(), (Shape{1, 2}));
  EXPECT_EQ(s3.at<double>({0, 1}), 9.0);
}

TEST(TensorSlice, HugeStepDoesNotOverflow) {
  const Tensor t = iota({5, 3});
  const std::int64_t huge = std::numeric_limits<std::int64_t>::max();
  const Tensor s = t.slice(0, 2, 5, huge);
  EXPECT_EQ(s.shape(), (Shape{1, 3}));
  EXPECT_EQ(s.to_vector<double>(), (std::vector<double>{2, 7, 12}));
  const Tensor c = t.slice(1, 0, 3, huge);
  EXPECT_EQ(c.shape(), (Shape{5, 1}));
  EXPECT_EQ(c.to_vector<double>(), (std::vector<double>{0, 1, 2, 3, 4}));
}

TEST(TensorSlice, EmptyRanges) {
  const Tensor t = iota({4, 3});
  for (const std::int64_t at_index : {0, 2, 4}) {
    const Tensor e = t.slice(0, at_index, at_index);
    EXPECT_EQ(e.shape(), (Shape{0, 3}));
    EXPECT_EQ(e.numel(), 0);
    EXPECT_TRUE(e.to_vector<double>().empty());
    EXPECT_EQ(e.contiguous().numel(), 0);
  }
  const Tensor z = Tensor::zeros(DType::F32, {0, 2});
  EXPECT_EQ(z.slice(0, 0, 0).shape(), (Shape{0, 2}));
  EXPECT_EQ(z.slice(1, 1, 2).shape(), (Shape{0, 1}));
}

TEST(TensorSlice, InvalidRangesAreValidation) {
  const Tensor t = iota({4, 3});
  expect_validation([&] { t.slice(0, 0, 5); });
  expect_validation([&] { t.slice(0, -1, 2); });
  expect_validation([&] { t.slice(0, 3, 2); });
  expect_validation([&] { t.slice(0, 0, 2, 0); });
  expect_validation([&] { t.slice(0, 0, 2, -1); });
  expect_validation([&] { t.slice(2, 0, 1); });
  expect_validation([] { Tensor().slice(0, 0, 1); });
}

TEST(TensorSlice, ComposesWithPermute) {
  const Tensor t = iota({3, 4, 5});
  const Tensor v = t.permute({2, 0, 1}).slice(0, 1, 5, 2).slice(2, 3, 4);
  ASSERT_EQ(v.shape(), (Shape{2, 3, 1}));
  for (const Index& idx : all_indices(v.shape())) {
    EXPECT_EQ(at(v, idx), at(t, {idx[1], idx[2] + 3, 1 + 2 * idx[0]}));
  }
  // raw_data() points at element [0, 0, 0] of the view.
  EXPECT_EQ(reinterpret_cast<const double*>(v.raw_data()), &v.at<double>({0, 0, 0}));
}

// ---- reshape -----------------------------------------------------------------------------

TEST(TensorReshape, CompactDataKeepsColumnMajorOrderAndStorage) {
  const Tensor t = iota({2, 6});
  const Tensor r = t.reshape({3, 4});
  EXPECT_EQ(r.storage(), t.storage());
  EXPECT_TRUE(r.is_compact());
  EXPECT_EQ(r.to_vector<double>(), t.to_vector<double>());
  EXPECT_EQ(r.at<double>({2, 1}), 5.0);
  EXPECT_EQ(t.reshape({12}).at<double>({11}), 11.0);
}

TEST(TensorReshape, RankZeroAndZeroSize) {
  const Tensor one = iota({1, 1});
  EXPECT_EQ(one.reshape({}).rank(), 0);
  EXPECT_EQ(Tensor::scalar<float>(3.f).reshape({1, 1, 1}).at<float>({0, 0, 0}), 3.f);
  const Tensor z = Tensor::zeros(DType::F64, {0, 3});
  EXPECT_EQ(z.reshape({3, 0, 5}).shape(), (Shape{3, 0, 5}));
  expect_validation([&] { z.reshape({}); });
}

TEST(TensorReshape, NonCompactOrWrongCountIsValidation) {
  const Tensor t = iota({2, 3});
  expect_validation([&] { t.transpose().reshape({6}); });
  expect_validation([&] { t.slice(0, 0, 2, 2).reshape({3}); });
  expect_validation([&] { t.reshape({4}); });
  expect_validation([&] { t.reshape({-2, -3}); });
  EXPECT_EQ(t.transpose().contiguous().reshape({6}).to_vector<double>(),
            (std::vector<double>{0, 2, 4, 1, 3, 5}));
}

// ---- contiguous / clone / copy_into ------------------------------------------------------

TEST(TensorCopies, ContiguousOfCompactIsTheSameStorage) {
  const Tensor t = iota({3, 2});
  const Tensor c = t.contiguous();
  EXPECT_EQ(c.storage(), t.storage());
  EXPECT_EQ(c.to_vector<double>(), t.to_vector<double>());
}

TEST(TensorCopies, ContiguousOfAViewIsAFreshCompactCopy) {
  const Tensor t = iota({3, 4});
  const Tensor v = t.transpose().slice(0, 1, 4, 2);
  const Tensor c = v.contiguous();
  EXPECT_NE(c.storage(), t.storage());
  EXPECT_TRUE(c.is_compact());
  EXPECT_EQ(c.offset(), 0);
  ASSERT_EQ(c.shape(), (Shape{2, 3}));
  for (const Index& idx : all_indices(c.shape())) EXPECT_EQ(at(c, idx), at(v, idx));
  EXPECT_EQ(c.to_vector<double>(), v.to_vector<double>());
}

TEST(TensorCopies, CloneIsAlwaysIndependent) {
  Tensor t = iota({2, 2});
  Tensor c = t.clone();
  EXPECT_NE(c.storage(), t.storage());
  c.at<double>({0, 0}) = 99;
  EXPECT_EQ(t.at<double>({0, 0}), 0.0);
  const Tensor s = Tensor::scalar<double>(2.5).clone();
  EXPECT_EQ(s.at<double>({}), 2.5);
  EXPECT_EQ(Tensor::zeros(DType::C32, {0, 4}).clone().shape(), (Shape{0, 4}));
}

TEST(TensorCopies, ToVectorIsColumnMajorLogicalOrderOfViews) {
  const Tensor t = Tensor::from_row_major<float>({2, 3}, {1, 2, 3, 4, 5, 6});
  EXPECT_EQ(t.transpose().to_vector<float>(), (std::vector<float>{1, 2, 3, 4, 5, 6}));
}

TEST(TensorCopies, CopyIntoAStridedDestination) {
  const Tensor src = iota({3, 2});
  Tensor dst_base = Tensor::zeros(DType::F64, {2, 3});
  Tensor dst = dst_base.transpose();  // shape {3, 2}, strided
  copy_into(src, dst);
  for (const Index& idx : all_indices(src.shape())) EXPECT_EQ(at(dst, idx), at(src, idx));
  EXPECT_EQ(at(dst_base, {1, 2}), at(src, {2, 1}));
}

// Overlapping views of one storage copy as NumPy's x[1:] = x[:-1]: every element read before
// any is written (element by element it gave 0 0 0 0 ...: each read saw the last write).
TEST(TensorCopies, CopyIntoBetweenOverlappingViewsReadsTheSourceFirst) {
  const Tensor x = iota({10});
  Tensor dst = x.slice(0, 1, 10, 1);
  copy_into(x.slice(0, 0, 9, 1), dst);
  EXPECT_EQ(x.to_vector<double>(), (std::vector<double>{0, 0, 1, 2, 3, 4, 5, 6, 7, 8}));
  // The other direction and a transpose over itself.
  const Tensor y = iota({10});
  Tensor head = y.slice(0, 0, 9, 1);
  copy_into(y.slice(0, 1, 10, 1), head);
  EXPECT_EQ(y.to_vector<double>(), (std::vector<double>{1, 2, 3, 4, 5, 6, 7, 8, 9, 9}));
  const Tensor m = iota({3, 3});
  Tensor mt = m.transpose();
  copy_into(m, mt);
  EXPECT_EQ(m.to_vector<double>(), (std::vector<double>{0, 3, 6, 1, 4, 7, 2, 5, 8}));
}

TEST(TensorCopies, CopyIntoADestinationThatRepeatsElementsIsRefused) {
  Tensor one = Tensor::zeros(DType::F64, {1});
  Tensor repeated = Tensor::view_of(one.storage(), TensorLayout{DType::F64, {4}, {0}, 0});
  expect_validation([&] { copy_into(iota({4}), repeated); });
  EXPECT_EQ(one.at<double>({0}), 0.0);
}

TEST(TensorCopies, CopyIntoChecksShapeAndDType) {
  const Tensor src = iota({3, 2});
  Tensor wrong_shape = Tensor::zeros(DType::F64, {2, 3});
  Tensor wrong_dtype = Tensor::zeros(DType::F32, {3, 2});
  expect_validation([&] { copy_into(src, wrong_shape); });
  expect_validation([&] { copy_into(src, wrong_dtype); });
  Tensor scalar_dst = Tensor::zeros(DType::F64, {});
  copy_into(Tensor::scalar<double>(-3.0), scalar_dst);
  EXPECT_EQ(scalar_dst.at<double>({}), -3.0);
  Tensor empty_dst = Tensor::zeros(DType::F64, {0, 2});
  EXPECT_NO_THROW(copy_into(Tensor::zeros(DType::F64, {0, 2}), empty_dst));
}

// ---- view_of -----------------------------------------------------------------------------

TEST(TensorViewOf, WrapsStorageWithinBounds) {
  const Tensor base = iota({6});
  const Tensor v = Tensor::view_of(base.storage(), TensorLayout{DType::F64, {2, 2}, {1, 3}, 1});
  EXPECT_EQ(v.at<double>({1, 1}), 5.0);
  EXPECT_EQ(v.at<double>({0, 1}), 4.0);
  const Tensor reversed = Tensor::view_of(base.storage(), TensorLayout{DType::F64, {6}, {-1}, 5});
  EXPECT_EQ(reversed.to_vector<double>(), (std::vector<double>{5, 4, 3, 2, 1, 0}));
}

TEST(TensorViewOf, RejectsLayoutsOutsideTheStorage) {
  const auto storage = iota({6}).storage();
  expect_validation([&] { Tensor::view_of(storage, TensorLayout{DType::F64, {7}, {1}, 0}); });
  expect_validation([&] { Tensor::view_of(storage, TensorLayout{DType::F64, {2}, {1}, 5}); });
  expect_validation([&] { Tensor::view_of(storage, TensorLayout{DType::F64, {2}, {-1}, 0}); });
  expect_validation([&] { Tensor::view_of(storage, TensorLayout{DType::C64, {4}, {1}, 0}); });
  expect_validation([&] { Tensor::view_of(storage, TensorLayout{DType::F64, {2, 2}, {1}, 0}); });
  expect_validation([&] { Tensor::view_of(nullptr, TensorLayout{DType::F64, {1}, {1}, 0}); });
}

TEST(TensorViewOf, HugeStridesOrOffsetsAreValidationNotOverflow) {
  const auto storage = iota({6}).storage();
  const std::int64_t huge = std::numeric_limits<std::int64_t>::max();
  expect_validation([&] { Tensor::view_of(storage, TensorLayout{DType::F64, {3}, {huge}, 0}); });
  expect_validation([&] { Tensor::view_of(storage, TensorLayout{DType::F64, {3}, {-huge}, 0}); });
  expect_validation([&] { Tensor::view_of(storage, TensorLayout{DType::F64, {1}, {1}, huge}); });
}

// ---- randomized views --------------------------------------------------------------------

TEST(TensorViews, RandomPermuteSliceChainsMatchIndexArithmetic) {
  std::mt19937 rng(2026);
  auto pick = [&](std::int64_t lo, std::int64_t hi) {
    return std::uniform_int_distribution<std::int64_t>(lo, hi)(rng);
  };
  for (int trial = 0; trial < 200; ++trial) {
    Shape shape(static_cast<std::size_t>(pick(0, 4)));
    for (auto& d : shape) d = pick(0, 4);
    const Tensor base = iota(shape);
    // A view = permutation then one slice; track where each view index lands in `base`.
    std::vector<std::int64_t> perm(shape.size());
    std::iota(perm.begin(), perm.end(), 0);
    std::shuffle(perm.begin(), perm.end(), rng);
    Tensor view = base.permute(perm);
    std::int64_t axis = -1, start = 0, step = 1;
    if (!shape.empty()) {
      axis = pick(0, view.rank() - 1);
      const std::int64_t n = view.dim(axis);
      start = pick(0, n);
      step = pick(1, 3);
      view = view.slice(axis, start, pick(start, n), step);
    }
    const Tensor compact = view.contiguous();
    ASSERT_TRUE(compact.is_compact());
    const std::vector<double> flat = view.to_vector<double>();
    ASSERT_EQ(static_cast<std::int64_t>(flat.size()), view.numel());
    const std::vector<Index> indices = all_indices(view.shape());
    for (std::size_t k = 0; k < indices.size(); ++k) {
      Index base_index(shape.size());
      for (std::size_t a = 0; a < perm.size(); ++a) {
        std::int64_t i = indices[k][a];
        if (static_cast<std::int64_t>(a) == axis) i = start + step * i;
        base_index[static_cast<std::size_t>(perm[a])] = i;
      }
      const double expected = static_cast<double>(col_major_linear(shape, base_index));
      ASSERT_EQ(at(view, indices[k]), expected);
      ASSERT_EQ(at(compact, indices[k]), expected);
      ASSERT_EQ(flat[k], expected);
    }
  }
}

}  // namespace
}  // namespace tenferro
