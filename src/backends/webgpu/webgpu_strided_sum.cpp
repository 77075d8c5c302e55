#include "backends/webgpu/webgpu_strided_sum.hpp"

#include <string>
#include <utility>

#include "backends/webgpu/webgpu_launch.hpp"
#include "backends/webgpu/wgsl_strided_kernels.hpp"
#include "tenferro/core/error.hpp"

namespace tenferro::webgpu_kernels {

void run_sum(WebGpuBackend& backend, Sum sum, std::string_view op) {
  const DType dtype = sum.dtype;
  const bool accumulate = sum.accumulate;
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
  const auto check_count = [&](std::int64_t n) { webgpu_launch::check_count(n, op); };
  webgpu_reduction::run_passes(backend, std::move(sum.source), *sum.dst, sum.dst_offset,
                               sum.dst_strides, dtype_size(dtype), dispatch, check_count);
}

}  // namespace tenferro::webgpu_kernels
