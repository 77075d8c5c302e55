// Complex element functions of the prims CUDA kernels, in double precision (C32 values are
// widened, computed here and rounded once, which is at least as accurate as the CPU's float
// arithmetic). They follow C99 Annex G like the CPU's std::complex functions, so the branch
// cuts and signed zeros are NumPy's: sqrt and log cut along the negative real axis and the sign
// of a zero imaginary part picks the side. Host-callable too, so that they can be checked
// against std::complex without a device.
#pragma once

#include <cuda_runtime.h>

#include <cmath>
#include <limits>

#include "backends/cuda/device_complex.cuh"
#include "ops/prims/cuda/prims_index.hpp"  // TENFERRO_PRIMS_HD

namespace tenferro::cuda_kernels::prims {

using Z = DeviceComplex<double>;

#if !defined(__CUDACC__)  // a host compiler finds the classification functions in std only
using std::isfinite;
using std::isinf;
using std::isnan;
#endif

// constexpr scalars are usable in device code (CUDART_INF is device-only).
inline constexpr double kInf = std::numeric_limits<double>::infinity();
inline constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

TENFERRO_PRIMS_HD Z zmul(Z a, Z b) {
  return {a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re};
}

// Smith's division (NumPy's loop): scaled by the larger part of b, so it neither overflows nor
// underflows early; b == 0 gives a complex inf or NaN as NumPy does.
TENFERRO_PRIMS_HD Z zdiv(Z a, Z b) {
  const double br = fabs(b.re), bi = fabs(b.im);
  if (br >= bi) {
    if (br == 0 && bi == 0) return {a.re / br, a.im / br};
    const double rat = b.im / b.re, scl = 1.0 / (b.re + b.im * rat);
    return {(a.re + a.im * rat) * scl, (a.im - a.re * rat) * scl};
  }
  const double rat = b.re / b.im, scl = 1.0 / (b.im + b.re * rat);
  return {(a.re * rat + a.im) * scl, (a.im * rat - a.re) * scl};
}

TENFERRO_PRIMS_HD double zabs(Z z) {
  return hypot(z.re, z.im);
}

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

// Principal logarithm: log|z| + i arg z with arg in [-pi, pi] (atan2 keeps the zero signs).
// Near |z| = 1, log|z| comes from log1p so that it keeps its relative accuracy.
TENFERRO_PRIMS_HD Z zlog(Z z) {
  const double ax = fabs(z.re), ay = fabs(z.im);
  const double arg = atan2(z.im, z.re);
  if (isinf(ax) || isinf(ay)) return {kInf, arg};
  if (isnan(ax) || isnan(ay)) return {kNaN, kNaN};
  const double a = fmax(ax, ay), b = fmin(ax, ay);
  if (a == 0) return {-kInf, arg};
  if (a > 0.5 && a < 2.0) return {0.5 * log1p((a - 1.0) * (a + 1.0) + b * b), arg};
  return {log(hypot(a, b)), arg};
}

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

// {a cosh y, b sinh y} without overflowing early: past |y| = 709 cosh y = sinh y = e^|y| / 2
// overflows although the products may not (a = sin x tiny), so e^|y| is applied in halves.
TENFERRO_PRIMS_HD Z cosh_sinh(double a, double b, double y) {
  if (fabs(y) < 709.0) return {a * cosh(y), b * sinh(y)};
  const double h = exp(0.5 * fabs(y));
  return {(a * 0.5 * h) * h, (b * copysign(0.5, y) * h) * h};
}

// sin(x + iy) = sin x cosh y + i cos x sinh y; a zero x keeps its sign (and avoids 0 * inf).
TENFERRO_PRIMS_HD Z zsin(Z z) {
  const double x = z.re, y = z.im;
  double s, c;
  sincos(x, &s, &c);
  const Z r = cosh_sinh(s, c, y);
  return {x == 0 ? x : r.re, r.im};
}

// cos(x + iy) = cos x cosh y - i sin x sinh y.
TENFERRO_PRIMS_HD Z zcos(Z z) {
  const double x = z.re, y = z.im;
  double s, c;
  sincos(x, &s, &c);
  const Z r = cosh_sinh(c, s, y);
  return {r.re, x == 0 ? -(x * copysign(1.0, y)) : -r.im};
}

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

// z / |z| (NumPy 2), 0 at 0, NaN when |z| is NaN.
TENFERRO_PRIMS_HD Z zsign(Z z) {
  const double m = hypot(z.re, z.im);
  if (m == 0) return {0.0, 0.0};
  if (isnan(m)) return {kNaN, kNaN};
  return {z.re / m, z.im / m};
}

}  // namespace tenferro::cuda_kernels::prims
