// The element functions of the CPU prims kernels, for T in float, double, complex<float>,
// complex<double>. std::complex's functions follow C99 Annex G, whose branch cuts and signed
// zeros are NumPy's.
#pragma once

#include <cmath>
#include <complex>
#include <limits>
#include <numbers>
#include <type_traits>

#include "core/real_type.hpp"
#include "ops/prims/prim_kind.hpp"
#include "ops/prims/shared_real_math.hpp"

namespace tenferro::prims_cpu {

template <class T>
inline constexpr bool kIsComplex = kIsComplexType<T>;
template <class T>
using Real = RealType<T>;

// alpha * x with a scalar given in double precision: a real scalar multiplies each part (so
// 1 * (inf + 0i) stays inf + 0i, as NumPy), a complex one multiplies as complex numbers.
template <class T>
T scale_by(std::complex<double> alpha, T x) {
  if constexpr (kIsComplex<T>) {
    using R = Real<T>;
    if (alpha.imag() == 0.0) return x * static_cast<R>(alpha.real());
    return x * T(static_cast<R>(alpha.real()), static_cast<R>(alpha.imag()));
  } else {
    return x * static_cast<T>(alpha.real());
  }
}

template <class T>
T add_scalar(T x, std::complex<double> beta) {
  if constexpr (kIsComplex<T>) {
    using R = Real<T>;
    return T(x.real() + static_cast<R>(beta.real()), x.imag() + static_cast<R>(beta.imag()));
  } else {
    return x + static_cast<T>(beta.real());
  }
}

template <class R>
R nan_max(R a, R b) {
  if (std::isnan(a)) return a;
  if (std::isnan(b)) return b;
  if (a == b) return std::signbit(a) ? b : a;  // -0 < +0, as IEEE 754-2019's maximum
  return a < b ? b : a;
}
template <class R>
R nan_min(R a, R b) {
  if (std::isnan(a)) return a;
  if (std::isnan(b)) return b;
  if (a == b) return std::signbit(a) ? a : b;  // -0 < +0, as IEEE 754-2019's minimum
  return b < a ? b : a;
}

// |z| of a complex value, as the CPU kernels compute it (scalar and vector alike, so a view and
// its contiguous copy agree bit for bit): sqrt(re^2 + im^2) where that cannot overflow or
// underflow, each step rounded; hypot (std::abs) elsewhere, where it also makes an infinite part
// win over a NaN. Within 1.5 ulp of hypot; hypot itself ran at a quarter of NumPy's speed and
// could not be vectorised.
//  - complex128: while the larger part's magnitude is within 2^-500..2^500, or both are zero.
//  - complex64: s = re^2 + im^2 in double (exact squares, one rounding) rounded to float, and a
//    float square root, while s is within 2^-120..2^120 (its float is then a normal number) or
//    zero; outside, s's double root rounded once. The float root is within 1 ulp of hypot (the
//    sum's rounding to float moves the root by at most a quarter ulp); a double root took 3x as
//    long (1.0 against 0.3 ns an element: eight lanes a square root instruction where float has
//    sixteen, each twice as slow) for 0.5 ulp.
inline constexpr double kMagnitudeLow = 0x1p-500, kMagnitudeHigh = 0x1p500;
inline constexpr double kMagnitude32SumLow = 0x1p-120, kMagnitude32SumHigh = 0x1p120;
inline float complex_magnitude(std::complex<float> z) {
  const double re = z.real(), im = z.imag();
  if (!std::isfinite(re) || !std::isfinite(im)) return std::abs(z);
  const double s = re * re + im * im;
  if (s == 0 || (s >= kMagnitude32SumLow && s < kMagnitude32SumHigh))
    return std::sqrt(static_cast<float>(s));
  return static_cast<float>(std::sqrt(s));
}

inline double complex_magnitude(std::complex<double> z) {
  const double re = z.real(), im = z.imag();
  const double m = std::fabs(re) > std::fabs(im) ? std::fabs(re) : std::fabs(im);
  if (!std::isfinite(re) || !std::isfinite(im) ||
      !(m == 0 || (m > kMagnitudeLow && m < kMagnitudeHigh))) {
    return std::abs(z);
  }
  return std::sqrt(re * re + im * im);
}

// sign: NumPy 2's. A complex z gives z/|z|, where an infinite part is the direction whatever
// the other (inf + iy -> 1, x - i inf -> -i, y NaN included), two infinite parts or a NaN part
// give NaN, and |z| is taken where it neither overflows nor loses digits: complex64 in double,
// complex128 scaled by a power of two at the extremes (|3e38 + 3e38i| overflowed complex64 to
// inf and its sign to 0; the subnormal parts' hypot kept a few digits).
template <class T>
T sign_of(T x) {
  if constexpr (kIsComplex<T>) {
    using R = typename T::value_type;
    const R re = x.real(), im = x.imag();
    const bool re_inf = std::isinf(re), im_inf = std::isinf(im);
    if (re_inf != im_inf) {
      return T(re_inf ? std::copysign(R(1), re) : R(0), im_inf ? std::copysign(R(1), im) : R(0));
    }
    if (re_inf || std::isnan(re) || std::isnan(im)) return T(std::nan(""), std::nan(""));
    if (re == 0 && im == 0) return T(0);
    if constexpr (std::is_same_v<R, float>) {
      const double dre = re, dim = im, m = std::sqrt(dre * dre + dim * dim);
      return T(static_cast<float>(dre / m), static_cast<float>(dim / m));
    } else {
      const R big = std::max(std::fabs(re), std::fabs(im));
      const R scale = big > 0x1p1000 ? 0x1p-100 : (big < 0x1p-1000 ? 0x1p100 : 1.0);
      const R a = re * scale, b = im * scale, m = std::hypot(a, b);
      return T(a / m, b / m);
    }
  } else {
    if (std::isnan(x)) return x;
    return static_cast<T>((x > 0) - (x < 0));
  }
}

// log2 and log10 of a complex z: log z's parts times log2(e) or log10(e), as NumPy's (the
// branch cut and signed zeros are log's).
template <class T>
T complex_log_base(T z, Real<T> log_e) {
  const T l = std::log(z);
  return T(l.real() * log_e, l.imag() * log_e);
}

// |1 + z|^2 - 1 = 2x + y^2 + x^2 for |x|, |y| < 1/2, keeping the digits that cancel near the
// circle |1 + z| = 1 (x (2 + x) + y^2 kept a third of them at z = -0.125 + 0.484i): the
// squares as exact pairs, summed in this order because there each partial sum is exact
// (Sterbenz: y^2 is within a factor 2 of -2x, and 2x + y^2 of -x^2). float parts in double,
// where their squares are exact.
inline double circle_distance(double x, double y) {
  const double xx = x * x, yy = y * y;
  return ((2 * x + yy) + xx) + (std::fma(x, x, -xx) + std::fma(y, y, -yy));
}

// log(1 + z) for complex z. Near 0 the real part log|1 + z| = log1p(|1 + z|^2 - 1) / 2 keeps
// its digits (forming 1 + z first loses them: NumPy's log1p(1e-20 + 0j) is 0); elsewhere it is
// log(1 + z), as NumPy's.
template <class T>
T complex_log1p(T z) {
  using R = Real<T>;
  const R x = z.real(), y = z.imag();
  if (std::fabs(x) < R(0.5) && std::fabs(y) < R(0.5)) {
    const double s = circle_distance(x, y);
    return T(static_cast<R>(0.5 * std::log1p(s)), std::atan2(y, R(1) + x));
  }
  return std::log(T(R(1) + x, y));
}

// exp(z) - 1 for complex z: (expm1(x) cos y - 2 sin^2(y/2)) + i e^x sin y, NumPy's formula, which
// keeps the real part's digits near 0. On the real axis and for non-finite parts it is exp's
// (C99 Annex G): expm1(inf + 0i) is inf + 0i, NaN + 0i stays NaN + 0i (NumPy's formula gives a
// NaN imaginary part there).
template <class T>
T complex_expm1(T z) {
  using R = Real<T>;
  const R x = z.real(), y = z.imag();
  if (y == 0) return T(std::expm1(x), y);
  // Non-finite parts, and e^x near or past overflow (where e^x cos y may still be finite: the
  // formula's expm1(x) overflowed first), as exp's (the 1 is below an ulp there).
  constexpr R kNearOverflow = R(0.69) * std::numeric_limits<R>::max_exponent;
  if (!std::isfinite(x) || !std::isfinite(y) || x > kNearOverflow) return std::exp(z) - T(1);
  const R s = std::sin(y / 2);
  return T(std::expm1(x) * std::cos(y) - R(2) * s * s, std::exp(x) * std::sin(y));
}

template <prims_internal::PrimKind>
inline constexpr bool kNoCpuMath = false;

// The math of each unary op of the op list (TENFERRO_PRIMS_UNARY_OPS), by compile-time kind:
// the same dtype out, but abs/real/imag (a real output). An op of the list without a branch
// here does not compile (cpu_elementwise.cpp instantiates every one), so a new op cannot fall
// through to a silent identity.
template <prims_internal::PrimKind K, class T>
auto unary_op(T x) {
  using enum prims_internal::PrimKind;
  if constexpr (K == Neg) {
    return -x;
  } else if constexpr (K == Conj) {
    if constexpr (kIsComplex<T>)
      return std::conj(x);
    else
      return x;
  } else if constexpr (K == Abs) {
    if constexpr (kIsComplex<T>)
      return complex_magnitude(x);
    else
      return std::fabs(x);
  } else if constexpr (K == Real) {
    if constexpr (kIsComplex<T>)
      return x.real();
    else
      return x;
  } else if constexpr (K == Imag) {
    if constexpr (kIsComplex<T>)
      return x.imag();
    else
      return T(0);
  } else if constexpr (K == Sqrt) {
    return std::sqrt(x);
  } else if constexpr (K == Exp) {
    return std::exp(x);
  } else if constexpr (K == Exp2) {
    if constexpr (kIsComplex<T>)  // NumPy's exp(z ln 2), complex64 in double
      return T(std::exp(std::complex<double>(x) * std::numbers::ln2));
    else
      return std::exp2(x);
  } else if constexpr (K == Expm1) {
    if constexpr (kIsComplex<T>)
      return complex_expm1(x);
    else
      return std::expm1(x);
  } else if constexpr (K == Log) {
    return std::log(x);
  } else if constexpr (K == Log1p) {
    if constexpr (kIsComplex<T>)
      return complex_log1p(x);
    else
      return std::log1p(x);
  } else if constexpr (K == Log2) {
    if constexpr (kIsComplex<T>)
      return complex_log_base(x, std::numbers::log2e_v<RealType<T>>);
    else
      return std::log2(x);
  } else if constexpr (K == Log10) {
    if constexpr (kIsComplex<T>)
      return complex_log_base(x, std::numbers::log10e_v<RealType<T>>);
    else
      return std::log10(x);
  } else if constexpr (K == Sin) {
    return std::sin(x);
  } else if constexpr (K == Cos) {
    return std::cos(x);
  } else if constexpr (K == Tan) {
    return std::tan(x);
  } else if constexpr (K == Sinh) {
    return std::sinh(x);
  } else if constexpr (K == Cosh) {
    return std::cosh(x);
  } else if constexpr (K == Tanh) {
    return std::tanh(x);
  } else if constexpr (K == Asin) {
    return std::asin(x);
  } else if constexpr (K == Acos) {
    return std::acos(x);
  } else if constexpr (K == Atan) {
    return std::atan(x);
  } else if constexpr (K == Asinh) {
    return std::asinh(x);
  } else if constexpr (K == Acosh) {
    return std::acosh(x);
  } else if constexpr (K == Atanh) {
    return std::atanh(x);
  } else if constexpr (K == Floor) {
    return std::floor(x);
  } else if constexpr (K == Ceil) {
    return std::ceil(x);
  } else if constexpr (K == Rint) {
    return std::nearbyint(x);  // the default rounding mode: to nearest, ties to even
  } else if constexpr (K == Trunc) {
    return std::trunc(x);
  } else if constexpr (K == Cbrt) {
    return static_cast<T>(prims_internal::cube_root(x));  // float: the double root rounded once
  } else if constexpr (K == Reciprocal) {
    return T(1) / x;
  } else if constexpr (K == Square) {
    return x * x;
  } else if constexpr (K == Sign) {
    return sign_of(x);
  } else {
    static_assert(kNoCpuMath<K>, "a unary prim of the op list has no CPU math here");
  }
}

// The ops of the list above whose contiguous float32/float64 runs have a SLEEF vector kernel
// (cpu/simd/simd_body.inc expands this list once per ISA; the others run the scalar math):
//   X(Kind, SLEEF function, float32 accuracy, float64 accuracy)
// SLEEF's u10 functions are within 1.0 ulp, u35 within 3.5 ulp; the ulp sweep test
// (tests/prims/prims_ulp_sweep_test.cpp) holds every vector kernel to 4 ulp of libm.
//  - log: u35 (1.5-2x faster than u10; NumPy's own AVX-512 log ran at 1.4x tenferro's u10
//    speed in both precisions; with u35, float64 log of 2^16 elements is 1.47x NumPy's);
//  - tanh: u35 (the u10 tanh is about 4x slower); log2 u35 (u10 ran at 0.39x NumPy's float32).
//  - sin, cos: float32 u35 (twice the speed of u10, 0.25 against 0.51-0.64 ns an element, where
//    NumPy's float32 sin takes 0.45); float64 u10 (already 3-6x NumPy's speed).
//  - sinh, cosh, asin, acos, atan: u35 (the faster ones; NumPy's SVML kernels lead either way);
//    tan u10: its u35 form chooses its argument reduction at cuts of its own, which made lanes
//    depend on their neighbours. sinh, cosh, asinh and acosh patch SLEEF's early overflows, the
//    odd functions its tiny arguments (simd_body.inc).
// exp (SLEEF's overflows a few ulps early), sqrt, abs and floor/ceil/rint/trunc (instructions)
// and cbrt (SLEEF's root and the scalar rule's Newton step: the scalar bits) are written out in
// simd_body.inc. Where SLEEF was slower than NumPy, the AVX-512 kernels have their own: float64
// exp (cpu/simd/exp_table_avx512.hpp), tanh (tanh_avx512.hpp, both precisions) and cbrt
// (cbrt_avx512.hpp); listed in simd_avx512.cpp. Only the macro is read there: the per-ISA files
// must not instantiate the inline functions of this header (see simd_body.inc, and the
// SimdObjectsDefineNoWeakFunction test).
#define TENFERRO_PRIMS_CPU_SLEEF_UNARY(X) \
  X(Exp2, exp2, u10, u10)                 \
  X(Expm1, expm1, u10, u10)               \
  X(Log, log, u35, u35)                   \
  X(Log1p, log1p, u10, u10)               \
  X(Log2, log2, u35, u35)                 \
  X(Log10, log10, u10, u10)               \
  X(Sin, sin, u35, u10)                   \
  X(Cos, cos, u35, u10)                   \
  X(Tan, tan, u10, u10)                   \
  X(Sinh, sinh, u35, u35)                 \
  X(Cosh, cosh, u35, u35)                 \
  X(Tanh, tanh, u35, u35)                 \
  X(Asin, asin, u35, u35)                 \
  X(Acos, acos, u35, u35)                 \
  X(Atan, atan, u35, u35)                 \
  X(Asinh, asinh, u10, u10)               \
  X(Acosh, acosh, u10, u10)               \
  X(Atanh, atanh, u10, u10)

// Whether a contiguous run of `kind` is worth threads at the transcendental threshold (several
// ns an element) rather than the arithmetic one: exp, cbrt, pow, atan2 and the SLEEF list's
// functions.
constexpr bool is_transcendental(prims_internal::PrimKind kind) {
#define TENFERRO_PRIMS_CPU_IS(Kind, ...) kind == prims_internal::PrimKind::Kind ||
  return TENFERRO_PRIMS_CPU_SLEEF_UNARY(TENFERRO_PRIMS_CPU_IS)
                 kind == prims_internal::PrimKind::Exp ||
         kind == prims_internal::PrimKind::Cbrt || kind == prims_internal::PrimKind::Pow ||
         kind == prims_internal::PrimKind::Atan2;
#undef TENFERRO_PRIMS_CPU_IS
}

// Whether unary_op<K> / binary_op<K> is defined for T: the real-only ops of the list (its
// dtypes column) have no complex math; the registration table never admits them for complex
// values.
template <prims_internal::PrimKind K, class T>
inline constexpr bool kHasMath = !kIsComplex<T> || !prims_internal::real_only_math(K);

// a / b for complex values: std::complex's operator/ (libgcc's __divdc3 / __divsc3), except
// that a finite numerator over a real divisor (b's imaginary part zero) whose quotient came out
// with a NaN part divides part by part, which is exact for it: (1 + 1e308i) / 0.5 gave
// NaN + inf i (the rule's products overflow) where NumPy gives 2 + inf i. An infinite numerator
// keeps the operator's result, as NumPy's, CUDA's and WebGPU's (inf + 1i) / 2 = inf + NaN i.
// Where the operator's result has no NaN its bits stand, so the vector kernels' quotients (the
// operator's bits) agree.
template <class T>
T complex_quotient(T a, T b) {
  const T q = a / b;
  if (b.imag() != 0 || !(std::isnan(q.real()) || std::isnan(q.imag())) ||
      !std::isfinite(a.real()) || !std::isfinite(a.imag())) {
    return q;
  }
  const T parts(a.real() / b.real(), a.imag() / b.real());
  return std::isnan(parts.real()) || std::isnan(parts.imag()) ? q : parts;
}

// The math of each binary op of the op list (TENFERRO_PRIMS_BINARY_OPS) but Complex (whose
// output is another dtype; cpu_elementwise.cpp builds it), by compile-time kind.
template <prims_internal::PrimKind K, class T>
T binary_op(T a, T b) {
  using enum prims_internal::PrimKind;
  static_assert(kHasMath<K, T>);
  if constexpr (K == Add) {
    return a + b;
  } else if constexpr (K == Sub) {
    return a - b;
  } else if constexpr (K == Mul) {
    return a * b;
  } else if constexpr (K == Div) {
    if constexpr (kIsComplex<T>)
      return complex_quotient(a, b);
    else
      return a / b;
  } else if constexpr (K == FloorDiv) {
    return prims_internal::floor_division(a, b).quotient;
  } else if constexpr (K == Mod) {
    return prims_internal::floor_division(a, b).remainder;
  } else if constexpr (K == Fmod) {
    return prims_internal::exact_fmod(a, b);
  } else if constexpr (K == Copysign) {
    return std::copysign(a, b);
  } else if constexpr (K == Maximum) {
    return nan_max(a, b);
  } else if constexpr (K == Minimum) {
    return nan_min(a, b);
  } else if constexpr (K == Atan2) {
    return std::atan2(a, b);
  } else if constexpr (K == Hypot) {
    return std::hypot(a, b);
  } else if constexpr (K == Pow) {
    return std::pow(a, b);
  } else {
    static_assert(kNoCpuMath<K>, "a binary prim of the op list has no CPU math here");
  }
}

// Comparisons as 0/1 of the real type R. The built-in operators are IEEE's: a NaN operand
// makes every one false except !=, and -0 == +0.
template <class T>
bool compare(prims_internal::PrimKind k, T a, T b) {
  using enum prims_internal::PrimKind;
  if constexpr (kIsComplex<T>) {
    // Only Equal/NotEqual are admitted for complex values: both parts must match.
    const bool eq = a.real() == b.real() && a.imag() == b.imag();
    return k == NotEqual ? !eq : eq;
  } else {
    switch (k) {
      case Greater:
        return a > b;
      case GreaterEqual:
        return a >= b;
      case Less:
        return a < b;
      case LessEqual:
        return a <= b;
      case Equal:
        return a == b;
      default:
        return a != b;
    }
  }
}

// The condition of Where: nonzero (NaN is nonzero; a complex value when either part is).
template <class T>
bool nonzero(T c) {
  if constexpr (kIsComplex<T>) {
    return c.real() != 0 || c.imag() != 0;
  } else {
    return c != 0;
  }
}

}  // namespace tenferro::prims_cpu
