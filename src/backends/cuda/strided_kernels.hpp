// Element-wise CUDA kernels over strided views, shared by einsum's CUDA contraction kernels
// (and usable by other families). Plain data in, launched on the caller's stream; the caller
// checks the returned status with cuda_check. Views are given in elements, axis 0 fastest;
// callers coalesce axes first (see strided_layout.hpp) so the rank stays small.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "backends/cuda/device_element.hpp"

namespace tenferro::cuda_kernels {

inline constexpr int kMaxRank = 24;

// `rank` axes of extents `extent`, one stride set per operand (element units, may be 0).
template <int N>
struct StridedIndex {
  int rank = 0;
  std::int64_t extent[kMaxRank] = {};
  std::int64_t stride[N][kMaxRank] = {};
};

// dst = src over the view (permutes, diagonals, broadcasts); by element size (4, 8, 16).
cudaError_t launch_copy(int element_bytes, void* dst, const void* src, const StridedIndex<2>& ix,
                        std::int64_t count, cudaStream_t stream);
// dst = 0 over the view; by element size.
cudaError_t launch_fill_zero(int element_bytes, void* dst, const StridedIndex<1>& ix,
                             std::int64_t count, cudaStream_t stream);
// dst = a * b over the view (operands 0 = dst, 1 = a, 2 = b).
cudaError_t launch_multiply(Element element, void* dst, const void* a, const void* b,
                            const StridedIndex<3>& ix, std::int64_t count, cudaStream_t stream);
// dst += src over the view (operands 0 = dst, 1 = src): sums the slices of a sliced einsum.
cudaError_t launch_accumulate(Element element, void* dst, const void* src,
                              const StridedIndex<2>& ix, std::int64_t count, cudaStream_t stream);
// dst[i] = sum_j src[i, j], accumulated in double (float) or complex<double> (complex<float>):
// `kept` indexes dst (operand 0) and src (operand 1) over the kept
// axes, `reduced` indexes src over the summed axes (operand 0 unused).
cudaError_t launch_sum(Element element, void* dst, const void* src, const StridedIndex<2>& kept,
                       std::int64_t kept_count, const StridedIndex<1>& reduced,
                       std::int64_t reduced_count, cudaStream_t stream);

}  // namespace tenferro::cuda_kernels
