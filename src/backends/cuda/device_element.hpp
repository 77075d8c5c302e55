// The element types of device kernels. Included by .cu files (compiled as C++17), so it
// names no host-side type; element_of.hpp maps a DType onto it for host code.
#pragma once

namespace tenferro::cuda_kernels {

enum class Element : int { F32, F64, C32, C64 };

}  // namespace tenferro::cuda_kernels
