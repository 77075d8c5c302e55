// Host side of the WebGPU element-wise prims: checks the operands and hands them, with the op's
// module and scalars, to the backend layer's strided map (backends/webgpu/webgpu_strided_map).
#include <array>
#include <bit>
#include <span>

#include "backends/webgpu/webgpu_strided_map.hpp"
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
  std::array<webgpu_map::Operand, webgpu_map::kMaxArity> inputs{};
  for (int i = 0; i < arity; ++i) {
    const auto& in = call.in[static_cast<std::size_t>(i)];
    const char* name = i == 0 ? "operand 0" : i == 1 ? "operand 1" : "operand 2";
    inputs[static_cast<std::size_t>(i)] = {&checked_buffer(in, kind, name), in.layout.offset,
                                           in.layout.strides};
    if (in.layout.shape != out.shape) {
      fail(ErrorKind::RuntimeState, kind, "an operand not broadcast to the output's shape");
    }
    // WebGPU forbids one buffer bound read-only and writable in one dispatch; the executor
    // always writes a fresh output, so this is a wiring defect, never user input.
    if (inputs[static_cast<std::size_t>(i)].buffer == &out_buffer) {
      fail(ErrorKind::RuntimeState, kind, "an operand shares its buffer with the output");
    }
  }
  if (out.numel() == 0) return;

  const std::complex<double> alpha = call.alpha, beta = call.beta;
  std::int32_t flags = 0;
  if (prims_internal::adds_beta(beta)) flags |= wgsl::kFlagAddBeta;
  if (alpha.imag() == 0.0) flags |= wgsl::kFlagAlphaReal;
  if (beta.imag() == 0.0) flags |= wgsl::kFlagBetaReal;
  const auto bits = [](double x) { return std::bit_cast<std::uint32_t>(static_cast<float>(x)); };
  const std::uint32_t words[] = {bits(alpha.real()), bits(alpha.imag()), bits(beta.real()),
                                 bits(beta.imag()), static_cast<std::uint32_t>(flags)};
  webgpu_map::dispatch(ctx.backend_as<WebGpuBackend>(),
                       wgsl::elementwise_source(kind, call.in[0].layout.dtype, out.dtype),
                       out.shape, {&out_buffer, out.offset, out.strides},
                       std::span(inputs.data(), static_cast<std::size_t>(arity)), words);
}

}  // namespace tenferro::prims_webgpu
