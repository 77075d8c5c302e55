// Host side of the WebGPU creation kernel: fill, identity, ranges and Philox random numbers.
// Scalars are rounded to f32 here exactly as the CPU kernel rounds them (uniform: low and
// high - low in float; normal: stddev / sqrt 2 in float), so that the device computes the same
// expression from the same words.
#include <algorithm>
#include <cmath>
#include <numbers>
#include <span>

#include "ops/prims/webgpu/webgpu_prims_kernels.hpp"
#include "ops/prims/webgpu/webgpu_prims_launch.hpp"
#include "ops/prims/webgpu/wgsl_prims_sources.hpp"
#include "tenferro/runtime/extension.hpp"

namespace tenferro::prims_webgpu {

using prims_internal::GenerateCall;
using prims_internal::PrimKind;

void generate(const ExecutionContext& ctx, const GenerateCall& call) {
  const PrimKind kind = call.kind;
  const TensorLayout& out = call.out.layout;
  const WebGpuBuffer& buffer = checked_buffer(call.out, kind, "the output");
  if (!out.is_compact())
    fail(ErrorKind::RuntimeState, kind, "a creation output that is not compact");
  const std::int64_t n = out.numel();
  if (n == 0) return;
  if (out.offset != 0) fail(ErrorKind::RuntimeState, kind, "a creation output at an offset");
  const std::int64_t rows = out.shape.empty() ? 1 : std::max<std::int64_t>(out.shape[0], 1);
  // Offsets beyond any diagonal of an i32-indexed matrix stay beyond it when clamped.
  const std::int64_t diagonal = std::clamp<std::int64_t>(call.offset, -kMaxI32, kMaxI32);

  std::array<float, 4> v{};
  switch (kind) {
    case PrimKind::Fill:
      v = {static_cast<float>(call.value.real()), static_cast<float>(call.value.imag()), 0, 0};
      break;
    case PrimKind::Arange:
      v = {static_cast<float>(call.start), static_cast<float>(call.step), 0, 0};
      break;
    case PrimKind::RandomUniform: {
      // low, high - low, high and the value next to high, which replaces a product that
      // rounds to high (the CPU's uniform_between).
      const auto lo = static_cast<float>(call.a), hi = static_cast<float>(call.b);
      v = {lo, hi - lo, hi, std::nextafter(hi, lo)};
      break;
    }
    case PrimKind::RandomNormal: {
      const auto sd = static_cast<float>(call.b);
      v = {static_cast<float>(call.a), sd, sd / std::numbers::sqrt2_v<float>, 0};
      break;
    }
    case PrimKind::Eye:
      break;
    default:
      fail(ErrorKind::RuntimeState, kind, "not a creation op");
  }
  Params params;
  params.i32(n).i32(rows).i32(diagonal);
  for (float x : v) params.f32(x);
  params.u32(static_cast<std::uint32_t>(call.seed))
      .u32(static_cast<std::uint32_t>(call.seed >> 32));

  auto& backend = ctx.backend_as<WebGpuBackend>();
  const WebGpuBuffer* buffers[] = {&buffer};
  backend.dispatch(backend.pipeline(wgsl::generate_source(kind, out.dtype), wgsl::kGenerateEntry),
                   params.words(), buffers, linear_groups(n));
}

}  // namespace tenferro::prims_webgpu
