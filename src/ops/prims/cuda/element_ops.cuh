// Element types and arithmetic shared by the prims .cu files. Additions and products use the
// round-to-nearest operations of complex_math.cuh, which nvcc never contracts into FMAs, so
// add/sub/mul/scale/axpby round exactly like the CPU kernels (x86-64 without FMA) and their
// results are bit-identical.
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
