// Reductions on a CUDA runtime (skipped without a device): every reduction over any set of
// axes, with and without keepdims, against the CPU runtime; the identity over zero elements;
// 10^7-element sums, means, norms, max and min against a compensated long double reference,
// through each of the kernels' paths (one thread per output, one block per output, the
// two-pass split); float64 and complex128 norms whose squares leave float64's range, through
// each path, against the exact value; complex products of infinities as the CPU's.
#include <gtest/gtest.h>

#include "tenferro/config.hpp"

#if TENFERRO_HAS_CUDA

#include <cmath>
#include <complex>
#include <optional>
#include <random>
#include <vector>

#include "prims_cuda_fixture.hpp"

namespace tenferro {
namespace {

using cuda_test::agree;
using cuda_test::bit_identical;
using cuda_test::C;
using cuda_test::label;
using cuda_test::PrimsCudaTest;
using cuda_test::random_tensor;
using cuda_test::tolerance_of;
using cuda_test::values_of;

TEST_F(PrimsCudaTest, ReductionsOverAnyAxesMatchTheCpu) {
  using Reduce = EagerTensor (*)(const EagerTensor&, std::optional<prims::Axes>, bool);
  const std::vector<std::pair<std::string, Reduce>> all = {
      {"sum", prims::sum}, {"mean", prims::mean}, {"prod", prims::prod}, {"norm", prims::norm}};
  const std::vector<std::pair<std::string, Reduce>> real_only = {{"max", prims::max},
                                                                 {"min", prims::min}};
  const std::vector<std::optional<prims::Axes>> axes_sets = {std::nullopt,      prims::Axes{0},
                                                             prims::Axes{1},    prims::Axes{2},
                                                             prims::Axes{0, 2}, prims::Axes{-1, 1}};
  unsigned seed = 400;
  for (DType d : kAllDTypes) {
    const Tensor x = random_tensor(d, {5, 4, 3}, seed++);
    for (const auto& axes : axes_sets) {
      for (bool keep : {false, true}) {
        const auto run = [&](const std::string& name, Reduce f) {
          expect_matches_cpu(
              label(name, d) + (axes ? " axes" : " all") + (keep ? " keep" : ""), {x},
              [&](const std::vector<EagerTensor>& in) { return f(in[0], axes, keep); },
              tolerance_of(d) * 10);
        };
        for (const auto& [name, f] : all) run(name, f);
        if (!is_complex(d))
          for (const auto& [name, f] : real_only) run(name, f);
      }
    }
  }
}

TEST_F(PrimsCudaTest, ReductionsOverZeroElementsGiveTheIdentity) {
  for (DType d : kAllDTypes) {
    SCOPED_TRACE(dtype_name(d));
    const EagerTensor x = runtime_->upload(Tensor::zeros(d, {3, 0}));
    const prims::Axes axis1{1};
    const auto s = values_of(prims::sum(x, axis1).download());
    const auto p = values_of(prims::prod(x, axis1).download());
    const auto n = values_of(prims::norm(x, axis1).download());
    const auto m = values_of(prims::mean(x, axis1).download());
    ASSERT_EQ(s.size(), 3u);
    for (int i = 0; i < 3; ++i) {
      EXPECT_EQ(s[i], C(0.0));
      EXPECT_EQ(p[i], C(1.0));
      EXPECT_EQ(n[i], C(0.0));
      EXPECT_TRUE(std::isnan(m[i].real())) << "mean over nothing is NaN, as NumPy";
    }
  }
}

// A compensated sum in long double: the reference for the long reductions.
long double reference_sum(const std::vector<double>& v, bool squares) {
  long double s = 0, c = 0;
  for (double x : v) {
    const long double y = (squares ? static_cast<long double>(x) * x : x) - c;
    const long double t = s + y;
    c = (t - s) - y;
    s = t;
  }
  return s;
}

TEST_F(PrimsCudaTest, LongReductionsStayAccurate) {
  const std::int64_t n = 10'000'000;
  std::mt19937_64 rng(77);
  std::uniform_real_distribution<double> uni(0.0, 1.0);
  for (DType d : {DType::F32, DType::F64}) {
    SCOPED_TRACE(dtype_name(d));
    // Positive values: the case where a naive float/serial sum drifts the most.
    std::vector<double> v(static_cast<std::size_t>(n));
    for (double& x : v) x = uni(rng) + 0.25;
    Tensor host = Tensor::from_col_major<double>({n}, v);
    if (d == DType::F32) {
      host = prims::cast(cpu_->upload(host), DType::F32).download();
      for (std::size_t i = 0; i < v.size(); ++i) v[i] = static_cast<float>(v[i]);
    }
    const EagerTensor x = runtime_->upload(host);
    const RuntimeStats before = runtime_->stats();
    const EagerTensor s = prims::sum(x), m = prims::mean(x), nrm = prims::norm(x);
    const EagerTensor mx = prims::max(x), mn = prims::min(x);
    EXPECT_EQ(runtime_->stats().uploads, before.uploads);
    const long double ref = reference_sum(v, false);
    const long double ref_sq = reference_sum(v, true);
    // F64: a few ulps; F32: the float rounding of the result (accumulation is in double).
    const double rel = d == DType::F64 ? 1e-14 : 1.2e-7;
    const auto got = [](const EagerTensor& t) { return values_of(t.download())[0].real(); };
    EXPECT_NEAR(got(s), static_cast<double>(ref), rel * static_cast<double>(ref));
    EXPECT_NEAR(got(m), static_cast<double>(ref / n), rel * static_cast<double>(ref / n));
    EXPECT_NEAR(got(nrm), std::sqrt(static_cast<double>(ref_sq)),
                rel * std::sqrt(static_cast<double>(ref_sq)));
    EXPECT_EQ(got(mx), *std::max_element(v.begin(), v.end()));
    EXPECT_EQ(got(mn), *std::min_element(v.begin(), v.end()));
    // Each reduction path: few long outputs (one block each), many short ones (one thread
    // each), a long strided one; against the CPU runtime.
    for (const Shape& shape : {Shape{2500, 4000}, Shape{10, 1000000}}) {
      const Tensor h2 = host.reshape(shape);
      for (const prims::Axes& axes : {prims::Axes{0}, prims::Axes{1}}) {
        expect_matches_cpu(
            "sum " + shape_to_string(shape), {h2},
            [&](const std::vector<EagerTensor>& in) { return prims::sum(in[0], axes); },
            d == DType::F64 ? 1e-13 : 1e-6, /*strided=*/false);
      }
    }
  }
}

// Float64 and complex128 norms whose sum of squares overflows or underflows float64 are computed
// again on the device with the parts scaled by a power of two, as the CPU runtime does
// (norm([1e200, 1e200]) was inf, norm([1e-170]) 0): against the exact |v| sqrt(n), through
// each kernel path (n < 512: one thread per output; 1000: one block; 10^5: seven parts and the
// combining kernel), next to an output in range that keeps its value. float32 and complex64
// squares are summed in double and never leave its range.
TEST_F(PrimsCudaTest, NormsOutOfFloat64RangeAreRescaledOnTheDevice) {
  for (DType d : {DType::F64, DType::C64}) {
    for (double v : {1e200, -1e300, 1e-170, 2.5e-310}) {
      for (std::int64_t n : {1, 2, 3, 1000, 100000}) {
        SCOPED_TRACE(std::string(dtype_name(d)) + " " + ::testing::PrintToString(v) + " x " +
                     std::to_string(n));
        // Column 0: n copies of v (v + v i for complex128); column 1: n ones, in range.
        const std::size_t count = static_cast<std::size_t>(2 * n);
        Tensor host;
        double magnitude = std::abs(v);
        if (d == DType::F64) {
          std::vector<double> x(count, 1.0);
          for (std::int64_t i = 0; i < n; ++i) x[static_cast<std::size_t>(i)] = v;
          host = Tensor::from_col_major<double>({n, 2}, x);
        } else {
          std::vector<C> x(count, C(1.0, 0.0));
          for (std::int64_t i = 0; i < n; ++i) x[static_cast<std::size_t>(i)] = C(v, v);
          host = Tensor::from_col_major<C>({n, 2}, x);
          magnitude *= std::sqrt(2.0);
        }
        const EagerTensor x = runtime_->upload(host);
        const RuntimeStats before = runtime_->stats();
        const EagerTensor by_column = prims::norm(x, prims::Axes{0});
        const std::vector<prims::Slice> first_column{prims::Slice{}, prims::Slice{0, 1}};
        const EagerTensor whole = prims::norm(prims::slice(x, first_column));
        EXPECT_EQ(runtime_->stats().downloads, before.downloads) << "rescaled on the device";
        const std::vector<C> cols = values_of(by_column.download());
        const std::vector<C> all = values_of(whole.download());
        const double want = magnitude * std::sqrt(static_cast<double>(n));
        ASSERT_EQ(cols.size(), 2u);
        EXPECT_NEAR(cols[0].real(), want, 1e-13 * want);
        EXPECT_NEAR(all[0].real(), want, 1e-13 * want);
        EXPECT_EQ(cols[1].real(), std::sqrt(static_cast<double>(n)));
      }
    }
  }
}

// Complex products of infinities as std::complex's (C99 Annex G), elementwise and in a product
// reduction: (inf + inf i)(0 + 1i) = -inf + inf i, not NaN + NaN i.
TEST_F(PrimsCudaTest, ComplexProductsOfInfinitiesAreTheCpus) {
  const double inf = INFINITY;
  for (DType d : {DType::C32, DType::C64}) {
    SCOPED_TRACE(dtype_name(d));
    const auto tensor = [&](std::initializer_list<C> v) {
      return prims::cast(cpu_->upload(Tensor::from_col_major<C>({std::int64_t(v.size())}, v)), d)
          .download();
    };
    const Tensor a = tensor({C(inf, inf), C(inf, 0.0), C(0.0, inf)});
    const Tensor b = tensor({C(0.0, 1.0), C(inf, inf), C(2.0, 0.0)});
    const auto [got, want] = run_both(
        {a, b}, [](const std::vector<EagerTensor>& in) { return prims::mul(in[0], in[1]); });
    EXPECT_TRUE(agree(got, want, 0.0));
    EXPECT_EQ(values_of(got)[0], C(-inf, inf));
    const auto [p_got, p_want] =
        run_both({tensor({C(inf, inf), C(0.0, 1.0)})},
                 [](const std::vector<EagerTensor>& in) { return prims::prod(in[0]); });
    EXPECT_TRUE(agree(p_got, p_want, 0.0));
    EXPECT_EQ(values_of(p_got)[0], C(-inf, inf));
  }
}

}  // namespace
}  // namespace tenferro

#endif  // TENFERRO_HAS_CUDA
