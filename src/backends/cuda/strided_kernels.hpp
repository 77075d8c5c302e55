// Element-wise CUDA kernels over strided views, shared by einsum's CUDA contraction kernels
// (and usable by other families). Plain data in, launched on the caller's stream; the caller
// checks the returned status with cuda_check. Views are given in elements, axis 0 fastest;
// callers coalesce axes first (see strided_layout.hpp) so the rank stays small.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "backends/cuda/device_element.hpp"

namespace tenferro::cuda_kernels {

// 64 axes always suffice, as for the prims kernels (prims_index.hpp): after dropping extent-1
// axes every axis has extent >= 2, and no tensor has 2^64 elements. (24 refused views that the
// CPU takes: a 25-qubit state permuted.)
inline constexpr int kMaxRank = 64;

// `rank` axes of extents `extent`, one stride set per operand (element units, may be 0).
template <int N>
struct StridedIndex {
  int rank = 0;
  std::int64_t extent[kMaxRank] = {};
  std::int64_t stride[N][kMaxRank] = {};
};

// The kernels take their StridedIndex by value: their parameters must fit in 4 KB (the limit
// before Volta and CUDA 12.1). The largest lists: the sums' two pointers, kept and reduced
// indexes and two counts (strided_kernels.cu); the multiply's three pointers, index and count.
static_assert(2 * sizeof(void*) + sizeof(StridedIndex<2>) + sizeof(StridedIndex<1>) +
                      2 * sizeof(std::int64_t) <=
                  4096,
              "launch_sum's kernel parameters exceed 4 KB");
static_assert(3 * sizeof(void*) + sizeof(StridedIndex<3>) + sizeof(std::int64_t) <= 4096,
              "launch_multiply's kernel parameters exceed 4 KB");

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
