// The prims family on a CUDA runtime (skipped without a device): every element-wise op,
// reduction, cast and creation op for every dtype it allows, on strided and broadcast inputs,
// against the CPU runtime's result for the same host data; the results stay on the device, no
// transfer and no CPU kernel happens inside an op. Independent references where the CPU is not
// enough: NumPy's branch cuts written out, long (10^7) reductions against a compensated long
// double sum, random words against philox.hpp evaluated here.
#include <gtest/gtest.h>

#include "tenferro/config.hpp"

#if TENFERRO_HAS_CUDA

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstring>
#include <functional>
#include <limits>
#include <numbers>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "cuda_fixture.hpp"
#include "ops/prims/philox.hpp"
#include "support/device_result_checks.hpp"
#include "tenferro/prims.hpp"
#include "tenferro/runtime/stats.hpp"

namespace tenferro {
namespace {

using cuda_test::random_tensor;
using C = std::complex<double>;

constexpr const char* kPrimsOnCuda = "tenferro.prims.v1@cuda";

// The values of a host tensor as complex<double>, column-major.
std::vector<C> values_of(const Tensor& t) {
  return visit_dtype(t.dtype(), [&](auto tag) {
    using T = decltype(tag);
    std::vector<C> out;
    for (const T& v : t.contiguous().to_vector<T>()) out.emplace_back(C(v));
    return out;
  });
}

// Relative tolerance of the dtype's precision for results of a few rounded operations.
double tolerance_of(DType d) {
  return is_double(d) ? 1e-12 : 2e-5;
}

bool same_special(double a, double b) {
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
  if (std::isinf(a) || std::isinf(b)) return a == b;
  return false;
}

// got == want element-wise within `tol` relative to max(1, |want|); NaN matches NaN and an
// infinity the same infinity, part by part.
::testing::AssertionResult agree(const Tensor& got, const Tensor& want, double tol) {
  if (got.dtype() != want.dtype())
    return ::testing::AssertionFailure()
           << "dtype " << dtype_name(got.dtype()) << " vs " << dtype_name(want.dtype());
  if (got.shape() != want.shape())
    return ::testing::AssertionFailure()
           << "shape " << shape_to_string(got.shape()) << " vs " << shape_to_string(want.shape());
  const std::vector<C> g = values_of(got), w = values_of(want);
  for (std::size_t i = 0; i < g.size(); ++i) {
    const double scale = std::max(1.0, std::abs(w[i]));
    for (int part = 0; part < 2; ++part) {
      const double a = part == 0 ? g[i].real() : g[i].imag();
      const double b = part == 0 ? w[i].real() : w[i].imag();
      if (same_special(a, b)) continue;
      if (!std::isfinite(a) || !std::isfinite(b) || std::abs(a - b) > tol * scale) {
        return ::testing::AssertionFailure()
               << "element " << i << (part ? " (imag)" : " (real)") << ": got " << a << ", want "
               << b << " (tolerance " << tol * scale << ")";
      }
    }
  }
  return ::testing::AssertionSuccess();
}

// Bit-for-bit equality of two host tensors (same dtype and shape).
bool bit_identical(const Tensor& a, const Tensor& b) {
  const Tensor ca = a.contiguous(), cb = b.contiguous();
  return a.dtype() == b.dtype() && a.shape() == b.shape() &&
         std::memcmp(ca.raw_data(), cb.raw_data(), ca.nbytes()) == 0;
}

using Op = std::function<EagerTensor(const std::vector<EagerTensor>&)>;

class PrimsCudaTest : public cuda_test::CudaTest {
 protected:
  void SetUp() override {
    cuda_test::CudaTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    cpu_ = EagerRuntime::cpu();
  }

