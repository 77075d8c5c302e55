// Batched GEMM on WebGPU, C[b] = A[b] B[b] with every operand strided (F32, C32): 64 x 64
// tiles per workgroup, split-K over scratch buffers of partial products when K is long, and
// one workgroup tree per element of C when C is small and K long (dot products). What einsum's
// contractions run; any family that multiplies matrices on WebGPU takes it from here.
#pragma once

#include <cstddef>
#include <cstdint>

#include "backends/webgpu/webgpu_backend.hpp"
#include "tenferro/core/dtype.hpp"

namespace tenferro::webgpu_kernels {

struct GemmProblem {
  DType dtype = DType::F32;
  std::int64_t m = 0, n = 0, k = 0, batch = 1;
  const WebGpuBuffer* a = nullptr;
  std::int64_t a_offset = 0, a_stride_m = 0, a_stride_k = 0, a_stride_batch = 0;
  const WebGpuBuffer* b = nullptr;
  std::int64_t b_offset = 0, b_stride_k = 0, b_stride_n = 0, b_stride_batch = 0;
  const WebGpuBuffer* c = nullptr;
  std::int64_t c_offset = 0, c_stride_m = 0, c_stride_n = 0, c_stride_batch = 0;
};

// Most scratch memory one GEMM uses for split-K partial products by default (also capped by
// one storage binding); beyond it the splits run in rounds.
inline constexpr std::size_t kDefaultGemmScratchBytes = std::size_t{256} << 20;

// Queues C = A B. The caller has checked the dtype, non-negative extents and that every
// operand lies inside its buffer; A or B may alias C (read from a device copy). Unsupported
// (naming `op`) when the product exceeds the dispatch limits or WGSL's 32-bit indices.
void gemm(WebGpuBackend& backend, const GemmProblem& problem, std::size_t scratch_budget_bytes,
          std::string_view op);

}  // namespace tenferro::webgpu_kernels
