// Host side of the WebGPU reductions: the passes of sum_serial / sum_tree and their scratch.
#include "ops/einsum/webgpu/webgpu_reduction.hpp"

#include <memory>
#include <span>
#include <utility>

#include "ops/einsum/webgpu/webgpu_kernel_launch.hpp"
#include "ops/einsum/webgpu/wgsl_contraction_kernels.hpp"
#include "tenferro/core/shape.hpp"

namespace tenferro::einsum_internal {
namespace {

using namespace webgpu_launch;

// Column-major strides of a compact tensor of `shape`, each multiplied by `scale`.
std::vector<std::int64_t> compact_strides(std::span<const std::int64_t> shape, std::int64_t scale) {
  std::vector<std::int64_t> strides(shape.size());
  for (std::size_t a = 0; a < shape.size(); ++a) {
    strides[a] = scale;
    scale *= shape[a];
  }
  return strides;
}

enum class Pass { Serial, Tree };

// One pass that writes chunk c of output o at dst_offset + o . dst_strides + c * chunk_stride
// (sum_serial: one invocation per output and chunk of kSerialReduceLimit; sum_tree: one
// workgroup per output and chunk of kTreeReduceChunk).
void dispatch_pass(WebGpuBackend& backend, const Reduction& r, Pass pass, std::int64_t n_chunks,
                   const WebGpuBuffer& dst, std::int64_t dst_offset,
                   std::span<const std::int64_t> dst_strides, std::int64_t chunk_stride,
                   bool accumulate) {
  const std::int64_t n_out = checked_numel(r.outer_shape);
  Params params;
  params.add(n_out)
      .add(static_cast<std::int64_t>(r.outer_shape.size()))
      .add(static_cast<std::int64_t>(r.reduced_shape.size()))
      .add(checked_numel(r.reduced_shape))
      .add(n_chunks)
      .add(r.src_offset)
      .add(dst_offset)
      .add(chunk_stride)
      .add(accumulate ? 1 : 0);
  params.add(r.outer_shape).add(r.src_outer_strides).add(dst_strides);
  params.add(r.reduced_shape).add(r.src_reduced_strides);
  const WebGpuBuffer* buffers[] = {r.src, &dst};
  const char* entry = pass == Pass::Serial ? wgsl::kSumSerialEntry : wgsl::kSumTreeEntry;
  backend.dispatch(
      backend.pipeline(wgsl::source(r.dtype, entry), entry), params.words(), buffers,
      pass == Pass::Serial ? linear_groups(n_out * n_chunks) : workgroup_grid(n_out * n_chunks));
}

}  // namespace

void run_reduction(WebGpuBackend& backend, Reduction r) {
  const std::int64_t n_out = checked_numel(r.outer_shape);
  if (n_out == 0) return;
  check_count(n_out, "sum_trailing");
  std::shared_ptr<Buffer> partials;  // the current pass's source when it is a scratch buffer
  for (;;) {
    const std::int64_t n_reduced = checked_numel(r.reduced_shape);
    check_count(n_reduced, "sum_trailing");
    if (n_reduced <= wgsl::kSerialReduceLimit) {
      dispatch_pass(backend, r, Pass::Serial, 1, *r.dst, r.dst_offset, r.dst_strides, 0,
                    r.accumulate);
      return;
    }
    // Many outputs: serial chunks keep every invocation busy; few: workgroup trees.
    Pass pass = Pass::Serial;
    std::int64_t chunks = ceil_div(n_reduced, wgsl::kSerialReduceLimit);
    if (n_out * chunks < wgsl::kSerialPassMinInvocations) {
      pass = Pass::Tree;
      chunks = ceil_div(n_reduced, wgsl::kTreeReduceChunk);
      if (chunks == 1) {
        dispatch_pass(backend, r, pass, 1, *r.dst, r.dst_offset, r.dst_strides, 0, r.accumulate);
        return;
      }
    }
    check_count(n_out * chunks, "sum_trailing");
    // Partial sums laid out the way the pass writes them: output-fastest from sum_serial
    // (neighbouring invocations, neighbouring outputs), chunk-fastest from sum_tree (one
    // workgroup's chunks are then contiguous for a following tree pass).
    std::shared_ptr<Buffer> next =
        backend.allocate(static_cast<std::size_t>(n_out * chunks) * dtype_size(r.dtype));
    const WebGpuBuffer& next_buffer = WebGpuBackend::buffer_of(*next, "einsum.webgpu.sum_trailing");
    const bool serial = pass == Pass::Serial;
    std::vector<std::int64_t> next_strides = compact_strides(r.outer_shape, serial ? 1 : chunks);
    const std::int64_t chunk_stride = serial ? n_out : 1;
    dispatch_pass(backend, r, pass, chunks, next_buffer, 0, next_strides, chunk_stride, false);
    // wgpu-native keeps a released buffer alive until the work queued on it has run.
    partials = std::move(next);
    r.src = &next_buffer;
    r.src_offset = 0;
    r.src_outer_strides = std::move(next_strides);
    r.reduced_shape = {chunks};
    r.src_reduced_strides = {chunk_stride};
  }
}

}  // namespace tenferro::einsum_internal
