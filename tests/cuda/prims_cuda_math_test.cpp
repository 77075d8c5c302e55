// Hardware-independent checks of the math the CUDA prims kernels run, through the very
// functions the kernels call (unary_math.cuh, complex_math.cuh and philox_device.cuh are
// host-callable):
//  - the complex functions against the CPU's std::complex (C99 Annex G, NumPy's branch cuts and
//    signed zeros) on random, huge, tiny and special inputs;
//  - every unary op of the list has CUDA math for every element type, and the real cases
//    round as the kernels promise;
//  - the device Philox4x32-10 against philox.hpp, which the CPU kernels use, and philox.hpp
//    against the published known answer.
// The device evaluates the same code with its own libm (within an ulp or two of the host's);
// the device tests (prims_cuda_test.cpp) compare the kernels' results with the CPU runtime.
#include <gtest/gtest.h>

#include "tenferro/config.hpp"

#if TENFERRO_HAS_CUDA

#include <cmath>
#include <complex>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "ops/prims/cuda/philox_device.cuh"
#include "ops/prims/cuda/unary_math.cuh"
#include "ops/prims/philox.hpp"

namespace tenferro {
namespace {

namespace ck = cuda_kernels::prims;
using C = std::complex<double>;
using ck::PrimKind;

// The complex math of unary op K as the kernels call it (unary_math.cuh), on C64 values.
template <PrimKind K>
ck::Z math(ck::Z z) {
  return ck::unary_math<K>(z);
}

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
// Parts zero or within 1e-100 .. 1e100, not both zero: 1 / x does not underflow (where it
// does, Smith's division and the C library's may give the zero opposite signs).
bool moderate_nonzero(C x) {
  const auto moderate_part = [](double v) {
    return v == 0 || (std::abs(v) > 1e-100 && std::abs(v) < 1e100);
  };
  return moderate_part(x.real()) && moderate_part(x.imag()) && x != C(0);
}

TEST(CudaPrimsMath, ComplexSqrtAndLogFollowTheCLibraryIncludingBranchCuts) {
  expect_like_std(
      "sqrt", math<PrimKind::Sqrt>, [](const C& x) { return std::sqrt(x); }, anywhere);
  expect_like_std(
      "log", math<PrimKind::Log>, [](const C& x) { return std::log(x); }, anywhere);
  // The cut itself, spelled out (NumPy): the zero's sign picks the side.
  EXPECT_EQ(math<PrimKind::Sqrt>({-4.0, 0.0}).im, 2.0);
  EXPECT_EQ(math<PrimKind::Sqrt>({-4.0, -0.0}).im, -2.0);
  EXPECT_DOUBLE_EQ(math<PrimKind::Log>({-1.0, 0.0}).im, M_PI);
  EXPECT_DOUBLE_EQ(math<PrimKind::Log>({-1.0, -0.0}).im, -M_PI);
}

TEST(CudaPrimsMath, ComplexExpSinCosTanhFollowTheCLibrary) {
  expect_like_std(
      "exp", math<PrimKind::Exp>, [](const C& x) { return std::exp(x); }, moderate);
  expect_like_std(
      "sin", math<PrimKind::Sin>, [](const C& x) { return std::sin(x); }, moderate);
  expect_like_std(
      "cos", math<PrimKind::Cos>, [](const C& x) { return std::cos(x); }, moderate);
  expect_like_std(
      "tanh", math<PrimKind::Tanh>, [](const C& x) { return std::tanh(x); }, anywhere);
}

// exp(z) - 1 and log(1 + z) by their Taylor series inside |z| < 1/2 (where the plain forms lose
// a small z's digits), the plain forms outside. The sum starts at z and skips terms that
// underflow to 0, so a zero part keeps its sign (expm1(-0 + 0i) = -0 + 0i).
C series(const C& z, bool log1p) {
  C sum = z, power = z;
  double factorial = 1.0;
  for (int k = 2; k < 70; ++k) {
    power *= z;
    factorial *= k;
    const C term =
        log1p ? (k % 2 ? 1.0 : -1.0) * power / static_cast<double>(k) : power / factorial;
    if (term != C(0)) sum += term;
  }
  return sum;
}
C expm1_reference(const C& z) {
  if (std::abs(z) < 0.5) return series(z, false);
  return z.imag() == 0 ? C(std::expm1(z.real()), z.imag()) : std::exp(z) - 1.0;
}
C log1p_reference(const C& z) {
  // On the imaginary axis log|1 + iy| = log1p(y^2) / 2 exactly, +0 for tiny y (the series'
  // -0 + ... would keep a -0 real part that the true value does not have).
  if (z.real() == 0) return C(0.5 * std::log1p(z.imag() * z.imag()), std::atan2(z.imag(), 1.0));
  return std::abs(z) < 0.5 ? series(z, true) : std::log(1.0 + z);
}

TEST(CudaPrimsMath, ComplexExpm1Log1pLog2Log10FollowTheirDefinitions) {
  expect_like_std("expm1", math<PrimKind::Expm1>, expm1_reference, moderate);
  expect_like_std("log1p", math<PrimKind::Log1p>, log1p_reference, moderate);
  expect_like_std(
      "log2", math<PrimKind::Log2>, [](const C& x) { return std::log(x) / std::log(2.0); },
      anywhere);
  expect_like_std(
      "log10", math<PrimKind::Log10>, [](const C& x) { return std::log10(x); }, anywhere);
  // Near 0 the series' digits, which exp(z) - 1 and log(1 + z) lose.
  const ck::Z e = math<PrimKind::Expm1>({1e-20, 1e-20});
  EXPECT_DOUBLE_EQ(e.re, 1e-20);
  EXPECT_DOUBLE_EQ(e.im, 1e-20);
  const ck::Z l = math<PrimKind::Log1p>({1e-20, -1e-20});
  EXPECT_DOUBLE_EQ(l.re, 1e-20);
  EXPECT_DOUBLE_EQ(l.im, -1e-20);
}

TEST(CudaPrimsMath, ComplexDivisionAndSignAreRobust) {
  expect_like_std(
      "div",
      [](ck::Z z) {
        return ck::zdiv({0.7, -1.3}, z);
      },
      [](const C& x) { return C(0.7, -1.3) / x; }, finite_nonzero);
  expect_like_std(
      "reciprocal", math<PrimKind::Reciprocal>, [](const C& x) { return C(1) / x; },
      moderate_nonzero);
  expect_like_std(
      "sign", math<PrimKind::Sign>, [](const C& x) { return x / std::abs(x); }, finite_nonzero);
  // Smith's scaling: no overflow in the intermediate |b|^2 of huge operands.
  const ck::Z q = ck::zdiv({1e300, 1e300}, {1e300, 1e300});
  EXPECT_DOUBLE_EQ(q.re, 1.0);
  EXPECT_EQ(q.im, 0.0);
  EXPECT_EQ(math<PrimKind::Sign>({0.0, 0.0}).re, 0.0);
}

// Every unary op of the list has CUDA math for every element type (the kernels instantiate the
// same templates), with the output types the launches promise: the real type for abs, real and
// imag of a complex value, else the input's.
template <PrimKind K, class T>
constexpr bool kOutputIsInput = std::is_same_v<decltype(ck::unary_math<K>(T{})), T>;
template <PrimKind K, class R>
constexpr bool kComplexOutputIsReal =
    std::is_same_v<decltype(ck::unary_math<K>(cuda_kernels::DeviceComplex<R>{})), R>;
#define TENFERRO_TEST_UNARY_MATH_TYPES(Kind, fn, python_name, dtypes)                             \
  static_assert(kOutputIsInput<PrimKind::Kind, float> && kOutputIsInput<PrimKind::Kind, double>); \
  static_assert((PrimKind::Kind == PrimKind::Abs || PrimKind::Kind == PrimKind::Real ||           \
                 PrimKind::Kind == PrimKind::Imag) ==                                             \
                (kComplexOutputIsReal<PrimKind::Kind, float> &&                                   \
                 kComplexOutputIsReal<PrimKind::Kind, double>));                                  \
  static_assert(kComplexOutputIsReal<PrimKind::Kind, float> ||                                    \
                (kOutputIsInput<PrimKind::Kind, cuda_kernels::DeviceComplex<float>> &&            \
                 kOutputIsInput<PrimKind::Kind, cuda_kernels::DeviceComplex<double>>));
TENFERRO_PRIMS_UNARY_OPS(TENFERRO_TEST_UNARY_MATH_TYPES)
#undef TENFERRO_TEST_UNARY_MATH_TYPES

// The same value: equal with the same zero sign, or both NaN.
template <class R>
bool identical(R a, R b) {
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
  return a == b && std::signbit(a) == std::signbit(b);
}

// The real cases: exp, log, sin, cos and tanh of a float evaluated in double and rounded once;
// sqrt, reciprocal and square rounded as IEEE; sign's NaN rule; the exact ones exact.
template <class R>
void expect_real_math() {
  using L = std::numeric_limits<R>;
  const R xs[] = {
      R(0),           R(-0.0),       R(1),  R(-1),  R(0.5),   R(-2.5),         R(3),
      R(1e-3),        R(-7.25),      R(40), R(100), L::max(), L::denorm_min(), L::infinity(),
      -L::infinity(), L::quiet_NaN()};
  const auto once = [](double y) { return static_cast<R>(y); };
  for (const R x : xs) {
    const double d = x;
    const auto expect = [&](const char* name, R got, R want) {
      EXPECT_TRUE(identical(got, want)) << name << "(" << x << ") = " << got << ", want " << want;
    };
    expect("neg", ck::unary_math<PrimKind::Neg>(x), -x);
    expect("conj", ck::unary_math<PrimKind::Conj>(x), x);
    expect("abs", ck::unary_math<PrimKind::Abs>(x), std::fabs(x));
    expect("real", ck::unary_math<PrimKind::Real>(x), x);
    expect("imag", ck::unary_math<PrimKind::Imag>(x), R(0));
    expect("sqrt", ck::unary_math<PrimKind::Sqrt>(x), std::sqrt(x));
    expect("exp", ck::unary_math<PrimKind::Exp>(x), once(std::exp(d)));
    expect("log", ck::unary_math<PrimKind::Log>(x), once(std::log(d)));
    expect("expm1", ck::unary_math<PrimKind::Expm1>(x), once(std::expm1(d)));
    expect("log1p", ck::unary_math<PrimKind::Log1p>(x), once(std::log1p(d)));
    expect("log2", ck::unary_math<PrimKind::Log2>(x), once(std::log2(d)));
    expect("log10", ck::unary_math<PrimKind::Log10>(x), once(std::log10(d)));
    expect("sin", ck::unary_math<PrimKind::Sin>(x), once(std::sin(d)));
    expect("cos", ck::unary_math<PrimKind::Cos>(x), once(std::cos(d)));
    expect("tanh", ck::unary_math<PrimKind::Tanh>(x), once(std::tanh(d)));
    expect("reciprocal", ck::unary_math<PrimKind::Reciprocal>(x), R(1) / x);
    expect("square", ck::unary_math<PrimKind::Square>(x), x * x);
    expect("sign", ck::unary_math<PrimKind::Sign>(x),
           std::isnan(x) ? x
                         : (x > 0   ? R(1)
                            : x < 0 ? R(-1)
                                    : R(0)));
  }
  EXPECT_TRUE(std::isnan(ck::unary_math<PrimKind::Sign>(L::quiet_NaN())));
  EXPECT_FALSE(std::signbit(ck::unary_math<PrimKind::Sign>(R(-0.0))));
}

TEST(CudaPrimsMath, RealCasesRoundAsTheKernelsPromise) {
  expect_real_math<float>();
  expect_real_math<double>();
}

// The exact complex cases and C32's rounding: computed in double, rounded once per part.
TEST(CudaPrimsMath, ComplexCasesOfBothPrecisions) {
  using CF = cuda_kernels::DeviceComplex<float>;
  const CF x{3.0f, -4.0f};
  const CF neg = ck::unary_math<PrimKind::Neg>(x), conj = ck::unary_math<PrimKind::Conj>(x);
  EXPECT_EQ(neg.re, -3.0f);
  EXPECT_EQ(neg.im, 4.0f);
  EXPECT_EQ(conj.re, 3.0f);
  EXPECT_EQ(conj.im, 4.0f);
  EXPECT_EQ(ck::unary_math<PrimKind::Abs>(x), 5.0f);
  EXPECT_EQ(ck::unary_math<PrimKind::Real>(x), 3.0f);
  EXPECT_EQ(ck::unary_math<PrimKind::Imag>(x), -4.0f);
  const CF sq = ck::unary_math<PrimKind::Square>(x);  // (3 - 4i)^2 = -7 - 24i
  EXPECT_EQ(sq.re, -7.0f);
  EXPECT_EQ(sq.im, -24.0f);
  const CF y{0.3f, 1.7f};
  const ck::Z wide = math<PrimKind::Tanh>({0.3f, 1.7f});
  const CF t = ck::unary_math<PrimKind::Tanh>(y);
  EXPECT_EQ(t.re, static_cast<float>(wide.re));
  EXPECT_EQ(t.im, static_cast<float>(wide.im));
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