  // Runs `op` on the CUDA runtime (inputs uploaded as strided views when `strided`) and on the
  // CPU runtime with the same host data. Checks that the CUDA result stays on the device and
  // that the op made no transfer and ran no CPU kernel; returns both results downloaded.
  std::pair<Tensor, Tensor> run_both(const std::vector<Tensor>& hosts, const Op& op,
                                     bool strided = true) {
    std::vector<EagerTensor> on_gpu, on_cpu;
    for (const Tensor& h : hosts) {
      on_cpu.push_back(cpu_->upload(h));
      on_gpu.push_back(strided ? testing::upload_strided_view(runtime_, h) : runtime_->upload(h));
    }
    const RuntimeStats before = runtime_->stats();
    const std::uint64_t cpu_kernels = process_cpu_kernel_launches();
    const EagerTensor result = op(on_gpu);
    const RuntimeStats after = runtime_->stats();
    EXPECT_EQ(process_cpu_kernel_launches(), cpu_kernels) << "a CPU kernel ran for a CUDA op";
    EXPECT_EQ(after.uploads, before.uploads) << "no transfer inside an op";
    EXPECT_EQ(after.downloads, before.downloads);
    if (result.numel() > 0) {
      EXPECT_GT(after.kernel_launches_for(kPrimsOnCuda), before.kernel_launches_for(kPrimsOnCuda))
          << "the CUDA prims kernels ran";
    }
    EXPECT_EQ(result.runtime(), runtime_);
    EXPECT_EQ(result.placement(), runtime_->backend().placement());
    return {result.download(), op(on_cpu).download()};
  }

  void expect_matches_cpu(const std::string& what, const std::vector<Tensor>& hosts, const Op& op,
                          double tol, bool strided = true) {
    SCOPED_TRACE(what);
    const auto [got, want] = run_both(hosts, op, strided);
    EXPECT_TRUE(agree(got, want, tol));
  }

