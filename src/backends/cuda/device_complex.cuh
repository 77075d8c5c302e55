// Device-side element types shared by every family's .cu kernels: an interleaved complex
// number (the layout of std::complex and of cuComplex), and the one switch that turns an
// Element into a kernel instantiation.
#pragma once

// Without the CUDA headers (the host tests of the device math on a machine with no CUDA
// toolkit) only the complex type is defined.
#if __has_include(<cuda_runtime_api.h>)
#include <cuda_runtime_api.h>
#define TENFERRO_HAS_CUDA_RUNTIME_HEADERS 1
#endif

#include "backends/cuda/device_element.hpp"

namespace tenferro::cuda_kernels {

template <class R>
struct DeviceComplex {
  R re, im;
};

#ifdef TENFERRO_HAS_CUDA_RUNTIME_HEADERS
// Calls f(T{}) with the device element type of `e`.
template <class F>
cudaError_t with_element(Element e, F&& f) {
  switch (e) {
    case Element::F32:
      return f(float{});
    case Element::F64:
      return f(double{});
    case Element::C32:
      return f(DeviceComplex<float>{});
    case Element::C64:
      return f(DeviceComplex<double>{});
  }
  return cudaErrorInvalidValue;
}
#endif

}  // namespace tenferro::cuda_kernels
