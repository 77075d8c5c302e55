// prims.v1 reductions on a WebGPU runtime, against a naive reference in double computed here
// from the operand's storage (independently of the library's views and kernels):
//  - every reduction and dtype the WebGPU set claims, over every set of axes, on compact,
//    permuted, sliced and broadcast operands, with and without keepdims, device resident;
//  - reductions over zero elements (the identities; NaN for the mean);
//  - NaN and Inf through max/min/sum/norm, and norm without overflow for values near FLT_MAX;
//  - 10^7-element sums and norms (one output: the tree passes; 100 outputs: the serial passes)
//    with an error bound that the test first shows a naive serial f32 sum fails.
#include <gtest/gtest.h>

#include "tenferro/config.hpp"

#if TENFERRO_HAS_WEBGPU

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "ops/prims/prim_kind.hpp"
#include "prims_webgpu_support.hpp"
#include "tenferro/prims.hpp"
#include "webgpu_fixture.hpp"

namespace tenferro {
namespace {

using namespace prims_webgpu_test;
using prims_internal::PrimKind;

using PrimsWebGpuReduce = webgpu_test::WebGpuTest;

EagerTensor reduce_by(PrimKind kind, const EagerTensor& x, std::optional<prims::Axes> axes,
                      bool keepdims) {
  switch (kind) {
    case PrimKind::Sum:
      return prims::sum(x, axes, keepdims);
    case PrimKind::Mean:
      return prims::mean(x, axes, keepdims);
    case PrimKind::Prod:
      return prims::prod(x, axes, keepdims);
    case PrimKind::Max:
      return prims::max(x, axes, keepdims);
    case PrimKind::Min:
      return prims::min(x, axes, keepdims);
    default:
      return prims::norm(x, axes, keepdims);
  }
}

// Per output element: the reduction in double, and what its tolerance is scaled by.
struct Expected {
  std::vector<cd> value;
  std::vector<double> tolerance;
};

Expected naive_reduce(PrimKind kind, View v, const Tensor& storage,
                      const std::optional<prims::Axes>& axes) {
  bool reduced[3] = {!axes, !axes, !axes};
  if (axes) {
    for (std::int64_t a : *axes) reduced[a < 0 ? a + 3 : a] = true;  // negative: from the end
  }
  std::int64_t out_shape[3], n_out = 1, count = 1;
  for (int a = 0; a < 3; ++a) {
    out_shape[a] = reduced[a] ? 1 : kViewShape[static_cast<std::size_t>(a)];
    n_out *= out_shape[a];
    if (reduced[a]) count *= kViewShape[static_cast<std::size_t>(a)];
  }
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  std::vector<cd> acc(static_cast<std::size_t>(n_out), kind == PrimKind::Prod  ? cd(1.0)
                                                       : kind == PrimKind::Max ? cd(-inf)
                                                       : kind == PrimKind::Min ? cd(inf)
                                                                               : cd(0.0));
  std::vector<double> magnitude(static_cast<std::size_t>(n_out), 0.0);
  for (std::int64_t k = 0; k < kViewShape[2]; ++k) {
    for (std::int64_t j = 0; j < kViewShape[1]; ++j) {
      for (std::int64_t i = 0; i < kViewShape[0]; ++i) {
        const cd x = logical_value(v, storage, i, j, k);
        const std::int64_t oi = reduced[0] ? 0 : i, oj = reduced[1] ? 0 : j,
                           ok = reduced[2] ? 0 : k;
        const auto o = static_cast<std::size_t>(oi + out_shape[0] * (oj + out_shape[1] * ok));
        magnitude[o] += std::abs(x);
        switch (kind) {
          case PrimKind::Sum:
          case PrimKind::Mean:
            acc[o] += x;
            break;
          case PrimKind::Prod:
            acc[o] *= x;
            break;
          case PrimKind::Max:
            acc[o] = std::isnan(acc[o].real()) || std::isnan(x.real())
                         ? cd(nan)
                         : cd(std::max(acc[o].real(), x.real()));
            break;
          case PrimKind::Min:
            acc[o] = std::isnan(acc[o].real()) || std::isnan(x.real())
                         ? cd(nan)
                         : cd(std::min(acc[o].real(), x.real()));
            break;
          default:
            acc[o] += std::norm(x);
            break;
        }
      }
    }
  }
  Expected e;
  for (std::size_t o = 0; o < acc.size(); ++o) {
    cd value = acc[o];
    // Sums: a few roundings of the sum of magnitudes (pairwise accumulation); a product of n
    // terms: about n roundings of the result; max/min exact; the norm: a few of the result.
    double tol = 8 * kEpsF32 * magnitude[o];
    if (kind == PrimKind::Mean) {
      value /= static_cast<double>(count);
      tol /= static_cast<double>(count);
    } else if (kind == PrimKind::Prod) {
      tol = 4 * static_cast<double>(count + 1) * kEpsF32 * std::abs(value);
    } else if (kind == PrimKind::Max || kind == PrimKind::Min) {
      tol = 0;
    } else if (kind == PrimKind::Norm) {
      value = std::sqrt(value.real());
      tol = 8 * kEpsF32 * value.real();
    }
    e.value.push_back(value);
    e.tolerance.push_back(tol);
  }
  return e;
}

TEST_F(PrimsWebGpuReduce, EveryReductionMatchesANaiveReferenceOverEveryAxisSet) {
  const std::vector<std::optional<prims::Axes>> axis_sets = {
      std::nullopt,   prims::Axes{0},    prims::Axes{1},
      prims::Axes{2}, prims::Axes{0, 2}, prims::Axes{-1, -2}};
  std::uint64_t seed = 900;
  int checked = 0;
  for (PrimKind kind : {PrimKind::Sum, PrimKind::Mean, PrimKind::Prod, PrimKind::Max, PrimKind::Min,
                        PrimKind::Norm}) {
    for (DType dtype : {DType::F32, DType::C32}) {
      if ((prims_internal::info(kind).dtypes & prims_internal::dtype_bit(dtype)) == 0) continue;
      // Products stay well inside f32's range: |x| within [0.85, 1.41].
      const double lo = kind == PrimKind::Prod ? (dtype == DType::C32 ? 0.6 : 0.7) : -2.0;
      const double hi = kind == PrimKind::Prod ? (dtype == DType::C32 ? 1.0 : 1.3) : 2.0;
      for (View v : {View::Compact, View::Permuted, View::Strided, View::Broadcast}) {
        for (std::size_t s = 0; s < axis_sets.size(); ++s) {
          const bool keepdims = s % 2 == 1;
          const std::string what = std::string(prims_internal::prim_name(kind)) + " " +
                                   std::string(dtype_name(dtype)) + " " + view_name(v) +
                                   " axis set " + std::to_string(s);
          const Tensor storage = view_storage(v, dtype, ++seed, lo, hi);
          const EagerTensor x = make_view(runtime_, v, storage);
          const EagerTensor got = run_resident(
              runtime_, [&] { return reduce_by(kind, x, axis_sets[s], keepdims); }, what);
          const Expected want = naive_reduce(kind, v, storage, axis_sets[s]);
          const std::vector<cd> g = values_of(got.download());
          ASSERT_EQ(g.size(), want.value.size()) << what;
          EXPECT_EQ(got.dtype(), prims_internal::kernel_output_dtype(kind, dtype)) << what;
          for (std::size_t o = 0; o < g.size(); ++o) {
            EXPECT_TRUE(close_part(g[o].real(), want.value[o].real(), want.tolerance[o]) &&
                        close_part(g[o].imag(), want.value[o].imag(), want.tolerance[o]))
                << what << ": output " << o << " is " << g[o] << ", expected " << want.value[o]
                << " (tolerance " << want.tolerance[o] << ")";
          }
          ++checked;
        }
      }
    }
  }
  EXPECT_EQ(checked, 10 * 4 * 6);  // (op, dtype) pairs x layouts x axis sets
}

TEST_F(PrimsWebGpuReduce, ZeroReducedElementsGiveTheIdentity) {
  for (DType dtype : {DType::F32, DType::C32}) {
    const EagerTensor x = runtime_->upload(Tensor::zeros(dtype, {0, 3}));
    const prims::Axes axis0{0};
    const auto first = [&](const EagerTensor& t) {
      const std::vector<cd> v = values_of(t.download());
      EXPECT_EQ(v.size(), 3u);
      return v.at(0);
    };
    EXPECT_EQ(first(run_resident(
                  runtime_, [&] { return prims::sum(x, axis0); }, "sum")),
              cd(0));
    EXPECT_EQ(first(prims::prod(x, axis0)), cd(1));
    EXPECT_EQ(first(prims::norm(x, axis0)), cd(0));
    const cd m = first(prims::mean(x, axis0));
    EXPECT_TRUE(std::isnan(m.real())) << m;
  }
}

// 0-d operands: a reduction over no axes of a scalar, and element-wise ops on scalars.
TEST_F(PrimsWebGpuReduce, ZeroDimensionalOperands) {
  const EagerTensor x = runtime_->upload(Tensor::scalar<cf>({3.0f, -4.0f}));
  const EagerTensor r = runtime_->upload(Tensor::scalar<float>(-2.5f));
  EXPECT_EQ(prims::sum(x).download().to_vector<cf>().at(0), cf(3.0f, -4.0f));
  EXPECT_EQ(prims::norm(x).download().to_vector<float>().at(0), 5.0f);
  EXPECT_EQ(prims::max(r).download().to_vector<float>().at(0), -2.5f);
  const EagerTensor p = run_resident(
      runtime_, [&] { return prims::mul(x, x); }, "0-d mul");
  EXPECT_TRUE(p.shape().empty());
  EXPECT_EQ(p.download().to_vector<cf>().at(0), cf(-7.0f, -24.0f));
  EXPECT_EQ(prims::abs(r).download().to_vector<float>().at(0), 2.5f);
}

TEST_F(PrimsWebGpuReduce, NanAndInfPropagateAndNormDoesNotOverflow) {
  const float inf = std::numeric_limits<float>::infinity();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  // Columns (reduced over axis 0): a NaN first; +inf then a NaN last; -inf with +inf; a value
  // near FLT_MAX with tiny ones (its square overflows f32, theirs underflow).
  const std::vector<float> v = {nan,  1.0f, 2.0f, 3.0f, 4.0f,  5.0f,   inf,    nan,
                                -inf, 1.0f, inf,  2.0f, 3e38f, 1e-30f, 1e-30f, 3e-30f};
  const EagerTensor x = runtime_->upload(Tensor::from_col_major<float>({4, 4}, v));
  const prims::Axes axis0{0};
  const std::vector<float> mx = prims::max(x, axis0).download().to_vector<float>();
  const std::vector<float> mn = prims::min(x, axis0).download().to_vector<float>();
  const std::vector<float> sm = prims::sum(x, axis0).download().to_vector<float>();
  const std::vector<float> nr = prims::norm(x, axis0).download().to_vector<float>();
  for (std::size_t c : {0u, 1u}) {
    EXPECT_TRUE(std::isnan(mx[c]) && std::isnan(mn[c]) && std::isnan(sm[c]) && std::isnan(nr[c]))
        << "column " << c << ": max " << mx[c] << ", min " << mn[c] << ", sum " << sm[c]
        << ", norm " << nr[c];
  }
  EXPECT_EQ(mx[2], inf);
  EXPECT_EQ(mn[2], -inf);
  EXPECT_TRUE(std::isnan(sm[2])) << sm[2];  // inf - inf
  EXPECT_EQ(nr[2], inf);
  EXPECT_EQ(mx[3], 3e38f);
  EXPECT_EQ(mn[3], 1e-30f);
  EXPECT_EQ(sm[3], 3e38f);
  EXPECT_EQ(nr[3], 3e38f);
  const std::vector<float> w = {1e-30f, 2e-30f, 2e-30f, 4e-30f, 3e37f, 4e37f, 0.0f, 0.0f};
  const std::vector<float> nw =
      prims::norm(runtime_->upload(Tensor::from_col_major<float>({4, 2}, w)), axis0)
          .download()
          .to_vector<float>();
  EXPECT_NEAR(nw[0], 5e-30, 8 * kEpsF32 * 5e-30);  // squares of 1e-30 underflow f32
  EXPECT_NEAR(nw[1], 5e37, 8 * kEpsF32 * 5e37);    // squares of 3e37 overflow f32
}

// Values in [0.5, 1.5): a nonzero mean, so that accumulated rounding shows.
std::vector<float> long_values(std::int64_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> dist(0.5f, 1.5f);
  std::vector<float> v(static_cast<std::size_t>(n));
  for (float& x : v) x = dist(rng);
  return v;
}

// |got - want| <= 32 eps_f32 |want|: far above what pairwise summation leaves (a few roundings
// of the result), far below what a serial f32 sum of 10^7 terms leaves (checked below).
constexpr double kLongBound = 32 * kEpsF32;

TEST_F(PrimsWebGpuReduce, TenMillionElementSumAndNormAreAccurate) {
  const std::int64_t n = 10'000'000;
  const std::vector<float> v = long_values(n, 42);
  double sum = 0, sumsq = 0;
  float serial = 0;
  for (float x : v) {
    sum += x;
    sumsq += static_cast<double>(x) * x;
    serial += x;
  }
  // The bound discriminates: a naive serial f32 accumulation misses it by far.
  ASSERT_GT(std::abs(serial - sum), kLongBound * sum) << "serial f32 sum " << serial;

  const EagerTensor x = runtime_->upload(Tensor::from_col_major<float>({n}, v));
  const float s = run_resident(
                      runtime_, [&] { return prims::sum(x); }, "sum 1e7")
                      .download()
                      .to_vector<float>()
                      .at(0);
  const float nr = run_resident(
                       runtime_, [&] { return prims::norm(x); }, "norm 1e7")
                       .download()
                       .to_vector<float>()
                       .at(0);
  const float mean = prims::mean(x).download().to_vector<float>().at(0);
  EXPECT_LE(std::abs(s - sum), kLongBound * sum) << "sum " << s << " vs " << sum;
  EXPECT_LE(std::abs(nr - std::sqrt(sumsq)), kLongBound * std::sqrt(sumsq))
      << "norm " << nr << " vs " << std::sqrt(sumsq);
  EXPECT_LE(std::abs(mean - sum / n), kLongBound * sum / n) << "mean " << mean;

  // 100 outputs of 10^5 terms each, reduced over axis 1 of a {100, 100000} view: the serial
  // chunked passes. A NaN in row 7 and a maximum planted in row 3.
  std::vector<float> w = v;
  w[static_cast<std::size_t>(7 + 100 * 51234)] = std::numeric_limits<float>::quiet_NaN();
  w[static_cast<std::size_t>(3 + 100 * 99999)] = 7.0f;
  const EagerTensor y = runtime_->upload(Tensor::from_col_major<float>({100, 100'000}, w));
  const prims::Axes axis1{1};
  const std::vector<float> rows = prims::sum(y, axis1).download().to_vector<float>();
  const std::vector<float> maxima = prims::max(y, axis1).download().to_vector<float>();
  for (std::int64_t r = 0; r < 100; ++r) {
    double want = 0, want_max = -1;
    for (std::int64_t c = 0; c < 100'000; ++c) {
      const float e = w[static_cast<std::size_t>(r + 100 * c)];
      want += e;
      want_max =
          std::isnan(e) || std::isnan(want_max) ? std::nan("") : std::max<double>(want_max, e);
    }
    const auto ri = static_cast<std::size_t>(r);
    if (r == 7) {
      EXPECT_TRUE(std::isnan(rows[ri]) && std::isnan(maxima[ri])) << rows[ri] << " " << maxima[ri];
      continue;
    }
    EXPECT_LE(std::abs(rows[ri] - want), kLongBound * want) << "row " << r;
    EXPECT_EQ(maxima[ri], static_cast<float>(want_max)) << "row " << r;
  }
  EXPECT_EQ(maxima[3], 7.0f);
}

TEST_F(PrimsWebGpuReduce, LongComplexSumIsAccurate) {
  const std::int64_t n = 3'000'000;
  const std::vector<float> parts = long_values(2 * n, 7);
  std::vector<cf> v(static_cast<std::size_t>(n));
  cd want = 0;
  for (std::size_t i = 0; i < v.size(); ++i) {
    v[i] = {parts[2 * i], -parts[2 * i + 1]};
    want += cd(v[i].real(), v[i].imag());
  }
  const EagerTensor x = runtime_->upload(Tensor::from_col_major<cf>({n}, v));
  const cf got = prims::sum(x).download().to_vector<cf>().at(0);
  EXPECT_LE(std::abs(cd(got.real(), got.imag()) - want), kLongBound * std::abs(want))
      << got << " vs " << want;
}

// A reduction whose input has more than 2^31-1 elements (a broadcast view: no memory) is
// refused with Unsupported: WGSL indexes with i32.
TEST_F(PrimsWebGpuReduce, MoreThanInt32ElementsIsUnsupported) {
  const EagerTensor one = runtime_->upload(Tensor::zeros(DType::F32, {1, 1}));
  const EagerTensor huge = prims::broadcast_to(one, {65536, 65536});
  try {
    prims::sum(huge);
    ADD_FAILURE() << "a 2^32-element reduction ran on WebGPU";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Unsupported) << e.what();
    EXPECT_NE(std::string(e.what()).find("2^31-1"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace tenferro

#endif  // TENFERRO_HAS_WEBGPU
