// Host side of the WebGPU element-wise kernel: checks the operands, merges axes, packs the
// parameter block (wgsl_prims_sources.cpp documents it) and dispatches one invocation per
// output element.
#include <array>
#include <span>
#include <vector>

#include "ops/prims/webgpu/webgpu_prims_kernels.hpp"
#include "ops/prims/webgpu/webgpu_prims_launch.hpp"
#include "ops/prims/webgpu/wgsl_prims_sources.hpp"
#include "tenferro/runtime/extension.hpp"

namespace tenferro::prims_webgpu {

using prims_internal::ElementwiseCall;
using prims_internal::PrimKind;

void elementwise(const ExecutionContext& ctx, const ElementwiseCall& call) {
  const PrimKind kind = call.kind;
  const int arity = call.arity;
  if (arity != prims_internal::info(kind).arity || arity < 1 || arity > 3) {
    fail(ErrorKind::RuntimeState, kind, "a call with the wrong number of operands");
  }
  const TensorLayout& out = call.out.layout;
  const WebGpuBuffer& out_buffer = checked_buffer(call.out, kind, "the output");
  std::array<const WebGpuBuffer*, 4> buffers{};
  for (int i = 0; i < arity; ++i) {
    const auto& in = call.in[static_cast<std::size_t>(i)];
    buffers[static_cast<std::size_t>(i)] = &checked_buffer(in, kind,
                                                           i == 0   ? "operand 0"
                                                           : i == 1 ? "operand 1"
                                                                    : "operand 2");
    if (in.layout.shape != out.shape) {
      fail(ErrorKind::RuntimeState, kind, "an operand not broadcast to the output's shape");
    }
    // WebGPU forbids one buffer bound read-only and writable in one dispatch; the executor
    // always writes a fresh output, so this is a wiring defect, never user input.
    if (buffers[static_cast<std::size_t>(i)] == &out_buffer) {
      fail(ErrorKind::RuntimeState, kind, "an operand shares its buffer with the output");
    }
  }
  buffers[static_cast<std::size_t>(arity)] = &out_buffer;
  const std::int64_t n = out.numel();
  if (n == 0) return;

  // Unused operand slots repeat operand 0 (merging axes for it changes nothing).
  const std::span<const std::int64_t> strides[4] = {out.strides, call.in[0].layout.strides,
                                                    call.in[arity >= 2 ? 1 : 0].layout.strides,
                                                    call.in[arity == 3 ? 2 : 0].layout.strides};
  const Loop loop = merge_axes(out.shape, strides);
  const auto rank = static_cast<std::int64_t>(loop.shape.size());
  const std::complex<double> alpha = call.alpha, beta = call.beta;
  std::int32_t flags = 0;
  if (beta != 0.0) flags |= wgsl::kFlagBetaNonzero;
  if (alpha.imag() == 0.0) flags |= wgsl::kFlagAlphaReal;
  if (beta.imag() == 0.0) flags |= wgsl::kFlagBetaReal;
  Params params;
  params.i32(n).i32(rank).i32(out.offset).i32(call.in[0].layout.offset);
  params.i32(arity >= 2 ? call.in[1].layout.offset : 0);
  params.f32(static_cast<float>(alpha.real())).f32(static_cast<float>(alpha.imag()));
  params.f32(static_cast<float>(beta.real())).f32(static_cast<float>(beta.imag()));
  params.i32(flags);
  params.i32(loop.shape).i32(loop.strides[0]).i32(loop.strides[1]).i32(loop.strides[2]);
  if (arity == 3) params.i32(loop.strides[3]).i32(call.in[2].layout.offset);

  auto& backend = ctx.backend_as<WebGpuBackend>();
  const std::string& source = wgsl::elementwise_source(kind, call.in[0].layout.dtype, out.dtype);
  backend.dispatch(backend.pipeline(source, wgsl::kElementwiseEntry), params.words(),
                   std::span(buffers.data(), static_cast<std::size_t>(arity) + 1),
                   linear_groups(n));
}

}  // namespace tenferro::prims_webgpu
