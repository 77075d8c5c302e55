// Hardware-independent checks of the math the CUDA prims kernels run, through the very
// functions the kernels call (complex_math.cuh and philox_device.cuh are host-callable):
//  - the complex functions against the CPU's std::complex (C99 Annex G, NumPy's branch cuts and
//    signed zeros) on random, huge, tiny and special inputs;
//  - the device Philox4x32-10 against philox.hpp, which the CPU kernels use, and philox.hpp
//    against the published known answer.
// The device evaluates the same code with its own libm (within an ulp or two of the host's);
// the device tests (prims_cuda_test.cpp) compare the kernels' results with the CPU runtime.
#include <gtest/gtest.h>

#include "tenferro/config.hpp"

#if TENFERRO_HAS_CUDA

#include <cmath>
#include <complex>
#include <random>
#include <string>
#include <vector>

#include "ops/prims/cuda/complex_math.cuh"
#include "ops/prims/cuda/philox_device.cuh"
#include "ops/prims/philox.hpp"

namespace tenferro {
namespace {

namespace ck = cuda_kernels::prims;
using C = std::complex<double>;

// Equal within `tol` relative to max(1, |want|), NaN to NaN, infinities and zero signs alike.
bool same(double got, double want, double scale, double tol) {
  if (std::isnan(got) || std::isnan(want)) return std::isnan(got) && std::isnan(want);
  if (std::isinf(got) || std::isinf(want)) return got == want;
  if (got == 0 && want == 0) return std::signbit(got) == std::signbit(want);
  return std::abs(got - want) <= tol * scale;
}

std::vector<C> inputs() {
  std::mt19937_64 rng(31);
  std::uniform_real_distribution<double> small(-5, 5), exponent(-300, 300);
  std::vector<C> xs;
  for (int i = 0; i < 20000; ++i) xs.emplace_back(small(rng), small(rng));
  const auto signed_pow = [&] { return std::pow(10.0, exponent(rng)) * (rng() % 2 ? 1 : -1); };
  for (int i = 0; i < 5000; ++i) xs.emplace_back(signed_pow(), signed_pow());
  for (int i = 0; i < 1000; ++i) xs.emplace_back(1 + 1e-9 * small(rng), 1e-6 * small(rng));
  const double inf = INFINITY, nan = NAN;
  const double specials[] = {0.0,   -0.0,   1.0, -1.0, 2.5, -4.0, 1e-310,   -1e-310,
                             1e308, -1e308, inf, -inf, nan, 0.5,  0.9999999};
  for (double a : specials)
    for (double b : specials) xs.emplace_back(a, b);
  return xs;
}

using ZFn = ck::Z (*)(ck::Z);
using StdFn = C (*)(const C&);

void expect_like_std(const char* name, ZFn f, StdFn g, bool (*domain)(C)) {
  int failures = 0, checked = 0;
  for (const C x : inputs()) {
    if (!domain(x)) continue;
    ++checked;
    const ck::Z got = f(ck::Z{x.real(), x.imag()});
    const C want = g(x);
    const double scale = std::max(1.0, std::abs(want));
    if (same(got.re, want.real(), scale, 1e-13) && same(got.im, want.imag(), scale, 1e-13))
      continue;
    if (++failures <= 5) {
      ADD_FAILURE() << name << "(" << x.real() << (std::signbit(x.imag()) ? " - " : " + ")
                    << std::abs(x.imag()) << "i) = " << got.re << " + " << got.im << "i, want "
                    << want.real() << " + " << want.imag() << "i";
    }
  }
  EXPECT_EQ(failures, 0) << name << ": " << failures << " of " << checked << " inputs differ";
  EXPECT_GT(checked, 20000);
}

bool anywhere(C) {
  return true;
}
// exp/sin/cos of arguments whose results are representable (the C library scales huge ones).
bool moderate(C x) {
  return std::abs(x.real()) < 700 && std::abs(x.imag()) < 1e6;
}
bool finite_nonzero(C x) {
  return std::isfinite(x.real()) && std::isfinite(x.imag()) && std::abs(x) < 1e300 &&
         std::abs(x) > 1e-300;
}

TEST(CudaPrimsMath, ComplexSqrtAndLogFollowTheCLibraryIncludingBranchCuts) {
  expect_like_std(
      "sqrt", ck::zsqrt, [](const C& x) { return std::sqrt(x); }, anywhere);
  expect_like_std(
      "log", ck::zlog, [](const C& x) { return std::log(x); }, anywhere);
  // The cut itself, spelled out (NumPy): the zero's sign picks the side.
  EXPECT_EQ(ck::zsqrt({-4.0, 0.0}).im, 2.0);
  EXPECT_EQ(ck::zsqrt({-4.0, -0.0}).im, -2.0);
  EXPECT_DOUBLE_EQ(ck::zlog({-1.0, 0.0}).im, M_PI);
  EXPECT_DOUBLE_EQ(ck::zlog({-1.0, -0.0}).im, -M_PI);
}

TEST(CudaPrimsMath, ComplexExpSinCosTanhFollowTheCLibrary) {
  expect_like_std(
      "exp", ck::zexp, [](const C& x) { return std::exp(x); }, moderate);
  expect_like_std(
      "sin", ck::zsin, [](const C& x) { return std::sin(x); }, moderate);
  expect_like_std(
      "cos", ck::zcos, [](const C& x) { return std::cos(x); }, moderate);
  expect_like_std(
      "tanh", ck::ztanh, [](const C& x) { return std::tanh(x); }, anywhere);
}

TEST(CudaPrimsMath, ComplexDivisionAndSignAreRobust) {
  expect_like_std(
      "div",
      [](ck::Z z) {
        return ck::zdiv({0.7, -1.3}, z);
      },
      [](const C& x) { return C(0.7, -1.3) / x; }, finite_nonzero);
  expect_like_std(
      "sign", ck::zsign, [](const C& x) { return x / std::abs(x); }, finite_nonzero);
  // Smith's scaling: no overflow in the intermediate |b|^2 of huge operands.
  const ck::Z q = ck::zdiv({1e300, 1e300}, {1e300, 1e300});
  EXPECT_DOUBLE_EQ(q.re, 1.0);
  EXPECT_EQ(q.im, 0.0);
  EXPECT_EQ(ck::zsign({0.0, 0.0}).re, 0.0);
}

TEST(CudaPrimsMath, DevicePhiloxIsTheCpusPhiloxWordForWord) {
  // philox.hpp itself against the Random123 known answer for a zero counter and key.
  const auto kat = prims_internal::philox4x32_10({0, 0, 0, 0}, {0, 0});
  EXPECT_EQ(kat,
            (std::array<std::uint32_t, 4>{0x6627e8d5u, 0xe169c58du, 0xbc57ac4cu, 0x9b00dbd8u}));
  std::mt19937_64 rng(5);
  int mismatches = 0;
  for (int i = 0; i < 200000; ++i) {
    const std::uint64_t seed = rng(), k = i % 2 ? rng() : static_cast<std::uint64_t>(i);
    const auto want = prims_internal::philox_words(seed, k);
    const ck::Words got = ck::philox_words(seed, k);
    for (int j = 0; j < 4; ++j) mismatches += got.x[j] != want[static_cast<std::size_t>(j)];
  }
  EXPECT_EQ(mismatches, 0);
  EXPECT_EQ(ck::mul_hi(0xffffffffu, 0xffffffffu), 0xfffffffeu);
}

}  // namespace
}  // namespace tenferro

#endif  // TENFERRO_HAS_CUDA
