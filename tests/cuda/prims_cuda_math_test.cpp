// Hardware-independent checks of the math the CUDA prims kernels run, through the very
// functions the kernels call (unary_math.cuh, complex_math.cuh and philox_device.cuh are
// host-callable):
//  - the complex functions against the CPU's std::complex (C99 Annex G, NumPy's branch cuts and
//    signed zeros) on random, huge, tiny and special inputs;
//  - complex division, reciprocal and product against the CPU backend's own functions
//    (cpu/element_math.hpp) bit for bit, and division against a double-double reference across
//    the whole range (subnormals to DBL_MAX); log, sin and cos at the extremes of the range;
//  - every unary op of the list has CUDA math for every element type, and the real cases
//    round as the kernels promise;
//  - the device Philox4x32-10 against philox.hpp, which the CPU kernels use, and philox.hpp
//    against the published known answer.
// The device evaluates the same code with its own libm (within an ulp or two of the host's);
// the device tests (prims_cuda_test.cpp) compare the kernels' results with the CPU runtime.
// These run in every build, with or without CUDA: the headers compile for the host without
// the CUDA toolkit, so the CPU-only CI checks the math no GPU has run yet.
#include <gtest/gtest.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <complex>
#include <limits>
#include <numbers>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "ops/prims/cpu/element_math.hpp"
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

