// NumPy-semantics tables for the prims reductions (sum, mean, prod, max, min, norm) over single
// axes, several axes, all axes, negative axes, with and without keepdims, zero-size inputs, and
// one long F32 reduction that serial float accumulation cannot pass. Every runtime kind.
#include <gtest/gtest.h>

#include <cmath>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "prims/prims_reference.hpp"
#include "prims/prims_runtimes.hpp"
#include "tenferro/prims.hpp"

namespace tenferro::prims_test {
namespace {

class PrimsReduce : public PrimsRuntimeTest {};
TENFERRO_PRIMS_ON_ALL_RUNTIMES(PrimsReduce);

using ReduceFn = EagerTensor (*)(const EagerTensor&, std::optional<prims::Axes>, bool);

struct ReduceRow {
  std::string name;
  ReduceFn op;
  Reduction red;
  bool real_only = false;
  bool to_real = false;
};

double np_max(double a, double b) {
  return std::isnan(a) || std::isnan(b) ? kNaN : (a > b ? a : b);
}
double np_min(double a, double b) {
  return std::isnan(a) || std::isnan(b) ? kNaN : (a < b ? a : b);
}

std::vector<ReduceRow> reduce_rows() {
  const auto add = [](C acc, C x) { return acc + x; };
  return {
      {"sum", &prims::sum, {0.0, add}},
      {"mean",
       &prims::mean,
       {0.0, add, [](C acc, std::int64_t n) { return acc / static_cast<double>(n); }}},
      {"prod", &prims::prod, {1.0, [](C acc, C x) { return acc * x; }}},
      {"max",
       &prims::max,
       {-kInf, [](C acc, C x) { return C(np_max(acc.real(), x.real()), 0); }},
       true},
      {"min",
       &prims::min,
       {kInf, [](C acc, C x) { return C(np_min(acc.real(), x.real()), 0); }},
       true},
      {"norm",
       &prims::norm,
       {0.0, [](C acc, C x) { return acc + std::norm(x); },
        [](C acc, std::int64_t) { return C(std::sqrt(acc.real()), 0.0); }},
       false,
       true},
  };
}

// NumPy's axis normalization, done here independently: negative axes count from the end.
std::set<std::int64_t> normalized(const std::optional<prims::Axes>& axes, std::int64_t rank) {
  std::set<std::int64_t> out;
  if (!axes) {
    for (std::int64_t a = 0; a < rank; ++a) out.insert(a);
  } else {
    for (std::int64_t a : *axes) out.insert(a < 0 ? a + rank : a);
  }
  return out;
}

std::string axes_text(const std::optional<prims::Axes>& axes) {
  if (!axes) return "all";
  return shape_to_string(*axes);
}

TEST_P(PrimsReduce, AxesAndKeepdimsTable) {
  const Shape shape{3, 4, 5};
  const std::vector<std::optional<prims::Axes>> axis_sets = {
      std::nullopt,        prims::Axes{0},    prims::Axes{1},       prims::Axes{2},
      prims::Axes{-1},     prims::Axes{-3},   prims::Axes{0, 2},    prims::Axes{2, 0},
      prims::Axes{-3, -1}, prims::Axes{1, 2}, prims::Axes{0, 1, 2}, prims::Axes{}};
  for (const ReduceRow& row : reduce_rows()) {
    for (DType d : dtypes()) {
      if (row.real_only && is_complex(d)) continue;
      // prod over up to 60 elements stays representable with factors near 1.
      const Ref x = row.name == "prod" ? random_ref(d, shape, 61, 0.6, 1.4)
                                       : random_ref(d, shape, 62, -2.0, 2.0);
      const EagerTensor ex = up(x);
      const DType out = row.to_real ? real_dtype(d) : d;
      for (const auto& axes : axis_sets) {
        for (bool keepdims : {false, true}) {
          SCOPED_TRACE(row.name + " " + std::string(dtype_name(d)) + " axes " + axes_text(axes) +
                       (keepdims ? " keepdims" : ""));
          const std::set<std::int64_t> ax = normalized(axes, 3);
          const Ref want = reduce_ref(x, ax, keepdims, out, row.red);
          std::int64_t count = 1;
          for (std::int64_t a : ax) count *= shape[static_cast<std::size_t>(a)];
          // Sums of `count` terms of size <= 2 may cancel: the absolute part scales with them.
          EXPECT_TRUE(close(down(row.op(ex, axes, keepdims)), want, tol_for(d),
                            2.0 * static_cast<double>(count)));
        }
      }
    }
  }
}

// Strided operands: a permuted, stepped slice and a stride-0 broadcast view reduce like the
// compact values they stand for.
TEST_P(PrimsReduce, ReductionsOfViews) {
  for (const ReduceRow& row : reduce_rows()) {
    for (DType d : dtypes()) {
      if (row.real_only && is_complex(d)) continue;
      SCOPED_TRACE(row.name + " " + std::string(dtype_name(d)));
      const DType out = row.to_real ? real_dtype(d) : d;
      const Ref x = random_ref(d, {4, 5, 6}, 67, 0.6, 1.4);
      const std::vector<std::int64_t> perm{2, 0, 1};
      const prims::Slice steps[] = {{1, std::nullopt, 2}, {}, {-4, std::nullopt, 2}};
      const EagerTensor v = prims::slice(prims::permute(up(x), perm), steps);  // [3, 4, 2]
      const Ref rv = slice_ref(slice_ref(permute_ref(x, perm), 0, 1, 6, 2), 2, -4, 5, 2);
      for (const prims::Axes& axes : {prims::Axes{0}, prims::Axes{-1, 1}}) {
        EXPECT_TRUE(close(down(row.op(v, axes, true)),
                          reduce_ref(rv, normalized(axes, 3), true, out, row.red), tol_for(d),
                          24.0))
            << axes_text(axes);
      }
      const Ref y = random_ref(d, {3, 1}, 68, 0.6, 1.4);
      const EagerTensor b = prims::broadcast_to(up(y), {2, 3, 4});
      Ref rb{d, {2, 3, 4}, {}};
      for (std::int64_t k = 0; k < 24; ++k) rb.v.push_back(broadcast_read(y, unravel(k, rb.shape)));
      EXPECT_TRUE(close(down(row.op(b, prims::Axes{0, 2}, false)),
                        reduce_ref(rb, {0, 2}, false, out, row.red), tol_for(d), 24.0));
    }
  }
}

// Reductions of a 0-d tensor and of 1-element tensors: the value itself (norm: its modulus).
TEST_P(PrimsReduce, ZeroDAndSingleElement) {
  for (const ReduceRow& row : reduce_rows()) {
    for (DType d : dtypes()) {
      if (row.real_only && is_complex(d)) continue;
      SCOPED_TRACE(row.name + " " + std::string(dtype_name(d)));
      const DType out = row.to_real ? real_dtype(d) : d;
      const Ref scalar = random_ref(d, {}, 63);
      EXPECT_TRUE(close(down(row.op(up(scalar), std::nullopt, false)),
                        reduce_ref(scalar, {}, false, out, row.red), tol_for(d)));
      const Ref one = random_ref(d, {1, 1}, 64);
      EXPECT_TRUE(close(down(row.op(up(one), prims::Axes{1}, true)),
                        reduce_ref(one, {1}, true, out, row.red), tol_for(d)));
    }
  }
}

// Over zero elements NumPy gives sum 0, prod 1, mean NaN, norm 0; max/min have no identity.
TEST_P(PrimsReduce, ZeroSizeReductions) {
  for (DType d : dtypes()) {
    SCOPED_TRACE(dtype_name(d));
    const EagerTensor x = up(make_ref(d, {0, 3}, {}));
    const DType r = real_dtype(d);
    EXPECT_TRUE(identical(down(prims::sum(x, prims::Axes{0})), make_ref(d, {3}, {0.0, 0.0, 0.0})));
    EXPECT_TRUE(identical(down(prims::sum(x)), make_ref(d, {}, {0.0})));
    EXPECT_TRUE(identical(down(prims::prod(x, prims::Axes{0})), make_ref(d, {3}, {1.0, 1.0, 1.0})));
    EXPECT_TRUE(identical(down(prims::prod(x)), make_ref(d, {}, {1.0})));
    EXPECT_TRUE(identical(down(prims::norm(x, prims::Axes{0}, true)),
                          make_ref(r, {1, 3}, {0.0, 0.0, 0.0})));
    const Ref m = down(prims::mean(x, prims::Axes{0}));
    EXPECT_EQ(m.shape, Shape{3});
    for (const C& z : m.v) EXPECT_TRUE(has_nan(z)) << "mean over zero elements gave " << fmt(z);
    // Reducing the non-empty axis leaves an empty result, which is fine for every op.
    EXPECT_EQ(prims::sum(x, prims::Axes{1}).shape(), Shape{0});
    EXPECT_EQ(prims::sum(x, prims::Axes{1}, true).shape(), (Shape{0, 1}));
    if (!is_complex(d)) {
      EXPECT_EQ(prims::max(x, prims::Axes{1}).shape(), Shape{0});
      for (ReduceFn op : {&prims::max, &prims::min}) {
        EXPECT_TRUE(
            throws_kind([&] { (void)op(x, prims::Axes{0}, false); }, ErrorKind::Validation));
        EXPECT_TRUE(throws_kind([&] { (void)op(x, std::nullopt, false); }, ErrorKind::Validation));
        // An empty reduced axis has no maximum even when the result is empty too (NumPy raises
        // for max over axis 0 of a 0 x 0 array); an adversarial sweep found it returned [].
        const EagerTensor empty = up(make_ref(d, {0, 0}, {}));
        EXPECT_TRUE(
            throws_kind([&] { (void)op(empty, prims::Axes{0}, false); }, ErrorKind::Validation));
        EXPECT_TRUE(
            throws_kind([&] { (void)op(empty, prims::Axes{1}, true); }, ErrorKind::Validation));
      }
    }
  }
}

TEST_P(PrimsReduce, NaNAndInfinityPropagate) {
  for (DType d : dtypes()) {
    if (is_complex(d)) continue;
    SCOPED_TRACE(dtype_name(d));
    // Column 0 holds a NaN, column 1 an infinity, column 2 both infinities.
    const Ref x = make_ref(d, {3, 3}, {1.0, kNaN, -2.0, 4.0, kInf, 0.5, kInf, -1.0, -kInf});
    const EagerTensor ex = up(x);
    for (const ReduceRow& row : reduce_rows()) {
      SCOPED_TRACE(row.name);
      EXPECT_TRUE(close(down(row.op(ex, prims::Axes{0}, false)),
                        reduce_ref(x, {0}, false, d, row.red), tol_for(d)));
    }
  }
}

TEST_P(PrimsReduce, BadAxesAreValidationErrors) {
  const EagerTensor x = up(random_ref(DType::F32, {2, 3, 4}, 65));
  const std::vector<prims::Axes> bad = {{3}, {-4}, {0, 0}, {1, -2}, {0, 5}};
  for (const prims::Axes& axes : bad) {
    SCOPED_TRACE(axes_text(axes));
    for (const ReduceRow& row : reduce_rows()) {
      EXPECT_TRUE(
          throws_kind([&] { (void)row.op(x, axes, false); }, ErrorKind::Validation, {"axis"}))
          << row.name;
    }
  }
}

TEST_P(PrimsReduce, MaxAndMinRefuseComplex) {
  const EagerTensor z = up(random_ref(DType::C32, {2, 3}, 66));
  EXPECT_TRUE(throws_kind([&] { (void)prims::max(z); }, ErrorKind::Validation));
  EXPECT_TRUE(throws_kind([&] { (void)prims::min(z, prims::Axes{0}); }, ErrorKind::Validation));
}

// 4 * 10^6 F32 values near 0.1: a serial float accumulator loses about 1% here (each addition
// to a running sum of ~10^5 rounds away a fixed share of the addend), while a pairwise or
// double-width accumulator stays near 1e-7. The test first proves that its own data defeats
// serial accumulation, so it cannot pass by accident of easy data.
TEST_P(PrimsReduce, LongF32ReductionNeedsAnAccurateAccumulator) {
  const std::int64_t rows = 1'000'000, cols = 4, n = rows * cols;
  std::vector<C> values(static_cast<std::size_t>(n));
  for (std::int64_t k = 0; k < n; ++k) values[static_cast<std::size_t>(k)] = 0.1 + 0.001 * (k % 7);
  const Ref x = make_ref(DType::F32, {rows, cols}, std::move(values));

  double exact = 0.0;  // double accumulation of F32 values: error ~ n * 2^-53, far below 1e-9
  float serial = 0.0f;
  std::vector<double> col_exact(cols, 0.0);
  for (std::int64_t k = 0; k < n; ++k) {
    const double v = x.v[static_cast<std::size_t>(k)].real();
    exact += v;
    serial += static_cast<float>(v);
    col_exact[static_cast<std::size_t>(k / rows)] += v;
  }
  const double rtol = tol_for(DType::F32).rtol;
  ASSERT_GT(std::abs(serial - exact) / exact, 100 * rtol)
      << "the data must defeat a serial float sum for this test to mean anything";

  const EagerTensor ex = up(x);
  const Ref total = down(prims::sum(ex));
  ASSERT_EQ(total.v.size(), 1u);
  EXPECT_NEAR(total.v[0].real(), exact, rtol * exact) << "sum of all " << n << " elements";
  const Ref avg = down(prims::mean(ex));
  EXPECT_NEAR(avg.v[0].real(), exact / static_cast<double>(n), rtol * exact / n) << "mean";
  // The norm accumulates squares (~0.01 each) the same way: sqrt of a double-accumulated sum.
  double squares = 0.0;
  for (const C& z : x.v) squares += z.real() * z.real();
  const Ref nrm = down(prims::norm(ex));
  EXPECT_NEAR(nrm.v[0].real(), std::sqrt(squares), rtol * std::sqrt(squares)) << "norm";
  const Ref cols_sum = down(prims::sum(ex, prims::Axes{0}));
  ASSERT_EQ(cols_sum.shape, Shape{cols});
  for (std::size_t c = 0; c < static_cast<std::size_t>(cols); ++c) {
    EXPECT_NEAR(cols_sum.v[c].real(), col_exact[c], rtol * col_exact[c]) << "column " << c;
  }
}

}  // namespace
}  // namespace tenferro::prims_test

