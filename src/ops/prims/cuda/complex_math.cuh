// The arithmetic the prims CUDA kernels share, host-callable too (so that the host tests can
// check the math built on it against std::complex without a device):
//  - the round-to-nearest operations (add_rn .. div_rn), which nvcc never contracts into FMAs,
//    so that the kernels round exactly like the CPU kernels (x86-64 without FMA);
//  - complex arithmetic in the operand's own precision (cadd, csub, cmul: as std::complex<R>,
//    cmul with C99 Annex G's recovery of infinities);
//  - complex division as std::complex's (cdiv, cquotient: libgcc's __divsc3 and __divdc3, C32 in
//    double precision);
//  - complex arithmetic in double precision (Z: zmul, zdiv, zabs), and widen / narrow between
//    an operand and Z. C32 values are widened, computed in double and rounded once, which is
//    at least as accurate as the CPU's float arithmetic.
// The math of each unary op is in unary_math.cuh.
#pragma once

#if defined(__CUDACC__)
#include <cuda_runtime.h>
#endif

#include <cmath>
#include <limits>
#include <type_traits>

#include "backends/cuda/device_complex.cuh"
#include "ops/prims/cuda/prims_index.hpp"  // TENFERRO_PRIMS_HD

namespace tenferro::cuda_kernels::prims {

using Z = DeviceComplex<double>;

#if !defined(__CUDACC__)  // a host compiler finds the classification functions in std only
using std::copysign;
using std::fabs;
using std::fmax;
using std::fmin;
using std::ilogb;
using std::isfinite;
using std::isinf;
using std::isnan;
using std::scalbn;
#endif

// constexpr scalars are usable in device code (CUDART_INF is device-only).
inline constexpr double kInf = std::numeric_limits<double>::infinity();
inline constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// The device rounds with the _rn intrinsics; the host (the tests) with the plain operators,
// which round to nearest as well. One macro row per operation: its name, the float and double
// intrinsics and the host operator.
#if defined(__CUDA_ARCH__)
#define TENFERRO_PRIMS_RN(name, f_intrinsic, d_intrinsic, op) \
  TENFERRO_PRIMS_HD float name(float a, float b) {            \
    return f_intrinsic(a, b);                                 \
  }                                                           \
  TENFERRO_PRIMS_HD double name(double a, double b) {         \
    return d_intrinsic(a, b);                                 \
  }
#else
#define TENFERRO_PRIMS_RN(name, f_intrinsic, d_intrinsic, op) \
  TENFERRO_PRIMS_HD float name(float a, float b) {            \
    return a op b;                                            \
  }                                                           \
  TENFERRO_PRIMS_HD double name(double a, double b) {         \
    return a op b;                                            \
  }
#endif
TENFERRO_PRIMS_RN(add_rn, __fadd_rn, __dadd_rn, +)
TENFERRO_PRIMS_RN(sub_rn, __fsub_rn, __dsub_rn, -)
TENFERRO_PRIMS_RN(mul_rn, __fmul_rn, __dmul_rn, *)
TENFERRO_PRIMS_RN(div_rn, __fdiv_rn, __ddiv_rn, /)
#undef TENFERRO_PRIMS_RN

// Complex arithmetic in the operand's own precision (as std::complex<R> on the CPU).
template <class R>
TENFERRO_PRIMS_HD DeviceComplex<R> cadd(DeviceComplex<R> a, DeviceComplex<R> b) {
  return {add_rn(a.re, b.re), add_rn(a.im, b.im)};
}
template <class R>
TENFERRO_PRIMS_HD DeviceComplex<R> csub(DeviceComplex<R> a, DeviceComplex<R> b) {
  return {sub_rn(a.re, b.re), sub_rn(a.im, b.im)};
}

// An infinite part as its direction (+-1), a finite one as a zero of its sign; a NaN part as a
// zero of its sign. (C99 Annex G's recovery of infinities, cmul_special and cdiv_special.)
template <class R>
TENFERRO_PRIMS_HD R inf_direction(R v) {
  return copysign(isinf(v) ? R(1) : R(0), v);
}
template <class R>
TENFERRO_PRIMS_HD R nan_to_zero(R v) {
  return isnan(v) ? copysign(R(0), v) : v;
}

// (a + bi)(c + di) whose naive parts x, y both came out NaN: C99 Annex G.5.1's recovery, as
// std::complex's product (libgcc's __mulsc3/__muldc3) does it. An infinite factor is taken as its
// direction (parts +-1 or +-0) and the other factor's NaN parts as zeros; with finite factors
// whose partial products overflowed, the NaN parts count as zeros. The result is then infinity
// times the product of what is left: (inf + inf i)(0 + 1i) = -inf + inf i, (inf + NaN i)^2 =
// inf + NaN i. Otherwise (a NaN factor, nothing infinite) x, y stay NaN.
template <class R>
TENFERRO_PRIMS_HD DeviceComplex<R> cmul_special(R a, R b, R c, R d, R x, R y) {
  const bool first_inf = isinf(a) || isinf(b), second_inf = isinf(c) || isinf(d);
  if (first_inf) {
    a = inf_direction(a);
    b = inf_direction(b);
    c = nan_to_zero(c);
    d = nan_to_zero(d);
  }
  if (second_inf) {
    c = inf_direction(c);
    d = inf_direction(d);
    a = nan_to_zero(a);
    b = nan_to_zero(b);
  }
  if (!first_inf && !second_inf) {
    if (!isinf(mul_rn(a, c)) && !isinf(mul_rn(b, d)) && !isinf(mul_rn(a, d)) &&
        !isinf(mul_rn(b, c))) {
      return {x, y};
    }
    a = nan_to_zero(a);
    b = nan_to_zero(b);
    c = nan_to_zero(c);
    d = nan_to_zero(d);
  }
  const R inf = static_cast<R>(kInf);
  return {inf * sub_rn(mul_rn(a, c), mul_rn(b, d)), inf * add_rn(mul_rn(a, d), mul_rn(b, c))};
}

// The product as std::complex<R>'s: the naive parts, rounded as the CPU's (no FMA), and where
// both are NaN the Annex G recovery (one NaN test on the common path).
template <class R>
TENFERRO_PRIMS_HD DeviceComplex<R> cmul(DeviceComplex<R> a, DeviceComplex<R> b) {
  const R x = sub_rn(mul_rn(a.re, b.re), mul_rn(a.im, b.im));
  const R y = add_rn(mul_rn(a.re, b.im), mul_rn(a.im, b.re));
  if (isnan(x) && isnan(y)) return cmul_special(a.re, a.im, b.re, b.im, x, y);
  return {x, y};
}

// A complex value widened to double precision and rounded back.
template <class R>
TENFERRO_PRIMS_HD Z widen(DeviceComplex<R> z) {
  return {static_cast<double>(z.re), static_cast<double>(z.im)};
}
template <class R>
TENFERRO_PRIMS_HD DeviceComplex<R> narrow(Z z) {
  return {static_cast<R>(z.re), static_cast<R>(z.im)};
}

TENFERRO_PRIMS_HD Z zmul(Z a, Z b) {
  return {a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re};
}

// (a + bi) / (c + di) whose quotient came out NaN + NaN i: C99 Annex G.5.1's recovery, as
// std::complex's quotient (libgcc's __divsc3/__divdc3) does it: a zero divisor gives infinities
// signed by c's sign times the numerator's parts, an infinite numerator over a finite divisor
// infinities in its direction, a finite numerator over an infinite divisor zeros.
template <class R>
TENFERRO_PRIMS_HD DeviceComplex<R> cdiv_special(R a, R b, R c, R d, R x, R y) {
  const R inf = static_cast<R>(kInf);
  if (c == 0 && d == 0 && !(isnan(a) && isnan(b))) {
    return {copysign(inf, c) * a, copysign(inf, c) * b};
  }
  if ((isinf(a) || isinf(b)) && isfinite(c) && isfinite(d)) {
    a = inf_direction(a);
    b = inf_direction(b);
    return {inf * add_rn(mul_rn(a, c), mul_rn(b, d)), inf * sub_rn(mul_rn(b, c), mul_rn(a, d))};
  }
  if ((isinf(c) || isinf(d)) && isfinite(a) && isfinite(b)) {
    c = inf_direction(c);
    d = inf_direction(d);
    return {R(0) * add_rn(mul_rn(a, c), mul_rn(b, d)), R(0) * sub_rn(mul_rn(b, c), mul_rn(a, d))};
  }
  return {x, y};
}

// C64 a / b, as std::complex<double>'s operator/ (libgcc's __divdc3), whose bits it gives
// wherever neither meets an overflow or underflow on the way: Smith's division by the larger
// part of b (the pivot), dividing by the scaled divisor (not multiplying with its reciprocal),
// with the other order of products where the ratio is subnormal or underflowed.
// Unscaled, its intermediates overflow for a divisor near DBL_MAX or a numerator past
// DBL_MAX / 2, and lose digits or overflow for a tiny divisor: (1e308 + 0i) / (1e308 + 1e308i)
// gave 0, (1e-310 + 0i) / (1e-310 + 1e-310i) inf - inf i. So where b's larger part is below 1
// or from DBL_MAX / 2 on, a's from 2^1023 on, or a part of a is zero or subnormal, b is scaled
// by a power of two 2^sb, exactly: its larger part to [1, 2) when below 1, halved from
// DBL_MAX / 2 on, and by 2^52 at least for the zero or subnormal part of a (as __divdc3, so
// that its products keep their digits and zero signs). a is scaled alike, which leaves the
// quotient as it is, but no further than keeps its larger part below 2^1023, where Smith's
// sums cannot overflow (2^sa, sa <= sb); the quotient is then scaled by 2^(sb - sa) >= 1, which
// is exact or overflows as it should. (Halving turns parts below 2^-1021 subnormal; their share
// of the quotient is below its rounding.)
// A real or imaginary b is not scaled: its ratio is 0, and the products with it (not the other
// order, whose quotient of parts could overflow into inf * 0 = NaN, as __divdc3's does:
// 1 / (5e-324 + 0i) = inf + NaN i) leave each part of a divided by b's nonzero part, rounded
// once. A zero divisor or an infinite or NaN part, where the quotient is an infinity, a zero or
// NaN whose signs the scalings decide, gets __divdc3's own scalings, then Annex G's recovery
// (cdiv_special).
TENFERRO_PRIMS_HD Z zdiv(Z a, Z b) {
  double p = a.re, q = a.im, c = b.re, d = b.im;
  const double big = fmax(fabs(c), fabs(d)), top = fmax(fabs(p), fabs(q));
  constexpr double kHalfMax = 0x1.fffffffffffffp+1022;  // DBL_MAX / 2
  int up = 0;                                           // sb - sa
  if (big > 0 && isfinite(p) && isfinite(q) && isfinite(c) && isfinite(d)) {
    const bool tiny_part = fmin(fabs(p), fabs(q)) < 0x1p-1022 && top < 0x1p970 && big < 0x1p970;
    if ((big < 1.0 || big >= kHalfMax || top >= 0x1p1023 || tiny_part) && c != 0 && d != 0) {
      int sb = big < 1.0 ? -ilogb(big) : (big >= kHalfMax ? -1 : 0);
      if (tiny_part && sb < 52) sb = 52;
      int sa = sb;
      if (top > 0) {
        const int room = 1022 - ilogb(top);
        sa = sa < room ? sa : room;
      }
      up = sb - sa;
      p = scalbn(p, sa);
      q = scalbn(q, sa);
      c = scalbn(c, sb);
      d = scalbn(d, sb);
    }
  } else {
    const double pivot = fabs(c) < fabs(d) ? fabs(d) : fabs(c);
    constexpr double kMax2 = 0x1.fffffffffffffp+970;  // DBL_MAX / 2 * DBL_EPSILON
    double scale = 1.0;
    if (pivot >= kHalfMax) {
      scale = 0.5;
    } else if (pivot < 0x1p-52 || (pivot < kMax2 && ((fabs(p) < 0x1p-1022 && fabs(q) < kMax2) ||
                                                     (fabs(q) < 0x1p-1022 && fabs(p) < kMax2)))) {
      scale = 0x1p52;
    }
    p *= scale;
    q *= scale;
    c *= scale;
    d *= scale;
  }
  double x, y;
  if (fabs(c) < fabs(d)) {
    const double r = div_rn(c, d), den = add_rn(mul_rn(c, r), d);
    if (fabs(r) > 0x1p-1022 || c == 0) {
      x = div_rn(add_rn(mul_rn(p, r), q), den);
      y = div_rn(sub_rn(mul_rn(q, r), p), den);
    } else {
      x = div_rn(add_rn(mul_rn(c, div_rn(p, d)), q), den);
      y = div_rn(sub_rn(mul_rn(c, div_rn(q, d)), p), den);
    }
  } else {
    const double r = div_rn(d, c), den = add_rn(mul_rn(d, r), c);
    if (fabs(r) > 0x1p-1022 || d == 0) {
      x = div_rn(add_rn(mul_rn(q, r), p), den);
      y = div_rn(sub_rn(q, mul_rn(p, r)), den);
    } else {
      x = div_rn(add_rn(mul_rn(d, div_rn(q, c)), p), den);
      y = div_rn(sub_rn(q, mul_rn(d, div_rn(p, c))), den);
    }
  }
  if (isnan(x) && isnan(y)) return cdiv_special(p, q, c, d, x, y);
  if (up != 0) return {scalbn(x, up), scalbn(y, up)};
  return {x, y};
}

// a / b as std::complex<R>'s operator/: C64 by zdiv; C32 as libgcc's __divsc3, the textbook
// formula in double precision (where float parts can neither overflow nor underflow) rounded
// once to float, then Annex G's recovery. Reciprocal is cdiv(1, z), as the CPU's T(1) / z.
template <class R>
TENFERRO_PRIMS_HD DeviceComplex<R> cdiv(DeviceComplex<R> a, DeviceComplex<R> b) {
  if constexpr (std::is_same_v<R, double>) {
    return zdiv(a, b);
  } else {
    const double p = a.re, q = a.im, c = b.re, d = b.im;
    const double den = add_rn(mul_rn(c, c), mul_rn(d, d));
    const R x = static_cast<R>(div_rn(add_rn(mul_rn(p, c), mul_rn(q, d)), den));
    const R y = static_cast<R>(div_rn(sub_rn(mul_rn(q, c), mul_rn(p, d)), den));
    if (isnan(x) && isnan(y)) return cdiv_special(a.re, a.im, b.re, b.im, x, y);
    return {x, y};
  }
}

// The Div op's a / b, as the CPU's (cpu/element_math.hpp's complex_quotient): cdiv, except
// that a finite numerator over a real divisor whose quotient came out with a NaN part divides
// part by part where that gives no NaN ((1 + 1e308i) / 0.5 = 2 + inf i).
template <class R>
TENFERRO_PRIMS_HD DeviceComplex<R> cquotient(DeviceComplex<R> a, DeviceComplex<R> b) {
  const DeviceComplex<R> q = cdiv(a, b);
  if (!(isnan(q.re) || isnan(q.im)) || b.im != 0 || !isfinite(a.re) || !isfinite(a.im)) return q;
  const DeviceComplex<R> parts{div_rn(a.re, b.re), div_rn(a.im, b.re)};
  return isnan(parts.re) || isnan(parts.im) ? q : parts;
}

TENFERRO_PRIMS_HD double zabs(Z z) {
  return hypot(z.re, z.im);
}

}  // namespace tenferro::cuda_kernels::prims
