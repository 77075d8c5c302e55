// Host side of the WebGPU reductions: splits the input's axes into kept (outer) and reduced
// ones and queues passes with a bounded amount of work per invocation, as einsum's
// run_reduction does (ops/einsum/webgpu/webgpu_reduction.cpp): a short reduction
// (<= kSerialChunk) in one serial pass; a longer one in passes that shrink it into scratch
// buffers of accumulators -- serial chunks of kSerialChunk when the pass has enough
// invocations, workgroup trees over kTreeChunk otherwise -- until the pass that writes the
// output. Scratch buffers come from the backend like any buffer; nothing leaves the device.
#include <memory>
#include <span>
#include <utility>
#include <vector>

#include "ops/prims/webgpu/webgpu_prims_kernels.hpp"
#include "ops/prims/webgpu/webgpu_prims_launch.hpp"
#include "ops/prims/webgpu/wgsl_prims_sources.hpp"
#include "tenferro/runtime/extension.hpp"

namespace tenferro::prims_webgpu {
namespace {

using prims_internal::PrimKind;
using prims_internal::ReduceCall;

std::int64_t ceil_div(std::int64_t a, std::int64_t b) {
  return (a + b - 1) / b;
}

std::vector<std::int64_t> compact_strides(std::span<const std::int64_t> shape, std::int64_t scale) {
  std::vector<std::int64_t> strides(shape.size());
  for (std::size_t a = 0; a < shape.size(); ++a) {
    strides[a] = scale;
    scale *= shape[a];
  }
  return strides;
}

// The state of a reduction between passes: output element o (column-major over outer_shape)
// folds the block reduced_shape at src_offset + o . src_outer_strides.
struct Plan {
  PrimKind kind{};
  DType dtype = DType::F32;
  std::int64_t count = 0;  // reduced elements of the whole reduction (for the mean)
  const WebGpuBuffer* src = nullptr;
  bool from_input = true;  // src holds input elements (else accumulators of a pass)
  std::int64_t src_offset = 0;
  std::vector<std::int64_t> outer_shape, src_outer_strides, reduced_shape, src_reduced_strides;
};

enum class Pass { Serial, Tree };

void dispatch_pass(WebGpuBackend& backend, const Plan& r, Pass pass, std::int64_t chunks,
                   const WebGpuBuffer& dst, std::int64_t dst_offset,
                   std::span<const std::int64_t> dst_strides, std::int64_t chunk_stride,
                   bool to_output) {
  const std::int64_t n_out = checked_numel(r.outer_shape);
  Params params;
  params.i32(n_out)
      .i32(static_cast<std::int64_t>(r.outer_shape.size()))
      .i32(static_cast<std::int64_t>(r.reduced_shape.size()))
      .i32(checked_numel(r.reduced_shape))
      .i32(chunks)
      .i32(r.src_offset)
      .i32(dst_offset)
      .i32(chunk_stride)
      .f32(static_cast<float>(r.count));
  params.i32(r.outer_shape).i32(r.src_outer_strides).i32(dst_strides);
  params.i32(r.reduced_shape).i32(r.src_reduced_strides);
  const WebGpuBuffer* buffers[] = {r.src, &dst};
  const char* entry = pass == Pass::Serial ? wgsl::kReduceSerialEntry : wgsl::kReduceTreeEntry;
  const std::string& source = wgsl::reduce_source(r.kind, r.dtype, r.from_input, to_output);
  backend.dispatch(
      backend.pipeline(source, entry), params.words(), buffers,
      pass == Pass::Serial ? linear_groups(n_out * chunks) : workgroup_grid(n_out * chunks));
}

void run_passes(WebGpuBackend& backend, Plan r, const WebGpuBuffer& out, std::int64_t out_offset,
                const std::vector<std::int64_t>& out_strides) {
  const std::int64_t n_out = checked_numel(r.outer_shape);
  const std::size_t acc_bytes = wgsl::reduce_accumulator_bytes(r.kind, r.dtype);
  std::shared_ptr<Buffer> scratch;  // the current pass's source when it is not the input
  for (;;) {
    const std::int64_t n_reduced = checked_numel(r.reduced_shape);
    if (n_reduced <= wgsl::kSerialChunk) {
      dispatch_pass(backend, r, Pass::Serial, 1, out, out_offset, out_strides, 0, true);
      return;
    }
    // Many outputs: serial chunks keep every invocation busy; few: workgroup trees.
    Pass pass = Pass::Serial;
    std::int64_t chunks = ceil_div(n_reduced, wgsl::kSerialChunk);
    if (n_out * chunks < wgsl::kSerialPassMinInvocations) {
      pass = Pass::Tree;
      chunks = ceil_div(n_reduced, wgsl::kTreeChunk);
      if (chunks == 1) {
        dispatch_pass(backend, r, pass, 1, out, out_offset, out_strides, 0, true);
        return;
      }
    }
    check_count(n_out * chunks, r.kind, "partial results of one reduction pass");
    // Accumulators laid out the way the pass writes them: output-fastest from a serial pass
    // (neighbouring invocations, neighbouring outputs), chunk-fastest from a tree pass (one
    // output's chunks contiguous for the next tree).
    std::shared_ptr<Buffer> next =
        backend.allocate(static_cast<std::size_t>(n_out * chunks) * acc_bytes);
    const WebGpuBuffer& next_buffer = WebGpuBackend::buffer_of(*next, "prims.reduce");
    const bool serial = pass == Pass::Serial;
    std::vector<std::int64_t> next_strides = compact_strides(r.outer_shape, serial ? 1 : chunks);
    const std::int64_t chunk_stride = serial ? n_out : 1;
    dispatch_pass(backend, r, pass, chunks, next_buffer, 0, next_strides, chunk_stride, false);
    // wgpu-native keeps a released buffer alive until the work queued on it has run.
    scratch = std::move(next);
    r.src = &next_buffer;
    r.from_input = false;
    r.src_offset = 0;
    r.src_outer_strides = std::move(next_strides);
    r.reduced_shape = {chunks};
    r.src_reduced_strides = {chunk_stride};
  }
}

}  // namespace

void reduce(const ExecutionContext& ctx, const ReduceCall& call) {
  const PrimKind kind = call.kind;
  const TensorLayout& in = call.in.layout;
  const TensorLayout& out = call.out.layout;
  const WebGpuBuffer& in_buffer = checked_buffer(call.in, kind, "the input");
  const WebGpuBuffer& out_buffer = checked_buffer(call.out, kind, "the output");
  if (&in_buffer == &out_buffer) {
    fail(ErrorKind::RuntimeState, kind, "the input shares its buffer with the output");
  }
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

  Plan r;
  r.kind = kind;
  r.dtype = in.dtype;
  r.count = checked_numel(red_shape);
  r.src = &in_buffer;
  r.src_offset = in.offset;
  r.outer_shape = std::move(outer.shape);
  r.src_outer_strides = std::move(outer.strides[0]);
  r.reduced_shape = std::move(reduced.shape);
  r.src_reduced_strides = std::move(reduced.strides[0]);
  run_passes(ctx.backend_as<WebGpuBackend>(), std::move(r), out_buffer, out.offset,
             outer.strides[1]);
}

}  // namespace tenferro::prims_webgpu