namespace tenferro::prims_test {
namespace {

// The vectorised paths (eight lanes over contiguous runs; whole rows along a kept unit-stride
// axis, whichever axis that is) against the serial reference, on shapes long enough to use
// them and with NaN, infinities and zeros placed at lane boundaries and in tails.
TEST_P(PrimsReduce, LongRunsWithSpecialValuesMatchTheSerialRule) {
  for (DType d : dtypes()) {
    if (is_complex(d)) continue;
    SCOPED_TRACE(dtype_name(d));
    Ref x = random_ref(d, {37, 19}, 69, 0.6, 1.4);
    const auto at = [&](std::int64_t i, std::int64_t j) -> C& {
      return x.v[static_cast<std::size_t>(i + 37 * j)];
    };
    at(8, 1) = kNaN;    // a lane boundary
    at(36, 2) = kNaN;   // the tail
    at(0, 3) = kInf;    // the first element
    at(17, 4) = -kInf;  // the middle
    at(35, 5) = kInf;
    at(36, 5) = kNaN;
    for (std::int64_t i = 0; i < 37; ++i) at(i, 6) = 0.0;
    at(9, 6) = -0.0;
    const EagerTensor ex = up(x);
    const EagerTensor et = prims::permute(ex, std::vector<std::int64_t>{1, 0});  // [19, 37] view
    const Ref xt = permute_ref(x, {1, 0});
    for (const ReduceRow& row : reduce_rows()) {
      if (row.name == "norm" || row.name == "mean") continue;
      SCOPED_TRACE(row.name);
      for (std::int64_t axis : {0, 1}) {
        EXPECT_TRUE(close(down(row.op(ex, prims::Axes{axis}, false)),
                          reduce_ref(x, {axis}, false, d, row.red), tol_for(d), 40.0))
            << "axis " << axis;
        EXPECT_TRUE(close(down(row.op(et, prims::Axes{axis}, false)),
                          reduce_ref(xt, {axis}, false, d, row.red), tol_for(d), 40.0))
            << "transposed view, axis " << axis;
      }
    }
    // A column of zeros with one -0: IEEE 754-2019's -0 < +0, so max is +0 and min is -0,
    // whichever lane the -0 falls in.
    EXPECT_FALSE(std::signbit(down(prims::max(ex, prims::Axes{0}, false)).v[6].real()));
    EXPECT_TRUE(std::signbit(down(prims::min(ex, prims::Axes{0}, false)).v[6].real()));
  }
}

}  // namespace
}  // namespace tenferro::prims_test
