// Device-side element types shared by every family's .cu kernels: an interleaved complex
// number (the layout of std::complex and of cuComplex), and the one switch that turns an
// Element into a kernel instantiation.
#pragma once

#include <cuda_runtime_api.h>

#include "backends/cuda/device_element.hpp"

namespace tenferro::cuda_kernels {

template <class R>
struct DeviceComplex {
  R re, im;
};

// Calls f(T{}) with the device element type of `e`.
template <class F>
cudaError_t with_element(Element e, F&& f) {
  switch (e) {
    case Element::F32: return f(float{});
    case Element::F64: return f(double{});
    case Element::C32: return f(DeviceComplex<float>{});
    case Element::C64: return f(DeviceComplex<double>{});
  }
  return cudaErrorInvalidValue;
}

}  // namespace tenferro::cuda_kernels
