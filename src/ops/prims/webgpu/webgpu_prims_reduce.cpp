// Host side of the WebGPU prims reductions: splits the input's axes into kept (outer) and
// reduced ones, then runs the backend layer's passes (backends/webgpu/webgpu_reduction_passes.hpp,
// also under einsum's sums) with the kernel of the op.
#include <bit>
#include <utility>
#include <vector>

#include "backends/webgpu/webgpu_reduction_passes.hpp"
#include "ops/prims/webgpu/webgpu_prims_kernels.hpp"
#include "ops/prims/webgpu/webgpu_prims_launch.hpp"
#include "ops/prims/webgpu/wgsl_prims_sources.hpp"
#include "tenferro/runtime/extension.hpp"

namespace tenferro::prims_webgpu {
namespace {

using prims_internal::PrimKind;
using prims_internal::ReduceCall;

// The prims side of a reduction pass (the passes themselves are the backend layer's): the
// kernel of `kind` that reads the input or an earlier pass's accumulators and writes final
// values or accumulators; word 8 of its parameters is the element count of the whole
// reduction, in f32 bits (for the mean).
void dispatch_pass(WebGpuBackend& backend, PrimKind kind, DType dtype, std::int64_t count,
                   const webgpu_reduction::Blocks& b, webgpu_reduction::Pass pass,
                   const webgpu_reduction::Target& t) {
  const Params params = webgpu_reduction::reduction_params(
      b, t, std::bit_cast<std::uint32_t>(static_cast<float>(count)));
  const WebGpuBuffer* buffers[] = {b.src, t.dst};
  const bool serial = pass == webgpu_reduction::Pass::Serial;
  const char* entry = serial ? wgsl::kReduceSerialEntry : wgsl::kReduceTreeEntry;
  const std::string& source = wgsl::reduce_source(kind, dtype, b.from_input, t.final);
  backend.dispatch(backend.pipeline(source, entry), params.words(), buffers,
                   webgpu_reduction::pass_groups(b, pass, t.chunks));
}

}  // namespace

void reduce(const ExecutionContext& ctx, const ReduceCall& call) {
  const PrimKind kind = call.kind;
  const TensorLayout& in = call.in.layout;
  const TensorLayout& out = call.out.layout;
  const auto [in_buffer, out_buffer] = checked_in_out(call.in, call.out, kind);
  if (out.shape.size() != in.shape.size() || in.shape.size() > call.reduced.size()) {
    fail(ErrorKind::RuntimeState, kind, "an output whose rank is not the input's");
  }
  // Kept axes walk outputs (input and output strides), reduced axes one output's block.
  std::vector<std::int64_t> kept_shape, kept_in, kept_out, red_shape, red_in;
  for (std::size_t a = 0; a < in.shape.size(); ++a) {
    if (call.reduced[a] != 0) {
      red_shape.push_back(in.shape[a]);
      red_in.push_back(in.strides[a]);
    } else {
      kept_shape.push_back(in.shape[a]);
      kept_in.push_back(in.strides[a]);
      kept_out.push_back(out.strides[a]);
    }
  }
  const std::span<const std::int64_t> kept_strides[2] = {kept_in, kept_out};
  const std::span<const std::int64_t> red_strides[1] = {red_in};
  Loop outer = merge_axes(kept_shape, kept_strides);
  Loop reduced = merge_axes(red_shape, red_strides);
  if (checked_numel(outer.shape) == 0) return;

  webgpu_reduction::Blocks blocks;
  blocks.src = &in_buffer;
  blocks.src_offset = in.offset;
  blocks.outer_shape = std::move(outer.shape);
  blocks.src_outer_strides = std::move(outer.strides[0]);
  blocks.reduced_shape = std::move(reduced.shape);
  blocks.src_reduced_strides = std::move(reduced.strides[0]);
  const DType dtype = in.dtype;
  const std::int64_t count = checked_numel(red_shape);
  WebGpuBackend& backend = ctx.backend_as<WebGpuBackend>();
  webgpu_reduction::run_passes(
      backend, std::move(blocks), out_buffer, out.offset, outer.strides[1],
      wgsl::reduce_accumulator_bytes(kind, dtype),
      [&](const webgpu_reduction::Blocks& b, webgpu_reduction::Pass pass,
          const webgpu_reduction::Target& t) {
        dispatch_pass(backend, kind, dtype, count, b, pass, t);
      },
      [kind](std::int64_t n) { check_count(n, kind, "partial results of one reduction pass"); });
}

}  // namespace tenferro::prims_webgpu