  std::shared_ptr<EagerRuntime> cpu_;
};

std::string label(const std::string& op, DType d) {
  return op + " " + std::string(dtype_name(d));
}

TEST_F(PrimsCudaTest, UnaryOpsMatchTheCpuForEveryDtypeOnStridedInputs) {
  using Unary = EagerTensor (*)(const EagerTensor&);
  const std::vector<std::pair<std::string, Unary>> ops = {
      {"neg", prims::neg},       {"conj", prims::conj}, {"abs", prims::abs},
      {"real", prims::real},     {"imag", prims::imag}, {"sqrt", prims::sqrt},
      {"exp", prims::exp},       {"log", prims::log},   {"sin", prims::sin},
      {"cos", prims::cos},       {"tanh", prims::tanh}, {"reciprocal", prims::reciprocal},
      {"square", prims::square}, {"sign", prims::sign}};
  unsigned seed = 1;
  for (DType d : kAllDTypes) {
    // Values in [-3, 3] (both parts): negative reals for sqrt/log's NaN, large enough for tanh.
    const Tensor scaled =
        prims::scale(cpu_->upload(random_tensor(d, {6, 5, 3}, seed++)), 3.0).download();
    for (const auto& [name, f] : ops) {
      expect_matches_cpu(
          label(name, d), {scaled},
          [f = f](const std::vector<EagerTensor>& in) { return f(in[0]); }, tolerance_of(d));
    }
  }
}

TEST_F(PrimsCudaTest, ComplexBranchCutsAndSignedZerosAreNumPys) {
  const double pi = std::numbers::pi;
  // (input, sqrt, log) with NumPy's results: the sign of a zero imaginary part picks the side
  // of the cut on the negative real axis.
  struct Case {
    C z, sqrt, log;
  };
  const std::vector<Case> cases = {
      {C(-4.0, 0.0), C(0.0, 2.0), C(std::log(4.0), pi)},
      {C(-4.0, -0.0), C(0.0, -2.0), C(std::log(4.0), -pi)},
      {C(-1.0, 0.0), C(0.0, 1.0), C(0.0, pi)},
      {C(-1.0, -0.0), C(0.0, -1.0), C(0.0, -pi)},
      {C(4.0, 0.0), C(2.0, 0.0), C(std::log(4.0), 0.0)},
      {C(0.0, 2.0), C(1.0, 1.0), C(std::log(2.0), pi / 2)},
  };
  for (DType d : {DType::C32, DType::C64}) {
    SCOPED_TRACE(dtype_name(d));
    std::vector<C> zs;
    for (const Case& c : cases) zs.push_back(c.z);
    Tensor host = Tensor::from_col_major<C>({static_cast<std::int64_t>(zs.size())}, zs);
    if (d == DType::C32) host = prims::cast(cpu_->upload(host), DType::C32).download();
    const EagerTensor x = runtime_->upload(host);
    const std::vector<C> s = values_of(prims::sqrt(x).download());
    const std::vector<C> l = values_of(prims::log(x).download());
    const double tol = tolerance_of(d);
    for (std::size_t i = 0; i < cases.size(); ++i) {
      SCOPED_TRACE("z = " + std::to_string(cases[i].z.real()) +
                   (std::signbit(cases[i].z.imag()) ? " - " : " + ") +
                   std::to_string(std::abs(cases[i].z.imag())) + "i");
      EXPECT_NEAR(s[i].real(), cases[i].sqrt.real(), tol);
      EXPECT_NEAR(s[i].imag(), cases[i].sqrt.imag(), tol * 2);
      EXPECT_EQ(std::signbit(s[i].imag()), std::signbit(cases[i].sqrt.imag()));
      EXPECT_NEAR(l[i].real(), cases[i].log.real(), tol * 4);
      EXPECT_NEAR(l[i].imag(), cases[i].log.imag(), tol * 4);
    }
    // And the rest of the special values agree with the CPU's C99 functions.
    const std::vector<C> specials = {C(0.0, 0.0),       C(-0.0, -0.0),     C(1e300, 1e300),
                                     C(1e-310, 1e-310), C(-1e300, 1e-300), C(0.0, -3.0),
                                     C(-2.5, 0.0),      C(2.5, -0.0)};
    if (d == DType::C32) continue;  // 1e300 does not fit C32; the table above covers C32
    const Tensor sp =
        Tensor::from_col_major<C>({static_cast<std::int64_t>(specials.size())}, specials);
    for (auto f : {prims::sqrt, prims::log, prims::exp, prims::sign, prims::abs, prims::tanh}) {
      expect_matches_cpu(
          "specials", {sp}, [f](const std::vector<EagerTensor>& in) { return f(in[0]); }, 1e-12,
          /*strided=*/false);
    }
  }
}

TEST_F(PrimsCudaTest, BinaryOpsBroadcastAndMatchTheCpu) {
  using Binary = EagerTensor (*)(const EagerTensor&, const EagerTensor&);
  const std::vector<std::pair<std::string, Binary>> all = {
      {"add", prims::add}, {"sub", prims::sub}, {"mul", prims::mul}, {"div", prims::div}};
  const std::vector<std::pair<std::string, Binary>> real_only = {
      {"maximum", prims::maximum}, {"minimum", prims::minimum}, {"pow", prims::pow}};
  // (a shape, b shape): stretched size-1 axes on both sides, a 0-d operand, a missing axis.
  const std::vector<std::pair<Shape, Shape>> shapes = {
      {{4, 1, 3}, {1, 5, 3}}, {{6, 7}, {}}, {{5, 4}, {4}}, {{1}, {3, 2}}, {{3, 0}, {1, 0}}};
  unsigned seed = 100;
  for (DType d : kAllDTypes) {
    for (const auto& [sa, sb] : shapes) {
      const Tensor a = random_tensor(d, sa, seed++), b = random_tensor(d, sb, seed++);
      for (const auto& [name, f] : all) {
        expect_matches_cpu(
            label(name, d) + " " + shape_to_string(sa) + shape_to_string(sb), {a, b},
            [f = f](const std::vector<EagerTensor>& in) { return f(in[0], in[1]); },
            tolerance_of(d));
      }
      if (is_complex(d)) continue;
      // pow of a positive base (a negative one with a fractional exponent is NaN on both).
      const Tensor pos = prims::shift(prims::abs(cpu_->upload(a)), 0.5).download();
      for (const auto& [name, f] : real_only) {
        expect_matches_cpu(
            label(name, d), {pos, b},
            [f = f](const std::vector<EagerTensor>& in) { return f(in[0], in[1]); },
            tolerance_of(d));
      }
    }
  }
}

TEST_F(PrimsCudaTest, MaximumAndMinimumPropagateNaN) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  for (DType d : {DType::F32, DType::F64}) {
    Tensor a = Tensor::from_col_major<double>({4}, {nan, 1.0, 2.0, nan});
    Tensor b = Tensor::from_col_major<double>({4}, {0.0, nan, 3.0, nan});
    if (d == DType::F32) {
      a = prims::cast(cpu_->upload(a), d).download();
      b = prims::cast(cpu_->upload(b), d).download();
    }
    const auto mx = values_of(prims::maximum(runtime_->upload(a), runtime_->upload(b)).download());
    const auto mn = values_of(prims::minimum(runtime_->upload(a), runtime_->upload(b)).download());
    EXPECT_TRUE(std::isnan(mx[0].real()) && std::isnan(mx[1].real()) && std::isnan(mx[3].real()));
    EXPECT_TRUE(std::isnan(mn[0].real()) && std::isnan(mn[1].real()) && std::isnan(mn[3].real()));
    EXPECT_EQ(mx[2].real(), 3.0);
    EXPECT_EQ(mn[2].real(), 2.0);
    const auto rmax = values_of(prims::max(runtime_->upload(a)).download());
    EXPECT_TRUE(std::isnan(rmax[0].real())) << "max over a NaN is NaN";
  }
}

TEST_F(PrimsCudaTest, ComplexFromPartsAndScalarFormsMatchTheCpu) {
  unsigned seed = 200;
  for (DType d : {DType::F32, DType::F64}) {
    const Tensor re = random_tensor(d, {5, 3}, seed++), im = random_tensor(d, {5, 1}, seed++);
    expect_matches_cpu(
        label("complex", d), {re, im},
        [](const std::vector<EagerTensor>& in) { return prims::complex(in[0], in[1]); }, 0.0);
  }
  for (DType d : kAllDTypes) {
    const Tensor x = random_tensor(d, {7, 4}, seed++), y = random_tensor(d, {1, 4}, seed++);
    const double tol = tolerance_of(d);
    for (prims::Scalar alpha : {prims::Scalar(2.5), prims::Scalar(-0.5, 1.25)}) {
      expect_matches_cpu(
          label("scale", d), {x},
          [alpha](const std::vector<EagerTensor>& in) { return prims::scale(in[0], alpha); }, tol);
      expect_matches_cpu(
          label("shift", d), {x},
          [alpha](const std::vector<EagerTensor>& in) { return prims::shift(in[0], alpha); }, tol);
      expect_matches_cpu(
          label("axpby", d), {x, y},
          [alpha](const std::vector<EagerTensor>& in) {
            return prims::axpby(alpha, in[0], prims::Scalar(-1.5), in[1]);
          },
          tol);
    }
  }
}

TEST_F(PrimsCudaTest, CastsBetweenEveryAllowedPairAreExactAndConcatenateJoinsOnTheDevice) {
  unsigned seed = 300;
  for (DType from : kAllDTypes) {
    const Tensor x = random_tensor(from, {4, 6}, seed++);
    for (DType to : kAllDTypes) {
      if (is_complex(from) && !is_complex(to)) continue;  // refused: real()/abs() say which
      SCOPED_TRACE(std::string(dtype_name(from)) + " -> " + std::string(dtype_name(to)));
      const auto [got, want] = run_both(
          {x}, [to](const std::vector<EagerTensor>& in) { return prims::cast(in[0], to); });
      EXPECT_TRUE(bit_identical(got, want)) << "a cast rounds once, to nearest, on both";
    }
  }
  const Tensor a = random_tensor(DType::F32, {3, 2}, seed++);
  const Tensor b = random_tensor(DType::C64, {3, 4}, seed++);
  const auto [got, want] = run_both(
      {a, b}, [](const std::vector<EagerTensor>& in) { return prims::concatenate(in, 1); });
  EXPECT_EQ(got.dtype(), DType::C64);
  EXPECT_TRUE(bit_identical(got, want));
  const auto [c_got, c_want] =
      run_both({a}, [](const std::vector<EagerTensor>& in) { return prims::contiguous(in[0]); });
  EXPECT_TRUE(bit_identical(c_got, c_want));
}

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

TEST_F(PrimsCudaTest, RandomUniformWordsAreBitIdenticalToTheCpuAndToPhilox) {
  const std::uint64_t seed = 0x0123456789abcdefULL;
  const Shape shape{1000, 7};
  for (DType d : kAllDTypes) {
    SCOPED_TRACE(dtype_name(d));
    const Tensor got = prims::random_uniform(runtime_, d, shape, seed).download();
    const Tensor cpu = prims::random_uniform(cpu_, d, shape, seed).download();
    EXPECT_TRUE(bit_identical(got, cpu)) << "uniform numbers differ from the CPU's";
    // The same numbers straight from philox.hpp: low = 0, high = 1 makes the value u itself.
    const std::vector<C> vals = values_of(got);
    int mismatches = 0;
    for (std::uint64_t k = 0; k < vals.size(); ++k) {
      const auto w = prims_internal::philox_words(seed, k);
      double re, im;
      if (is_double(d)) {
        re = prims_internal::uniform_f64(w[0], w[1]);
        im = prims_internal::uniform_f64(w[2], w[3]);
      } else {
        re = prims_internal::uniform_f32(w[0]);
        im = prims_internal::uniform_f32(w[2]);
      }
      mismatches += vals[k].real() != re || (is_complex(d) && vals[k].imag() != im);
    }
    EXPECT_EQ(mismatches, 0);
    // Another seed gives other numbers.
    EXPECT_FALSE(
        bit_identical(got, prims::random_uniform(runtime_, d, shape, seed + 1).download()));
  }
}

TEST_F(PrimsCudaTest, RandomNormalAgreesWithTheCpuAndHasItsMoments) {
  const Shape shape{200000};
  for (DType d : kAllDTypes) {
    SCOPED_TRACE(dtype_name(d));
    const Tensor got = prims::random_normal(runtime_, d, shape, 42, 1.5, 2.0).download();
    const Tensor cpu = prims::random_normal(cpu_, d, shape, 42, 1.5, 2.0).download();
    EXPECT_TRUE(agree(got, cpu, is_double(d) ? 1e-12 : 1e-5));
    const std::vector<C> v = values_of(got);
    C mean = 0;
    for (const C& x : v) mean += x;
    mean /= static_cast<double>(v.size());
    double var = 0;
    for (const C& x : v) var += std::norm(x - mean);
    var /= static_cast<double>(v.size());
    EXPECT_NEAR(mean.real(), 1.5, 0.02);
    EXPECT_NEAR(mean.imag(), 0.0, 0.02);
    EXPECT_NEAR(var, 4.0, 0.08) << "variance stddev^2, split between the parts when complex";
  }
}

TEST_F(PrimsCudaTest, CreationOpsMatchTheCpuExactly) {
  for (DType d : kAllDTypes) {
    SCOPED_TRACE(dtype_name(d));
    const auto same =
        [&](const std::function<EagerTensor(const std::shared_ptr<EagerRuntime>&)>& f) {
          const RuntimeStats before = runtime_->stats();
          const EagerTensor on_gpu = f(runtime_);
          EXPECT_EQ(runtime_->stats().uploads, before.uploads) << "created on the device";
          EXPECT_EQ(on_gpu.placement(), runtime_->backend().placement());
          EXPECT_TRUE(bit_identical(on_gpu.download(), f(cpu_).download()));
        };
    same([&](const auto& rt) { return prims::zeros(rt, d, {3, 5}); });
    same([&](const auto& rt) { return prims::ones(rt, d, {4}); });
    same([&](const auto& rt) {
      return prims::full(rt, d, {2, 3, 2}, prims::Scalar(-1.25, is_complex(d) ? 0.5 : 0.0));
    });
    same([&](const auto& rt) { return prims::eye(rt, d, 4); });
    same([&](const auto& rt) { return prims::eye(rt, d, 3, 5, 1); });
    same([&](const auto& rt) { return prims::eye(rt, d, 5, 3, -2); });
    same([&](const auto& rt) { return prims::arange(rt, d, -2.0, 7.3, 0.1); });
    same([&](const auto& rt) { return prims::arange(rt, d, 5.0, -5.0, -0.7); });
  }
}

TEST_F(PrimsCudaTest, ElementwiseRunsOnViewsOfMoreThanTwentyFourAxes) {
  // 2^25 elements as 25 axes of extent 2, read through the reversing permutation: no two axes
  // of the view merge, so the kernel walks all 25 (einsum's strided index stops at 24).
  const Shape shape(25, 2);
  const Tensor x = random_tensor(DType::F32, shape, 7);
  std::vector<std::int64_t> reverse(25);
  for (std::int64_t a = 0; a < 25; ++a) reverse[static_cast<std::size_t>(a)] = 24 - a;
  expect_matches_cpu(
      "neg of a 25-axis view", {x},
      [&](const std::vector<EagerTensor>& in) {
        return prims::neg(prims::permute(in[0], reverse));
      },
      0.0, /*strided=*/false);
}

TEST_F(PrimsCudaTest, F64RunsOnCudaAndStaysF64) {
  const Tensor a = random_tensor(DType::F64, {3, 4}, 9), b = random_tensor(DType::F64, {3, 4}, 10);
  const EagerTensor r = prims::add(runtime_->upload(a), runtime_->upload(b));
  EXPECT_EQ(r.dtype(), DType::F64);
  EXPECT_EQ(r.runtime(), runtime_);
  const std::vector<C> got = values_of(r.download()), va = values_of(a), vb = values_of(b);
  for (std::size_t i = 0; i < got.size(); ++i)
    EXPECT_EQ(got[i].real(), va[i].real() + vb[i].real());
}

}  // namespace
}  // namespace tenferro

#endif  // TENFERRO_HAS_CUDA
