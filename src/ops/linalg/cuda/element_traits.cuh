// Device arithmetic of the linalg kernels written once for float, double and the interleaved
// complex types: finiteness, conjugate, modulus, products and the constants.
#pragma once

#include "backends/cuda/device_complex.cuh"

namespace tenferro::cuda_kernels {

template <class T>
struct Traits {
  using Real = T;
  __device__ static bool finite(T x) { return isfinite(x); }
  __device__ static T conj(T x) { return x; }
  __device__ static Real abs(T x) { return x < 0 ? -x : x; }
  __device__ static T mul(T a, T b) { return a * b; }
  __device__ static T div_real(T a, Real r) { return a / r; }
  __device__ static T from_real(Real r) { return r; }
  __device__ static T zero() { return T(0); }
  __device__ static T one() { return T(1); }
};
template <class R>
struct Traits<DeviceComplex<R>> {
  using Real = R;
  using T = DeviceComplex<R>;
  __device__ static bool finite(T x) { return isfinite(x.re) && isfinite(x.im); }
  __device__ static T conj(T x) { return {x.re, -x.im}; }
  __device__ static Real abs(T x) { return hypot(x.re, x.im); }
  __device__ static T mul(T a, T b) {
    return {a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re};
  }
  __device__ static T div_real(T a, Real r) { return {a.re / r, a.im / r}; }
  __device__ static T from_real(Real r) { return {r, R(0)}; }
  __device__ static T zero() { return {R(0), R(0)}; }
  __device__ static T one() { return {R(1), R(0)}; }
};

}  // namespace tenferro::cuda_kernels
