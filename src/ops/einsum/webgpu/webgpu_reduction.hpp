// Sums over strided blocks on WebGPU in passes whose work per invocation is bounded (see the
// design note in wgsl_contraction_kernels.cpp): what sum_trailing runs, and what adds GEMM's
// split-K partial products into C.
#pragma once

#include <cstdint>
#include <vector>

#include "backends/webgpu/webgpu_backend.hpp"
#include "backends/webgpu/webgpu_reduction_passes.hpp"
#include "tenferro/core/dtype.hpp"

namespace tenferro::einsum_internal {

// Output element o (a column-major index over source.outer_shape) is the sum of its block of
// the source (webgpu_reduction::Blocks), stored -- or added to what is there, when
// accumulate -- at dst_offset + o . dst_strides. The caller has checked extents, strides and
// 32-bit indices.
struct Reduction {
  DType dtype = DType::F32;
  webgpu_reduction::Blocks source;
  const WebGpuBuffer* dst = nullptr;
  std::int64_t dst_offset = 0;
  std::vector<std::int64_t> dst_strides;
  bool accumulate = false;
};

// Queues the passes of `r` on `backend`, each with a bounded amount of work per invocation:
// a short block (<= kSerialReduceChunk) in one sum_serial pass; a longer one in passes that
// shrink it into a scratch buffer of partial sums (allocated from the backend like any
// buffer, never a transfer) -- sum_serial chunks of kSerialReduceChunk when the pass has
// kSerialPassMinInvocations or more, else sum_tree chunks of kTreeReduceChunk -- until the
// pass that writes the destination.
void run_reduction(WebGpuBackend& backend, Reduction r);

}  // namespace tenferro::einsum_internal
