// Host side of the WebGPU reductions: the passes of sum_serial / sum_tree and their scratch.
#include "ops/einsum/webgpu/webgpu_reduction.hpp"

#include <utility>

#include "ops/einsum/webgpu/webgpu_kernel_launch.hpp"
#include "ops/einsum/webgpu/wgsl_contraction_kernels.hpp"
#include "tenferro/core/shape.hpp"

namespace tenferro::einsum_internal {

void run_reduction(WebGpuBackend& backend, Reduction r) {
  const DType dtype = r.dtype;
  const bool accumulate = r.accumulate;
  // Word 8 of the parameter block: whether the pass adds into its destination (GEMM's split-K
  // rounds add into C); only the final pass may.
  const auto dispatch = [&](const webgpu_reduction::Blocks& b, webgpu_reduction::Pass pass,
                            const webgpu_reduction::Target& t) {
    const bool serial = pass == webgpu_reduction::Pass::Serial;
    const char* entry = serial ? wgsl::kSumSerialEntry : wgsl::kSumTreeEntry;
    const webgpu_launch::Params params =
        webgpu_reduction::reduction_params(b, t, t.final && accumulate ? 1u : 0u);
    const WebGpuBuffer* buffers[] = {b.src, t.dst};
    backend.dispatch(backend.pipeline(wgsl::source(dtype, entry), entry), params.words(), buffers,
                     webgpu_reduction::pass_groups(b, pass, t.chunks));
  };
  webgpu_reduction::run_passes(
      backend, std::move(r.source), *r.dst, r.dst_offset, r.dst_strides, dtype_size(dtype),
      dispatch, [](std::int64_t n) { webgpu_launch::check_count(n, "sum_trailing"); });
}

}  // namespace tenferro::einsum_internal