TEST(CudaPrimsMath, ComplexExpSinCosTanhSinhCoshTanFollowTheCLibrary) {
  expect_like_std(
      "exp", math<PrimKind::Exp>, [](const C& x) { return std::exp(x); }, moderate);
  expect_like_std(
      "sin", math<PrimKind::Sin>, [](const C& x) { return std::sin(x); }, moderate);
  expect_like_std(
      "cos", math<PrimKind::Cos>, [](const C& x) { return std::cos(x); }, moderate);
  expect_like_std(
      "tanh", math<PrimKind::Tanh>, [](const C& x) { return std::tanh(x); }, anywhere);
  // sinh, cosh and tan: sin, cos and tanh rotated by i (exact), against the C library's own.
  expect_like_std(
      "sinh", math<PrimKind::Sinh>, [](const C& x) { return std::sinh(x); }, moderate);
  expect_like_std(
      "cosh", math<PrimKind::Cosh>, [](const C& x) { return std::cosh(x); }, moderate);
  expect_like_std(
      "tan", math<PrimKind::Tan>, [](const C& x) { return std::tan(x); }, anywhere);
  expect_like_std(
      "exp2", math<PrimKind::Exp2>, [](const C& x) { return std::exp(x * std::numbers::ln2); },
      moderate);
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
  static_assert(real_only_math(PrimKind::Kind) || kComplexOutputIsReal<PrimKind::Kind, float> ||  \
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
    expect("tan", ck::unary_math<PrimKind::Tan>(x), once(std::tan(d)));
    expect("sinh", ck::unary_math<PrimKind::Sinh>(x), once(std::sinh(d)));
    expect("cosh", ck::unary_math<PrimKind::Cosh>(x), once(std::cosh(d)));
    expect("asin", ck::unary_math<PrimKind::Asin>(x), once(std::asin(d)));
    expect("acos", ck::unary_math<PrimKind::Acos>(x), once(std::acos(d)));
    expect("atan", ck::unary_math<PrimKind::Atan>(x), once(std::atan(d)));
    expect("asinh", ck::unary_math<PrimKind::Asinh>(x), once(std::asinh(d)));
    expect("acosh", ck::unary_math<PrimKind::Acosh>(x), once(std::acosh(d)));
    expect("atanh", ck::unary_math<PrimKind::Atanh>(x), once(std::atanh(d)));
    expect("floor", ck::unary_math<PrimKind::Floor>(x), std::floor(x));
    expect("ceil", ck::unary_math<PrimKind::Ceil>(x), std::ceil(x));
    expect("rint", ck::unary_math<PrimKind::Rint>(x), std::nearbyint(x));
    expect("trunc", ck::unary_math<PrimKind::Trunc>(x), std::trunc(x));
    // The correctly rounded root (long double's, rounded once; glibc's cbrt is 1 ulp off at
    // 100: the kernels' Newton step is not).
    expect("cbrt", ck::unary_math<PrimKind::Cbrt>(x),
           static_cast<R>(std::cbrt(static_cast<long double>(x))));
    expect("exp2", ck::unary_math<PrimKind::Exp2>(x), once(std::exp2(d)));
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

// ---- Division, reciprocal and product against the CPU backend; the extremes of the range ----

using ZF = cuda_kernels::DeviceComplex<float>;
using CF = std::complex<float>;

// The Div op's math as binary_kernels.cu calls it.
template <class R>
cuda_kernels::DeviceComplex<R> div_op(cuda_kernels::DeviceComplex<R> a,
                                      cuda_kernels::DeviceComplex<R> b) {
  return ck::cquotient(a, b);
}

// The CPU backend's math (cpu/element_math.hpp) on the same values.
template <PrimKind K, class R>
std::complex<R> cpu_unary(std::complex<R> z) {
  return prims_cpu::unary_op<K>(z);
}
template <PrimKind K, class R>
std::complex<R> cpu_binary(std::complex<R> a, std::complex<R> b) {
  return prims_cpu::binary_op<K>(a, b);
}

template <class R>
bool identical_to(cuda_kernels::DeviceComplex<R> got, std::complex<R> want) {
  return identical(got.re, want.real()) && identical(got.im, want.imag());
}

// a / b to about 100 bits: each operand scaled by a power of two (its larger part to [1, 2);
// a part over 2^1074 times smaller than the other may vanish, its share of the quotient being
// below the quotient's last bit), a conj(b) and |b|^2 in double-double arithmetic (products
// split exactly by fma), divided, scaled back (rounded once more where the quotient is
// subnormal).
struct DD {
  double hi, lo;
};
DD two_sum(double a, double b) {
  const double s = a + b, v = s - a;
  return {s, (a - (s - v)) + (b - v)};
}
DD two_prod(double a, double b) {
  const double p = a * b;
  return {p, std::fma(a, b, -p)};
}
DD dd_add(DD x, DD y) {
  const DD s = two_sum(x.hi, y.hi);
  const double lo = s.lo + (x.lo + y.lo), hi = s.hi + lo;
  return {hi, lo - (hi - s.hi)};
}
double dd_quotient(DD n, DD d) {
  const double q = n.hi / d.hi;
  const DD p = two_prod(q, d.hi);
  const double r = ((n.hi - p.hi) - p.lo + n.lo) - q * d.lo;
  return q + r / d.hi;
}
C reference_quotient(C a, C b) {
  const double top = std::max(std::abs(a.real()), std::abs(a.imag()));
  const double big = std::max(std::abs(b.real()), std::abs(b.imag()));
  const int ea = top == 0 ? 0 : std::ilogb(top), eb = std::ilogb(big);
  const double p = std::ldexp(a.real(), -ea), q = std::ldexp(a.imag(), -ea);
  const double c = std::ldexp(b.real(), -eb), d = std::ldexp(b.imag(), -eb);
  const DD den = dd_add(two_prod(c, c), two_prod(d, d));
  const DD re = dd_add(two_prod(p, c), two_prod(q, d)),
           im = dd_add(two_prod(q, c), two_prod(-p, d));
  return {std::ldexp(dd_quotient(re, den), ea - eb), std::ldexp(dd_quotient(im, den), ea - eb)};
}

// How far got is from the reference, in units in the last place of the reference's larger
// part (a normwise error: Smith's division is accurate normwise, not part by part). A part of
// the reference that overflows must be that infinity (or DBL_MAX of its sign, a rounding
// away); any other non-finite part of got is an infinite error.
double ulps_from(ck::Z got, C want) {
  const double w[2] = {want.real(), want.imag()}, g[2] = {got.re, got.im};
  bool overflowed = false;
  for (int i = 0; i < 2; ++i) {
    if (!std::isinf(w[i])) continue;
    overflowed = true;
    if (g[i] != w[i] && g[i] != std::copysign(DBL_MAX, w[i])) return INFINITY;
  }
  for (int i = 0; i < 2; ++i)
    if (std::isnan(g[i]) || (!std::isinf(w[i]) && std::isinf(g[i]))) return INFINITY;
  if (overflowed) return 0;
  const double m = std::max(std::abs(w[0]), std::abs(w[1]));
  const double ulp = m < DBL_MIN ? std::ldexp(1.0, -1074) : std::ldexp(1.0, std::ilogb(m) - 52);
  return std::max(std::abs(g[0] - w[0]), std::abs(g[1] - w[1])) / ulp;
}

// Parts drawn log-uniformly over the whole range, from the subnormals and lowest normals, near
// DBL_MAX, or moderate; a few zeros.
class Parts {
 public:
  explicit Parts(std::uint64_t seed) : rng_(seed) {}
  double operator()(int mode) {
    const int draw = mode < 0 ? static_cast<int>(rng_() % 4) : mode;
    int e = 0;
    switch (draw) {
      case 0:
        e = -1074 + static_cast<int>(rng_() % 2098);
        break;
      case 1:
        e = -1074 + static_cast<int>(rng_() % 80);
        break;
      case 2:
        e = 1023 - static_cast<int>(rng_() % 8);
        break;
      default:
        e = static_cast<int>(rng_() % 40) - 20;
        break;
    }
    double v = std::ldexp(mantissa_(rng_), e);
    if (!std::isfinite(v)) v = DBL_MAX;
    if (rng_() % 40 == 0) v = 0;
    return rng_() % 2 ? -v : v;
  }

 private:
  std::mt19937_64 rng_;
  std::uniform_real_distribution<double> mantissa_{1.0, 2.0};
};

void expect_within_ulps_of_reference(const char* name, ck::Z (*f)(ck::Z, ck::Z), bool reciprocal) {
  Parts part(reciprocal ? 71 : 72);
  int failures = 0, checked = 0;
  double worst = 0;
  for (int i = 0; i < 300000; ++i) {
    const C a = reciprocal ? C(1.0, 0.0) : C(part(-1), part(-1));
    const C b(part(-1), part(-1));
    if (b == C(0.0)) continue;
    ++checked;
    const ck::Z got = f({a.real(), a.imag()}, {b.real(), b.imag()});
    const double e = ulps_from(got, reference_quotient(a, b));
    if (e <= 4) {
      worst = std::max(worst, e);
      continue;
    }
    if (++failures <= 5) {
      const C want = reference_quotient(a, b);
      ADD_FAILURE() << name << ": (" << a << ") / (" << b << ") = (" << got.re << ", " << got.im
                    << "), want " << want << " (" << e << " ulps)";
    }
  }
  EXPECT_EQ(failures, 0) << name << ": " << failures << " of " << checked
                         << " quotients over 4 ulps from the reference";
  ::testing::Test::RecordProperty(std::string(name) + "_max_ulps", std::to_string(worst));
}

TEST(CudaPrimsMath, C64DivisionAndReciprocalKeepTheirDigitsAcrossTheWholeRange) {
  // The review's cases: Smith's unscaled reciprocal 1 / (c + d r) overflowed for a subnormal
  // divisor and vanished near DBL_MAX.
  const ck::Z q1 = div_op<double>({1e-310, 0.0}, {1e-310, 1e-310});
  EXPECT_DOUBLE_EQ(q1.re, 0.5);
  EXPECT_DOUBLE_EQ(q1.im, -0.5);
  const ck::Z q2 = div_op<double>({1e308, 0.0}, {1e308, 1e308});
  EXPECT_DOUBLE_EQ(q2.re, 0.5);
  EXPECT_DOUBLE_EQ(q2.im, -0.5);
  const ck::Z r = math<PrimKind::Reciprocal>({1.7e308, 1.7e308});
  const C r_want = reference_quotient(C(1.0), C(1.7e308, 1.7e308));  // 2.94e-309 (1 - i)
  EXPECT_LE(ulps_from(r, r_want), 1.0) << r.re << " " << r.im;
  EXPECT_GT(r.re, 2.9e-309);
  // Dense log-uniform sweeps: within 4 ulps (of the larger part) of the reference everywhere,
  // overflowing parts infinite. (The CPU's operator/ is not: its Smith sums overflow for a
  // numerator past DBL_MAX / 2, (1e308 + 1e308i) / (1 + 1i) = inf + 0i there.)
  expect_within_ulps_of_reference(
      "div", [](ck::Z a, ck::Z b) { return div_op<double>(a, b); }, false);
  expect_within_ulps_of_reference(
      "reciprocal", [](ck::Z, ck::Z b) { return math<PrimKind::Reciprocal>(b); }, true);
  // Where neither meets an overflow or underflow on the way the bits are the CPU backend's
  // (std::complex's operator/, libgcc's __divdc3, which scales only at the extremes too).
  Parts part(73);
  int differ = 0;
  for (int i = 0; i < 200000; ++i) {
    const C a(part(3), part(3)), b(part(3), part(3));
    if (b == C(0.0)) continue;
    const ck::Z q = div_op<double>({a.real(), a.imag()}, {b.real(), b.imag()});
    const ck::Z rb = math<PrimKind::Reciprocal>({b.real(), b.imag()});
    if (!identical_to(q, cpu_binary<PrimKind::Div>(a, b)) && ++differ <= 5)
      ADD_FAILURE() << "(" << a << ") / (" << b << "): " << q.re << " " << q.im;
    if (!identical_to(rb, cpu_unary<PrimKind::Reciprocal>(b)) && ++differ <= 5)
      ADD_FAILURE() << "1 / (" << b << "): " << rb.re << " " << rb.im;
  }
  EXPECT_EQ(differ, 0);
}

// The special values of the C99 Annex G cases, the extremes, zeros of both signs.
std::vector<double> special_parts() {
  return {0.0,  -0.0,  5e-324, -5e-324, 1e-310,   1.0,      -1.0,      2.0, -2.0,
          0.75, 1e308, -1e308, DBL_MAX, -DBL_MAX, INFINITY, -INFINITY, NAN, -NAN};
}

// C32 division and reciprocal: libgcc's __divsc3 formula in double, rounded once, then Annex G:
// the CPU backend's bits everywhere (the old Smith division in double gave other zero signs:
// 1 / (0 - 1i) = -0 + 1i for the CPU's 0 + 1i), and C32 products in float as the CPU's.
TEST(CudaPrimsMath, C32DivisionReciprocalAndProductAreTheCpuBackendsBitForBit) {
  std::vector<float> vs;
  for (double v : special_parts()) vs.push_back(static_cast<float>(v));
  std::mt19937_64 rng(81);
  std::uniform_real_distribution<float> mantissa(1.0f, 2.0f);
  for (int i = 0; i < 60; ++i) {
    const int e = -149 + static_cast<int>(rng() % 278);
    vs.push_back(std::ldexp(mantissa(rng), e) * (rng() % 2 ? 1.0f : -1.0f));
  }
  int differ = 0;
  const auto expect = [&](const char* name, ZF got, CF want, CF a, CF b) {
    if (identical_to(got, want) || ++differ > 8) return;
    ADD_FAILURE() << name << " (" << a << ", " << b << "): (" << got.re << ", " << got.im
                  << "), the CPU's (" << want.real() << ", " << want.imag() << ")";
  };
  for (float ar : vs)
    for (float ai : vs) {
      const CF a(ar, ai);
      expect("reciprocal", ck::unary_math<PrimKind::Reciprocal>(ZF{ar, ai}),
             cpu_unary<PrimKind::Reciprocal>(a), a, a);
      expect("square", ck::unary_math<PrimKind::Square>(ZF{ar, ai}), cpu_unary<PrimKind::Square>(a),
             a, a);
      for (std::size_t k = 0; k < vs.size(); k += 3)
        for (std::size_t l = k % 5; l < vs.size(); l += 5) {
          const CF b(vs[k], vs[l]);
          expect("div", div_op<float>(ZF{ar, ai}, ZF{vs[k], vs[l]}),
                 cpu_binary<PrimKind::Div>(a, b), a, b);
          expect("mul", ck::cmul(ZF{ar, ai}, ZF{vs[k], vs[l]}), cpu_binary<PrimKind::Mul>(a, b), a,
                 b);
        }
    }
  EXPECT_EQ(differ, 0);
}

// How far a part is from the reference's: NaN and a wrong infinity infinitely. (Zero signs are
// not compared: the reference's are those of an underflowed or cancelled sum.)
double part_error(double got, double want) {
  if (std::isnan(got) || std::isinf(want) || std::isinf(got)) return got == want ? 0 : INFINITY;
  return std::abs(got - want);
}

// C64 products, squares, reciprocals, quotients, sines and cosines of special values as the CPU
// backend's: C99 Annex G's recovery of infinities ((inf + inf i)(0 + 1i) = -inf + inf i, the
// naive product's NaN + NaN i), zero divisors (1 / (-0 + 0i) = -inf + NaN i), infinite ones
// (1 / (inf + inf i) = 0 - 0i), sin(inf + 0i) = NaN + 0i, cos(inf + inf i) = inf + NaN i. Where
// a quotient of finite parts differs, ours is within 4 ulps of the reference and each of its
// parts at least as close to the reference's as the CPU's (whose Smith sums overflow for a
// numerator past DBL_MAX / 2, whose scaled reciprocal of a subnormal gives NaN parts, whose
// subnormal ratios lose digits: (5e-324 i) / (5e-324 + 1e-310i) has the imaginary part
// 2.4410e-27, not the CPU's 2.4464e-27; and whose zero signs then follow its fallback).
TEST(CudaPrimsMath, C64SpecialValuesAreTheCpuBackends) {
  const std::vector<double> vs = special_parts();
  int differ = 0;
  const auto report = [&](const char* name, ck::Z got, C want, C a, C b) {
    if (++differ <= 8)
      ADD_FAILURE() << name << " (" << a << ", " << b << "): (" << got.re << ", " << got.im
                    << "), the CPU's (" << want.real() << ", " << want.imag() << ")";
  };
  const auto expect = [&](const char* name, ck::Z got, C want, C a, C b) {
    if (!identical_to(got, want)) report(name, got, want, a, b);
  };
  const auto expect_quotient = [&](const char* name, ck::Z got, C want, C a, C b) {
    if (identical_to(got, want)) return;
    const bool finite = std::isfinite(a.real()) && std::isfinite(a.imag()) &&
                        std::isfinite(b.real()) && std::isfinite(b.imag()) && b != C(0.0);
    if (finite) {
      const C ref = reference_quotient(a, b);
      if (ulps_from(got, ref) <= 4 &&
          part_error(got.re, ref.real()) <= part_error(want.real(), ref.real()) &&
          part_error(got.im, ref.imag()) <= part_error(want.imag(), ref.imag()))
        return;
    }
    report(name, got, want, a, b);
  };
  for (double ar : vs)
    for (double ai : vs) {
      const C a(ar, ai);
      const ck::Z za{ar, ai};
      expect("sin", math<PrimKind::Sin>(za), cpu_unary<PrimKind::Sin>(a), a, a);
      expect("cos", math<PrimKind::Cos>(za), cpu_unary<PrimKind::Cos>(a), a, a);
      expect("square", math<PrimKind::Square>(za), cpu_unary<PrimKind::Square>(a), a, a);
      expect_quotient("reciprocal", math<PrimKind::Reciprocal>(za),
                      cpu_unary<PrimKind::Reciprocal>(a), C(1.0), a);
      for (double br : vs)
        for (double bi : vs) {
          const C b(br, bi);
          expect("mul", ck::cmul(za, ck::Z{br, bi}), cpu_binary<PrimKind::Mul>(a, b), a, b);
          expect_quotient("div", div_op<double>(za, {br, bi}), cpu_binary<PrimKind::Div>(a, b), a,
                          b);
        }
    }
  EXPECT_EQ(differ, 0);
  // The review's cases, spelled out.
  const ck::Z p = ck::cmul(ck::Z{INFINITY, INFINITY}, ck::Z{0.0, 1.0});
  EXPECT_EQ(p.re, -INFINITY);
  EXPECT_EQ(p.im, INFINITY);
  const ck::Z sq = math<PrimKind::Square>({INFINITY, NAN});
  EXPECT_EQ(sq.re, INFINITY);
  EXPECT_TRUE(std::isnan(sq.im));
  const ck::Z rz = math<PrimKind::Reciprocal>({-0.0, 0.0});
  EXPECT_EQ(rz.re, -INFINITY);
  const ZF rf = ck::unary_math<PrimKind::Reciprocal>(ZF{INFINITY, INFINITY});
  EXPECT_TRUE(identical(rf.re, 0.0f) && identical(rf.im, -0.0f)) << rf.re << " " << rf.im;
  const ck::Z s = math<PrimKind::Sin>({INFINITY, 0.0});
  EXPECT_TRUE(std::isnan(s.re) && identical(s.im, 0.0));
  const ck::Z c = math<PrimKind::Cos>({INFINITY, INFINITY});
  EXPECT_TRUE(c.re == INFINITY && std::isnan(c.im));
  // Random products: the CPU's bits (no FMA, the same roundings).
  Parts part(91);
  int products_differ = 0;
  for (int i = 0; i < 100000; ++i) {
    const C a(part(-1), part(-1)), b(part(-1), part(-1));
    if (!identical_to(ck::cmul(ck::Z{a.real(), a.imag()}, ck::Z{b.real(), b.imag()}),
                      cpu_binary<PrimKind::Mul>(a, b)))
      ++products_differ;
  }
  EXPECT_EQ(products_differ, 0);
}

// log|z| past DBL_MAX and in the subnormal range: log(1.7e308 + 1.7e308i) was inf (hypot
// overflowed), log(5e-324 + 5e-324i) -744.44 for -744.09 (hypot of subnormals keeps a few
// digits). log2, log10 and log1p away from 0 go through the same path.
TEST(CudaPrimsMath, ComplexLogsAtTheExtremesOfTheRange) {
  EXPECT_NEAR(math<PrimKind::Log>({1.7e308, 1.7e308}).re, 710.07341048350827, 1e-12);
  EXPECT_NEAR(math<PrimKind::Log>({5e-324, 5e-324}).re, -744.09349833110127, 1e-12);
  EXPECT_NEAR(math<PrimKind::Log1p>({DBL_MAX, DBL_MAX}).re, std::log(C(DBL_MAX, DBL_MAX)).real(),
              1e-12);
  std::mt19937_64 rng(101);
  std::uniform_real_distribution<double> mantissa(1.0, 2.0), angle(-M_PI, M_PI);
  int failures = 0, checked = 0;
  const auto expect = [&](const char* name, ck::Z got, C want, C z) {
    // The real part within 4 ulps, the imaginary part (atan2, scaled) within 4 ulps.
    const auto ulps = [](double g, double w) {
      if (g == w) return 0.0;
      const double a = std::abs(w);
      return std::abs(g - w) /
             (a < DBL_MIN ? std::ldexp(1.0, -1074) : std::ldexp(1.0, std::ilogb(a) - 52));
    };
    if (ulps(got.re, want.real()) <= 4 && ulps(got.im, want.imag()) <= 4) return;
    if (++failures <= 5)
      ADD_FAILURE() << name << "(" << z << ") = (" << got.re << ", " << got.im << "), want "
                    << want;
  };
  for (int i = 0; i < 100000; ++i) {
    // |z| log-uniform over the whole range, at a random angle or with independent parts.
    const double r = std::ldexp(mantissa(rng), -1074 + static_cast<int>(rng() % 2098));
    const double t = angle(rng);
    C z = i % 2 ? C(r * std::cos(t), r * std::sin(t))
                : C(r, std::ldexp(mantissa(rng), -1074 + static_cast<int>(rng() % 2098)));
    if (!std::isfinite(z.real()) || !std::isfinite(z.imag())) continue;
    if (rng() % 2) z = -z;
    if (std::abs(z) > 0.25 && std::abs(z) < 4) continue;  // the log1p path, checked above
    ++checked;
    const ck::Z w{z.real(), z.imag()};
    expect("log", math<PrimKind::Log>(w), std::log(z), z);
    expect("log2", math<PrimKind::Log2>(w), std::log(z) / std::log(2.0), z);
    expect("log10", math<PrimKind::Log10>(w), std::log10(z), z);
    if (std::abs(z) > 4) expect("log1p", math<PrimKind::Log1p>(w), std::log(1.0 + z), z);
  }
  EXPECT_EQ(failures, 0) << failures << " of " << checked;
}

// sin and cos past |y| = 709, where e^|y| is applied in halves: a subnormal sin x or sin x
// (x = 5e-324) halved first lost its digits or became 0 (sin(5e-324 + 1000i) was 0 + inf i, for
// 4.87e110 + inf i; sin(5e-324 + 1e10i) NaN + inf i, for inf + inf i).
// log|z| near |z| = 1, where a^2 + b^2 - 1 cancels: on the unit circle and a few ulp off it,
// against the C library's clog (which computes it exactly), to a few ulp of the real part.
TEST(CudaPrimsMath, ComplexLogNearTheUnitCircleKeepsItsDigits) {
  std::mt19937_64 gen(11);
  std::uniform_real_distribution<double> angle(-3.14159, 3.14159);
  std::uniform_int_distribution<int> ulps(-8, 8);
  double worst = 0;
  for (int i = 0; i < 200000; ++i) {
    const double t = angle(gen);
    const double r = 1.0 + ulps(gen) * 0x1p-53;
    const C z(r * std::cos(t), r * std::sin(t));
    const double want = std::log(z).real();
    const double got = ck::zlog(ck::Z{z.real(), z.imag()}).re;
    if (want == 0) {
      EXPECT_EQ(got, 0.0) << z;
      continue;
    }
    worst = std::max(worst, std::fabs(got - want) / (std::fabs(want) * DBL_EPSILON));
  }
  EXPECT_LE(worst, 4.0) << "largest error of log|z| near |z| = 1, in ulp of the result";
}

TEST(CudaPrimsMath, ComplexSinCosOfATinyRealPartPastOverflow) {
  const ck::Z s = math<PrimKind::Sin>({5e-324, 1000.0});
  EXPECT_NEAR(s.re, 4.8667e110, 1e106);
  EXPECT_EQ(s.im, INFINITY);
  const ck::Z big = math<PrimKind::Sin>({5e-324, 1e10});
  EXPECT_EQ(big.re, INFINITY);
  EXPECT_EQ(big.im, INFINITY);
  int failures = 0;
  const auto expect = [&](const char* name, ck::Z got, C want, C z) {
    if (same(got.re, want.real(), std::abs(want.real()), 1e-14) &&
        same(got.im, want.imag(), std::abs(want.imag()), 1e-14))
      return;
    if (++failures <= 5)
      ADD_FAILURE() << name << "(" << z << ") = (" << got.re << ", " << got.im << "), want "
                    << want;
  };
  for (double x : {5e-324, 1e-320, 1e-310, 2.5e-308, 1e-300, 1e-10, 0.5, 3.0})
    for (double y : {709.5, 800.0, 1000.0, 1400.0, 1419.0, 1e4, 1e10})
      for (int sign = 0; sign < 4; ++sign) {
        const C z(sign % 2 ? -x : x, sign / 2 ? -y : y);
        expect("sin", math<PrimKind::Sin>({z.real(), z.imag()}), std::sin(z), z);
        expect("cos", math<PrimKind::Cos>({z.real(), z.imag()}), std::cos(z), z);
      }
  EXPECT_EQ(failures, 0);
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
