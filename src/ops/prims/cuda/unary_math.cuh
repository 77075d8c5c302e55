// The CUDA math of each unary op of the op list (TENFERRO_PRIMS_UNARY_OPS in
// prim_kind_enum.hpp): one UnaryMath<K> per op, with real(x) for float and double and
// complex(z) for DeviceComplex<float> and DeviceComplex<double> (the same type out, but abs,
// real and imag: the real type). unary_kernels.cu instantiates every op of the list through
// unary_math<K>, so an op of the list without its specialisation here does not compile (the
// primary template's static_assert), as on the CPU (cpu/element_math.hpp's unary_op).
// Host-callable too, so that the host tests check it against std::complex without a device
// (tests/cuda/prims_cuda_math_test.cpp).
//
// Real functions: float arguments are evaluated in double and rounded once (closer to the
// CPU's correctly rounded libm than the float device functions); sqrt and division are IEEE.
// Complex functions: in double precision (C32 values are widened, computed here and rounded
// once, which is at least as accurate as the CPU's float arithmetic), but for the exact ones
// and square, which multiplies in the operand's own precision as std::complex<R> does. They
// follow C99 Annex G like the CPU's std::complex functions, so the branch cuts and signed zeros
// are NumPy's: sqrt and log cut along the negative real axis and the sign of a zero imaginary
// part picks the side.
#pragma once

#include <cmath>

#include "backends/cuda/device_complex.cuh"
#include "ops/prims/cuda/complex_math.cuh"
#include "ops/prims/cuda/prims_index.hpp"  // PrimKind, TENFERRO_PRIMS_HD
#include "ops/prims/shared_real_math.hpp"

