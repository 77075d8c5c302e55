// Sums over strided blocks of plain elements (F32, C32) on WebGPU, in the reduction passes
// whose work per invocation is bounded (webgpu_reduction_passes.hpp): what einsum's sums over
// trailing axes and its accumulations run, and what adds GEMM's split-K partial products into C.
#pragma once

#include <cstdint>
#include <vector>

#include "backends/webgpu/webgpu_backend.hpp"
#include "backends/webgpu/webgpu_reduction_passes.hpp"
#include "tenferro/core/dtype.hpp"

namespace tenferro::webgpu_kernels {

// Output element o (a column-major index over source.outer_shape) is the sum of its block of
// the source (webgpu_reduction::Blocks), stored -- or added to what is there, when
// accumulate -- at dst_offset + o . dst_strides. The caller has checked extents, strides and
// 32-bit indices.
struct Sum {
  DType dtype = DType::F32;
  webgpu_reduction::Blocks source;
  const WebGpuBuffer* dst = nullptr;
  std::int64_t dst_offset = 0;
  std::vector<std::int64_t> dst_strides;
  bool accumulate = false;
};

// Queues the passes of `sum` on `backend` (scratch buffers of partial sums come from the
// backend like any buffer, never a transfer). A pass of more than 2^31-1 invocations or
// partial sums is Unsupported, naming `op`.
void run_sum(WebGpuBackend& backend, Sum sum, std::string_view op);

}  // namespace tenferro::webgpu_kernels
