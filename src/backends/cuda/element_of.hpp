// Host side: the device kernel element type of a DType.
#pragma once

#include "backends/cuda/device_element.hpp"
#include "tenferro/core/dtype.hpp"

namespace tenferro::cuda_kernels {

constexpr Element element_of(DType d) {
  switch (d) {
    case DType::F32:
      return Element::F32;
    case DType::F64:
      return Element::F64;
    case DType::C32:
      return Element::C32;
    case DType::C64:
      break;
  }
  return Element::C64;
}

}  // namespace tenferro::cuda_kernels
