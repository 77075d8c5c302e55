// The arithmetic the prims CUDA kernels share, host-callable too (so that the host tests can
// check the math built on it against std::complex without a device):
//  - the round-to-nearest operations (add_rn .. div_rn), which nvcc never contracts into FMAs,
//    so that the kernels round exactly like the CPU kernels (x86-64 without FMA);
//  - complex arithmetic in the operand's own precision (cadd, csub, cmul: as std::complex<R>);
//  - complex arithmetic in double precision (Z: zmul, zdiv, zabs), and widen / narrow between
//    an operand and Z. C32 values are widened, computed in double and rounded once, which is
//    at least as accurate as the CPU's float arithmetic.
// The math of each unary op is in unary_math.cuh.
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
template <class R>
TENFERRO_PRIMS_HD DeviceComplex<R> cmul(DeviceComplex<R> a, DeviceComplex<R> b) {
  return {sub_rn(mul_rn(a.re, b.re), mul_rn(a.im, b.im)),
          add_rn(mul_rn(a.re, b.im), mul_rn(a.im, b.re))};
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

}  // namespace tenferro::cuda_kernels::prims
