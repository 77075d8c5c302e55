// The real scalar rules the CPU and CUDA kernels share, so that both give the same bits: NumPy's
// floor division and remainder, and a cube root polished to exact cubes. Read by nvcc as plain
// C++17 (host and device); the WebGPU kernels spell the same rules in WGSL
// (wgsl_prims_math_core.cpp's r_divmod, wgsl_prims_math_log_pow.cpp's r_cbrt).
//
// Floor division and remainder (floor_divide and remainder, Python's // and %). Why not
// floor(a / b): the rounded quotient can reach the next integer (1 // 0.1 would be 10,
// the exact quotient being 9.99999...). fmod is exact, so a - fmod(a, b) is a multiple of b and
// its quotient by b rounds near an integer, which rounding to nearest then takes; the remainder
// moves to the divisor's sign. Each step in R (float32 in float32, as NumPy), so results agree
// with NumPy's bit for bit, signed zeros, infinities and NaNs included: b = 0 gives a / b and a
// NaN remainder; an infinite a or a NaN gives NaN; an infinite b gives a (or b, or -0 / -1
// across signs) as Python does.
#pragma once

#include <cmath>

#if defined(__CUDACC__)
#define TENFERRO_SHARED_REAL_MATH_HD __host__ __device__ __forceinline__
#else
#define TENFERRO_SHARED_REAL_MATH_HD inline
#endif
// The device's overloads in device code, the standard library's on the host.
#if defined(__CUDA_ARCH__)
#define TENFERRO_SHARED_REAL_MATH_FN(fn) ::fn
#else
#define TENFERRO_SHARED_REAL_MATH_FN(fn) std::fn
#endif

namespace tenferro::prims_internal {

template <class R>
struct FloorDivision {
  R quotient;
  R remainder;
};

// C's fmod, exact, without the C library's call where the quotient is below 2^(digits - 1):
// there trunc(fl(a / b)) is the truncated quotient k or k + 1 in magnitude (rounding is
// monotonic and both are representable), so a - q b is below |b| in magnitude, a multiple of b's
// last place, hence representable and formed exactly by one fma; a remainder of the other sign
// (q was k + 1) moves back by |b|, again exactly. glibc 2.36's fmod took 40 ns an element here.
// Larger quotients, and a zero, infinite or NaN operand (whose quotient is infinite or NaN, but
// for an infinite b) take the library's fmod.
template <class R>
TENFERRO_SHARED_REAL_MATH_HD R exact_fmod(R a, R b) {
  constexpr R kLimit = sizeof(R) == 4 ? R(8388608.0) : R(4503599627370496.0);  // 2^23, 2^52
  const R q = TENFERRO_SHARED_REAL_MATH_FN(trunc)(a / b);
  if (!(TENFERRO_SHARED_REAL_MATH_FN(fabs)(q) < kLimit) ||
      !TENFERRO_SHARED_REAL_MATH_FN(isfinite)(b)) {
    return TENFERRO_SHARED_REAL_MATH_FN(fmod)(a, b);
  }
  R r = TENFERRO_SHARED_REAL_MATH_FN(fma)(-q, b, a);
  if (r == R(0)) return TENFERRO_SHARED_REAL_MATH_FN(copysign)(R(0), a);
  if ((r < R(0)) != (a < R(0))) r += TENFERRO_SHARED_REAL_MATH_FN(copysign)(b, a);
  return r;
}

template <class R>
TENFERRO_SHARED_REAL_MATH_HD FloorDivision<R> floor_division(R a, R b) {
  R mod = exact_fmod(a, b);
  if (b == R(0)) return {a / b, mod};
  R div = (a - mod) / b;
  if (mod != R(0)) {
    if ((b < R(0)) != (mod < R(0))) {
      mod += b;
      div -= R(1);
    }
  } else {
    mod = TENFERRO_SHARED_REAL_MATH_FN(copysign)(R(0), b);
  }
  R quotient;
  if (div != R(0)) {
    quotient = TENFERRO_SHARED_REAL_MATH_FN(floor)(div);
    if (div - quotient > R(0.5)) quotient += R(1);
  } else {
    quotient = TENFERRO_SHARED_REAL_MATH_FN(copysign)(R(0), a / b);
  }
  return {quotient, mod};
}

// The real cube root of x in double: the C library's cbrt (1 ulp; glibc's cbrt(-5832) is
// -18.000000000000004) with one Newton step whose residual y^3 - x is formed exactly (fma),
// which lands within about half an ulp and on exact cubes. Outside 1e-290..1e300 (where the
// residual's error terms would be subnormal, or y^3 could overflow) x is scaled by 2^-+300
// first and the root by 2^+-100 after, both exact; at 0 and at non-finite x the library's root
// stands.
TENFERRO_SHARED_REAL_MATH_HD double cube_root(double x) {
  const double ax = TENFERRO_SHARED_REAL_MATH_FN(fabs)(x);
  if (!(ax > 0.0) || !TENFERRO_SHARED_REAL_MATH_FN(isfinite)(x)) {
    return TENFERRO_SHARED_REAL_MATH_FN(cbrt)(x);
  }
  const double scale = ax < 1e-290 ? 0x1p300 : ax > 1e300 ? 0x1p-300 : 1.0;
  const double s = x * scale;
  const double y = TENFERRO_SHARED_REAL_MATH_FN(cbrt)(s);
  const double yy = y * y;
  const double yy_err = TENFERRO_SHARED_REAL_MATH_FN(fma)(y, y, -yy);
  const double yyy = yy * y;
  const double yyy_err = TENFERRO_SHARED_REAL_MATH_FN(fma)(yy, y, -yyy) + yy_err * y;
  const double root = y - ((yyy - s) + yyy_err) / (3.0 * yy);
  return scale == 1.0 ? root : root * (scale > 1.0 ? 0x1p-100 : 0x1p100);
}

}  // namespace tenferro::prims_internal

#undef TENFERRO_SHARED_REAL_MATH_HD
#undef TENFERRO_SHARED_REAL_MATH_FN
