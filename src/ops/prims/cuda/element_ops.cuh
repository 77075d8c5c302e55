// Element types and arithmetic shared by the prims .cu files. Additions and products use the
// round-to-nearest intrinsics, which nvcc never contracts into FMAs, so add/sub/mul/scale/axpby
// round exactly like the CPU kernels (x86-64 without FMA) and their results are bit-identical.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <type_traits>

#include "backends/cuda/device_complex.cuh"
#include "backends/cuda/kernel_grid.cuh"
#include "ops/prims/cuda/complex_math.cuh"
#include "ops/prims/cuda/prims_launch.hpp"

namespace tenferro::cuda_kernels::prims {

template <class T>
struct Traits;
template <>
struct Traits<float> {
  static constexpr bool kComplex = false;
  static constexpr Element kElement = Element::F32;
  using Real = float;
};
template <>
struct Traits<double> {
  static constexpr bool kComplex = false;
  static constexpr Element kElement = Element::F64;
  using Real = double;
};
template <>
struct Traits<DeviceComplex<float>> {
  static constexpr bool kComplex = true;
  static constexpr Element kElement = Element::C32;
  using Real = float;
};
template <>
struct Traits<DeviceComplex<double>> {
  static constexpr bool kComplex = true;
  static constexpr Element kElement = Element::C64;
  using Real = double;
};
template <class T>
inline constexpr bool kIsComplex = Traits<T>::kComplex;
template <class T>
inline constexpr Element kElementOf = Traits<T>::kElement;
template <class T>
using RealOf = typename Traits<T>::Real;

__device__ __forceinline__ float add_rn(float a, float b) {
  return __fadd_rn(a, b);
}
__device__ __forceinline__ double add_rn(double a, double b) {
  return __dadd_rn(a, b);
}
__device__ __forceinline__ float sub_rn(float a, float b) {
  return __fsub_rn(a, b);
}
__device__ __forceinline__ double sub_rn(double a, double b) {
  return __dsub_rn(a, b);
}
__device__ __forceinline__ float mul_rn(float a, float b) {
  return __fmul_rn(a, b);
}
__device__ __forceinline__ double mul_rn(double a, double b) {
  return __dmul_rn(a, b);
}
__device__ __forceinline__ float div_rn(float a, float b) {
  return __fdiv_rn(a, b);
}
__device__ __forceinline__ double div_rn(double a, double b) {
  return __ddiv_rn(a, b);
}

// Complex arithmetic in the operand's own precision (as std::complex<R> on the CPU).
template <class R>
__device__ __forceinline__ DeviceComplex<R> cadd(DeviceComplex<R> a, DeviceComplex<R> b) {
  return {add_rn(a.re, b.re), add_rn(a.im, b.im)};
}
template <class R>
__device__ __forceinline__ DeviceComplex<R> csub(DeviceComplex<R> a, DeviceComplex<R> b) {
  return {sub_rn(a.re, b.re), sub_rn(a.im, b.im)};
}
template <class R>
__device__ __forceinline__ DeviceComplex<R> cmul(DeviceComplex<R> a, DeviceComplex<R> b) {
  return {sub_rn(mul_rn(a.re, b.re), mul_rn(a.im, b.im)),
          add_rn(mul_rn(a.re, b.im), mul_rn(a.im, b.re))};
}

// A complex value widened to double precision and rounded back.
template <class R>
__device__ __forceinline__ Z widen(DeviceComplex<R> z) {
  return {static_cast<double>(z.re), static_cast<double>(z.im)};
}
template <class R>
__device__ __forceinline__ DeviceComplex<R> narrow(Z z) {
  return {static_cast<R>(z.re), static_cast<R>(z.im)};
}

// alpha * x with alpha given in double precision, as the CPU's scale_by: a real alpha scales
// each part (1 * (inf + 0i) stays inf + 0i), a complex one multiplies as complex numbers.
template <class T>
__device__ __forceinline__ T scale_by(double alpha_re, double alpha_im, T x) {
  if constexpr (kIsComplex<T>) {
    using R = RealOf<T>;
    const R ar = static_cast<R>(alpha_re);
    if (alpha_im == 0.0) return {mul_rn(x.re, ar), mul_rn(x.im, ar)};
    return cmul(x, T{ar, static_cast<R>(alpha_im)});
  } else {
    return mul_rn(x, static_cast<T>(alpha_re));
  }
}

template <class T>
__device__ __forceinline__ T plus(T a, T b) {
  if constexpr (kIsComplex<T>) {
    return cadd(a, b);
  } else {
    return add_rn(a, b);
  }
}

// The grid of a grid-stride element-wise kernel over `count` elements.
inline unsigned elementwise_blocks(std::int64_t count) {
  return grid_blocks_for(count);
}

}  // namespace tenferro::cuda_kernels::prims