namespace tenferro::cuda_kernels::prims {

#if !defined(__CUDACC__)  // a host compiler finds the float overloads in std only
using std::fabs;
using std::sqrt;
#endif

template <PrimKind>
inline constexpr bool kNoCudaMath = false;

template <PrimKind K>
struct UnaryMath {
  static_assert(kNoCudaMath<K>, "a unary prim of the op list has no CUDA math here");
};

// A real argument evaluated in double and rounded once (fn).
#define TENFERRO_CUDA_REAL_IN_DOUBLE(fn)               \
  template <class R>                                   \
  static TENFERRO_PRIMS_HD R real(R x) {               \
    return static_cast<R>(fn(static_cast<double>(x))); \
  }

// A transcendental function: a real argument in double (above), a complex one by its
// double-precision function here (zfn).
#define TENFERRO_CUDA_MATH_IN_DOUBLE(Kind, fn, zfn)                         \
  template <>                                                               \
  struct UnaryMath<PrimKind::Kind> {                                        \
    TENFERRO_CUDA_REAL_IN_DOUBLE(fn)                                        \
    template <class R>                                                      \
    static TENFERRO_PRIMS_HD DeviceComplex<R> complex(DeviceComplex<R> z) { \
      return narrow<R>(zfn(widen(z)));                                      \
    }                                                                       \
  };

template <>
struct UnaryMath<PrimKind::Neg> {
  template <class R>
  static TENFERRO_PRIMS_HD R real(R x) {
    return -x;
  }
  template <class R>
  static TENFERRO_PRIMS_HD DeviceComplex<R> complex(DeviceComplex<R> z) {
    return {-z.re, -z.im};
  }
};

template <>
struct UnaryMath<PrimKind::Conj> {
  template <class R>
  static TENFERRO_PRIMS_HD R real(R x) {
    return x;
  }
  template <class R>
  static TENFERRO_PRIMS_HD DeviceComplex<R> complex(DeviceComplex<R> z) {
    return {z.re, -z.im};
  }
};

template <>
struct UnaryMath<PrimKind::Abs> {
  template <class R>
  static TENFERRO_PRIMS_HD R real(R x) {
    return fabs(x);
  }
  template <class R>
  static TENFERRO_PRIMS_HD R complex(DeviceComplex<R> z) {
    return static_cast<R>(zabs(widen(z)));
  }
};

template <>
struct UnaryMath<PrimKind::Real> {
  template <class R>
  static TENFERRO_PRIMS_HD R real(R x) {
    return x;
  }
  template <class R>
  static TENFERRO_PRIMS_HD R complex(DeviceComplex<R> z) {
    return z.re;
  }
};

template <>
struct UnaryMath<PrimKind::Imag> {
  template <class R>
  static TENFERRO_PRIMS_HD R real(R) {
    return R(0);
  }
  template <class R>
  static TENFERRO_PRIMS_HD R complex(DeviceComplex<R> z) {
    return z.im;
  }
};

// Principal square root, C99's csqrt: the result's real part is >= 0 and its imaginary part
// has the sign of z.im (so sqrt(-4 - 0i) = -2i, sqrt(-4 + 0i) = 2i).
TENFERRO_PRIMS_HD Z zsqrt(Z z) {
  double x = z.re, y = z.im;
  if (x == 0 && y == 0) return {0.0, y};
  if (isinf(y)) return {kInf, y};
  if (isnan(x)) return {x, x};
  if (isinf(x)) {
    if (x > 0) return {x, isnan(y) ? y : copysign(0.0, y)};
    return {isnan(y) ? fabs(y) : 0.0, copysign(kInf, y)};
  }
  if (isnan(y)) return {y, y};
  // (|x| + |z|) / 2 must neither overflow nor lose the low bits of a tiny z: scale by an even
  // power of two and undo it with the square root of that power.
  double scale = 1.0;
  if (fabs(x) > 0x1p1020 || fabs(y) > 0x1p1020) {
    x *= 0x1p-4;
    y *= 0x1p-4;
    scale = 0x1p2;
  } else if (fabs(x) < 0x1p-1000 && fabs(y) < 0x1p-1000) {
    x *= 0x1p100;
    y *= 0x1p100;
    scale = 0x1p-50;
  }
  const double t = sqrt((fabs(x) + hypot(x, y)) * 0.5);
  if (x >= 0) return {t * scale, y / (2 * t) * scale};
  return {fabs(y) / (2 * t) * scale, copysign(t, y) * scale};
}

template <>
struct UnaryMath<PrimKind::Sqrt> {
  template <class R>
  static TENFERRO_PRIMS_HD R real(R x) {
    return sqrt(x);
  }
  template <class R>
  static TENFERRO_PRIMS_HD DeviceComplex<R> complex(DeviceComplex<R> z) {
    return narrow<R>(zsqrt(widen(z)));
  }
};

TENFERRO_PRIMS_HD Z zexp(Z z) {
  const double x = z.re, y = z.im;
  if (y == 0) return {exp(x), y};  // exact real axis, signed zero kept
  if (isinf(x) && !isfinite(y)) return x < 0 ? Z{0.0, 0.0} : Z{x, kNaN};
  double s, c;
  sincos(y, &s, &c);
  const double e = exp(x);
  if (isinf(e) && isfinite(x)) {  // e^x overflows but e^x * cos y may not
    const double h = exp(0.5 * x);
    return {(h * c) * h, (h * s) * h};
  }
  return {e * c, e * s};
}

TENFERRO_CUDA_MATH_IN_DOUBLE(Exp, exp, zexp)

// 2^z = exp(z ln 2), NumPy's definition (complex64 arrives widened to double).
TENFERRO_PRIMS_HD Z zexp2(Z z) {
  constexpr double kLn2 = 0.69314718055994530942;
  return zexp({z.re * kLn2, z.im * kLn2});
}

TENFERRO_CUDA_MATH_IN_DOUBLE(Exp2, exp2, zexp2)

// exp(z) - 1 as the CPU's (cpu/element_math.hpp's complex_expm1): NumPy's formula, which keeps
// the real part's digits near 0, and exp's values on the real axis and at non-finite parts.
TENFERRO_PRIMS_HD Z zexpm1(Z z) {
  const double x = z.re, y = z.im;
  if (y == 0) return {expm1(x), y};
  if (!isfinite(x) || !isfinite(y) || x > 700.0) {  // zexp scales e^x past overflow
    const Z e = zexp(z);
    return {e.re - 1.0, e.im};
  }
  const double h = sin(0.5 * y);
  double s, c;
  sincos(y, &s, &c);
  return {expm1(x) * c - 2.0 * h * h, exp(x) * s};
}

TENFERRO_CUDA_MATH_IN_DOUBLE(Expm1, expm1, zexpm1)

// x + y = s + the returned error, exactly (Knuth's two-sum).
TENFERRO_PRIMS_HD double two_sum(double x, double y, double& s) {
  s = x + y;
  const double yb = s - x;
  return (x - (s - yb)) + (y - yb);
}

// a^2 + b^2 - 1 for 0.5 < a < 2, b <= a, to an ulp or two of itself even where it cancels twice
// (|z| near 1: log|z| of a point on the unit circle was 0, or thousands of ulp off, where the
// CPU's clog is exact). a^2 = aa + ea and b^2 = bb + eb exactly (fma), aa - 1 = t + et exactly,
// t + bb is exact where it cancels (Sterbenz), and the small parts are added with their
// rounding errors carried (they cancel too: 2e-21 from parts of 1e-17).
TENFERRO_PRIMS_HD double norm_squared_minus_one(double a, double b) {
  const double aa = a * a, bb = b * b;
  const double ea = fma(a, a, -aa), eb = fma(b, b, -bb);
  double t = 0;
  const double et = two_sum(aa, -1.0, t);
  double s = t + bb, carried = 0;
  carried += two_sum(s, et, s);
  carried += two_sum(s, ea, s);
  carried += two_sum(s, eb, s);
  return s + carried;
}

// Principal logarithm: log|z| + i arg z with arg in [-pi, pi] (atan2 keeps the zero signs).
// Near |z| = 1, log|z| comes from log1p so that it keeps its relative accuracy. Elsewhere
// |z| = hypot would overflow past DBL_MAX (log(1.7e308 + 1.7e308i) gave inf) and keep few digits
// in the subnormal range (log(5e-324 + 5e-324i) gave -744.44 for -744.09), so at the extremes
// the parts are scaled by a power of two, exactly, and log|z| = log|z 2^-k| + k ln 2, with ln 2
// split in two (the first part's low bits zero: k times it is exact).
TENFERRO_PRIMS_HD Z zlog(Z z) {
  const double ax = fabs(z.re), ay = fabs(z.im);
  const double arg = atan2(z.im, z.re);
  if (isinf(ax) || isinf(ay)) return {kInf, arg};
  if (isnan(ax) || isnan(ay)) return {kNaN, kNaN};
  double a = fmax(ax, ay), b = fmin(ax, ay);
  if (a == 0) return {-kInf, arg};
  if (a > 0.5 && a < 2.0) return {0.5 * log1p(norm_squared_minus_one(a, b)), arg};
  double k = 0;
  if (a > 0x1p1020) {
    a *= 0x1p-4;
    b *= 0x1p-4;
    k = 4;
  } else if (a < 0x1p-1000) {
    a *= 0x1p100;
    b *= 0x1p100;
    k = -100;
  }
  constexpr double kLn2Hi = 6.93147180369123816490e-01, kLn2Lo = 1.90821492927058770002e-10;
  return {(log(hypot(a, b)) + k * kLn2Lo) + k * kLn2Hi, arg};
}

TENFERRO_CUDA_MATH_IN_DOUBLE(Log, log, zlog)

// log(1 + z) as the CPU's (complex_log1p): near 0 the real part from log1p of |1 + z|^2 - 1,
// that from exact squares summed where each partial sum is exact (see circle_distance in
// cpu/element_math.hpp).
TENFERRO_PRIMS_HD Z zlog1p(Z z) {
  const double x = z.re, y = z.im;
  if (fabs(x) < 0.5 && fabs(y) < 0.5) {
    const double xx = x * x, yy = y * y;
    const double s = ((2.0 * x + yy) + xx) + (fma(x, x, -xx) + fma(y, y, -yy));
    return {0.5 * log1p(s), atan2(y, 1.0 + x)};
  }
  return zlog({1.0 + x, y});
}

TENFERRO_CUDA_MATH_IN_DOUBLE(Log1p, log1p, zlog1p)

// log2 z and log10 z: log z's parts times log2(e) or log10(e), as the CPU's and NumPy's.
TENFERRO_PRIMS_HD Z zlog2(Z z) {
  const Z l = zlog(z);
  return {l.re * 1.4426950408889634, l.im * 1.4426950408889634};
}
TENFERRO_PRIMS_HD Z zlog10(Z z) {
  const Z l = zlog(z);
  return {l.re * 0.4342944819032518, l.im * 0.4342944819032518};
}

TENFERRO_CUDA_MATH_IN_DOUBLE(Log2, log2, zlog2)
TENFERRO_CUDA_MATH_IN_DOUBLE(Log10, log10, zlog10)

// {a cosh y, b sinh y} without overflowing early: past |y| = 709 cosh y = sinh y = e^|y| / 2
// overflows although the products may not (a = sin x tiny), so e^|y| is applied in halves,
// the first to a or b itself (a * 0.5 first rounded a subnormal a to 0 or lost its digits:
// sin(5e-324 + 1000i) gave 0 + inf i). (zsin and zcos.)
TENFERRO_PRIMS_HD Z cosh_sinh(double a, double b, double y) {
  if (fabs(y) < 709.0) return {a * cosh(y), b * sinh(y)};
  const double h = exp(0.5 * fabs(y));
  return {(a * h) * (0.5 * h), (b * h) * (copysign(0.5, y) * h)};
}

// sin(x + iy) = sin x cosh y + i cos x sinh y; a zero x keeps its sign (and avoids 0 * inf).
// An infinite or NaN x as the C library's csin (C99 Annex G through csin z = -i csinh(iz)):
// sin(inf + 0i) = NaN + 0i, sin(inf + inf i) = NaN + inf i.
TENFERRO_PRIMS_HD Z zsin(Z z) {
  const double x = z.re, y = z.im;
  if (!isfinite(x)) {
    if (y == 0) return {kNaN, y};
    return {kNaN, isinf(y) ? kInf : kNaN};
  }
  double s, c;
  sincos(x, &s, &c);
  const Z r = cosh_sinh(s, c, y);
  return {x == 0 ? x : r.re, r.im};
}

TENFERRO_CUDA_MATH_IN_DOUBLE(Sin, sin, zsin)

// cos(x + iy) = cos x cosh y - i sin x sinh y; a zero x gives an imaginary part -0 * sign y
// (x for a NaN y). An infinite or NaN x as the C library's ccos (Annex G through
// ccos z = ccosh(iz)): cos(inf + 0i) = NaN + 0i, cos(inf + inf i) = inf + NaN i.
TENFERRO_PRIMS_HD Z zcos(Z z) {
  const double x = z.re, y = z.im;
  if (!isfinite(x)) {
    if (y == 0) return {kNaN, 0.0};
    return isinf(y) ? Z{kInf, kNaN} : Z{kNaN, kNaN};
  }
  double s, c;
  sincos(x, &s, &c);
  const Z r = cosh_sinh(c, s, y);
  if (x == 0) return {r.re, isnan(y) ? x : -(x * copysign(1.0, y))};
  return {r.re, -r.im};
}

TENFERRO_CUDA_MATH_IN_DOUBLE(Cos, cos, zcos)

// Kahan's formulation (as in C libraries' ctanh): no cancellation, no overflow for large |x|.
TENFERRO_PRIMS_HD Z ztanh(Z z) {
  const double x = z.re, y = z.im;
  if (isnan(x)) return {x, y == 0 ? y : x};
  if (isinf(x)) {
    return {copysign(1.0, x), isfinite(y) ? copysign(0.0, sin(y) * cos(y)) : copysign(0.0, y)};
  }
  if (!isfinite(y)) return {x == 0 ? x : y - y, y - y};  // tanh(+-0 + i inf) = +-0 + i NaN
  if (fabs(x) >= 22) {  // tanh x rounds to +-1; the imaginary part decays like e^-2|x|
    const double e = exp(-fabs(x));
    return {copysign(1.0, x), 4 * sin(y) * cos(y) * e * e};
  }
  const double t = tan(y), beta = 1 + t * t, s = sinh(x), rho = sqrt(1 + s * s);
  const double den = 1 + beta * s * s;
  return {beta * rho * s / den, t / den};
}

TENFERRO_CUDA_MATH_IN_DOUBLE(Tanh, tanh, ztanh)

// sinh z = -i sin(iz), cosh z = cos(iz), tan z = -i tanh(iz): C99 Annex G defines csin, ccos
// and ctanh's special values through these identities (multiplying by i swaps the parts and
// negates one, exactly).
TENFERRO_PRIMS_HD Z times_i(Z z) {
  return {-z.im, z.re};
}
TENFERRO_PRIMS_HD Z times_minus_i(Z z) {
  return {z.im, -z.re};
}
TENFERRO_PRIMS_HD Z zsinh(Z z) {
  return times_minus_i(zsin(times_i(z)));
}
TENFERRO_PRIMS_HD Z zcosh(Z z) {
  return zcos(times_i(z));
}
TENFERRO_PRIMS_HD Z ztan(Z z) {
  return times_minus_i(ztanh(times_i(z)));
}

TENFERRO_CUDA_MATH_IN_DOUBLE(Sinh, sinh, zsinh)
TENFERRO_CUDA_MATH_IN_DOUBLE(Cosh, cosh, zcosh)
TENFERRO_CUDA_MATH_IN_DOUBLE(Tan, tan, ztan)

// The real-only ops of the list (prim_kind_enum.hpp's dtypes column): a real argument evaluated
// in double and rounded once (exact for the roundings to an integral value); no complex member
// (unary_kernels.cu instantiates none for them).
#define TENFERRO_CUDA_REAL_MATH_IN_DOUBLE(Kind, fn) \
  template <>                                       \
  struct UnaryMath<PrimKind::Kind> {                \
    TENFERRO_CUDA_REAL_IN_DOUBLE(fn)                \
  };

TENFERRO_CUDA_REAL_MATH_IN_DOUBLE(Asin, asin)
TENFERRO_CUDA_REAL_MATH_IN_DOUBLE(Acos, acos)
TENFERRO_CUDA_REAL_MATH_IN_DOUBLE(Atan, atan)
TENFERRO_CUDA_REAL_MATH_IN_DOUBLE(Asinh, asinh)
TENFERRO_CUDA_REAL_MATH_IN_DOUBLE(Acosh, acosh)
TENFERRO_CUDA_REAL_MATH_IN_DOUBLE(Atanh, atanh)
TENFERRO_CUDA_REAL_MATH_IN_DOUBLE(Floor, floor)
TENFERRO_CUDA_REAL_MATH_IN_DOUBLE(Ceil, ceil)
TENFERRO_CUDA_REAL_MATH_IN_DOUBLE(Rint, rint)
TENFERRO_CUDA_REAL_MATH_IN_DOUBLE(Trunc, trunc)
TENFERRO_CUDA_REAL_MATH_IN_DOUBLE(Cbrt, prims_internal::cube_root)

#undef TENFERRO_CUDA_REAL_MATH_IN_DOUBLE

template <>
struct UnaryMath<PrimKind::Reciprocal> {
  template <class R>
  static TENFERRO_PRIMS_HD R real(R x) {
    return div_rn(R(1), x);
  }
  template <class R>
  static TENFERRO_PRIMS_HD DeviceComplex<R> complex(DeviceComplex<R> z) {
    return cdiv(DeviceComplex<R>{R(1), R(0)}, z);
  }
};

template <>
struct UnaryMath<PrimKind::Square> {
  template <class R>
  static TENFERRO_PRIMS_HD R real(R x) {
    return mul_rn(x, x);
  }
  template <class R>
  static TENFERRO_PRIMS_HD DeviceComplex<R> complex(DeviceComplex<R> z) {
    return cmul(z, z);
  }
};

// z / |z| (NumPy 2), 0 at 0, NaN when |z| is NaN.
// NumPy 2's sign, as the CPU's sign_of: an infinite part is the direction whatever the other,
// two infinite parts or a NaN part give NaN, the extremes are scaled by a power of two so that
// |z| neither overflows nor loses digits (complex64 arrives widened to double).
TENFERRO_PRIMS_HD Z zsign(Z z) {
  const bool re_inf = isinf(z.re), im_inf = isinf(z.im);
  if (re_inf != im_inf) {
    return {re_inf ? copysign(1.0, z.re) : 0.0, im_inf ? copysign(1.0, z.im) : 0.0};
  }
  if (re_inf || isnan(z.re) || isnan(z.im)) return {kNaN, kNaN};
  const double big = fmax(fabs(z.re), fabs(z.im));
  if (big == 0) return {0.0, 0.0};
  const double scale = big > 0x1p1000 ? 0x1p-100 : (big < 0x1p-1000 ? 0x1p100 : 1.0);
  const double a = z.re * scale, b = z.im * scale, m = hypot(a, b);
  return {a / m, b / m};
}

template <>
struct UnaryMath<PrimKind::Sign> {
  // -1, 0 or 1 (0 for -0 too), NaN for NaN.
  template <class R>
  static TENFERRO_PRIMS_HD R real(R x) {
    if (isnan(x)) return x;
    return static_cast<R>((x > 0) - (x < 0));
  }
  template <class R>
  static TENFERRO_PRIMS_HD DeviceComplex<R> complex(DeviceComplex<R> z) {
    return narrow<R>(zsign(widen(z)));
  }
};

// The math of unary op K on one element, as the kernels call it: UnaryMath<K>::real for float
// and double, UnaryMath<K>::complex for complex values.
template <PrimKind K, class R>
TENFERRO_PRIMS_HD auto unary_math(R x) -> decltype(UnaryMath<K>::real(x)) {
  return UnaryMath<K>::real(x);
}
template <PrimKind K, class R>
TENFERRO_PRIMS_HD auto unary_math(DeviceComplex<R> z) -> decltype(UnaryMath<K>::complex(z)) {
  return UnaryMath<K>::complex(z);
}

#undef TENFERRO_CUDA_MATH_IN_DOUBLE
#undef TENFERRO_CUDA_REAL_IN_DOUBLE

}  // namespace tenferro::cuda_kernels::prims
