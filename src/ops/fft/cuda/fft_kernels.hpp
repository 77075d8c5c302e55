// The one kernel the cuFFT executor needs beyond copies: real -> complex promotion over a
// strided view (the imaginary part set to zero), for complex transforms of real input.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "backends/cuda/strided_kernels.hpp"

namespace tenferro::cuda_kernels {

// dst (complex of the same precision, operand 0) = src (real, operand 1) + 0i over the view.
cudaError_t launch_real_to_complex(bool double_precision, void* dst, const void* src,
                                   const StridedIndex<2>& ix, std::int64_t count,
                                   cudaStream_t stream);

}  // namespace tenferro::cuda_kernels
