// WGSL modules of the WebGPU prims kernels, one per (op, dtypes, pass), composed from the math
// library and a kernel skeleton. Each module reads its parameters from binding 0, a read-only
// array<i32> whose layout is documented beside the skeleton in the .cpp; F32 is f32, C32 an
// interleaved vec2<f32>. The returned strings live for the process, so the backend's pipeline
// cache sees stable keys.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "backends/webgpu/webgpu_launch.hpp"
#include "backends/webgpu/webgpu_reduction_passes.hpp"
#include "ops/prims/prim_kind.hpp"
#include "tenferro/core/dtype.hpp"

namespace tenferro::prims_webgpu::wgsl {

inline constexpr const char* kReduceSerialEntry = webgpu_reduction::kSerialEntry;
inline constexpr const char* kReduceTreeEntry = webgpu_reduction::kTreeEntry;
inline constexpr const char* kGenerateEntry = "prims_generate";

inline constexpr unsigned kWorkgroup = webgpu_launch::kWorkgroupSize;  // every kernel

// The element-wise kernels' family words (backends/webgpu/webgpu_strided_map.hpp): alpha.re,
// alpha.im, beta.re, beta.im (f32 bits), flags.
inline constexpr std::int32_t kFlagAddBeta = 1, kFlagAlphaReal = 2, kFlagBetaReal = 4;

// The bounds on one reduction invocation's work (lavapipe stops shader loops after 65535
// iterations) and the passes are the backend layer's: backends/webgpu/webgpu_reduction_passes.hpp.

// out = f(in0[, in1[, in2]]) for `kind` with input dtype `in` and output dtype `out`.
const std::string& elementwise_source(prims_internal::PrimKind kind, DType in, DType out);

// One pass of a reduction of `kind` over `in`-typed elements: it reads the input itself
// (from_input) or the accumulators of an earlier pass, and writes final values (to_output) or
// accumulators for a later pass.
const std::string& reduce_source(prims_internal::PrimKind kind, DType in, bool from_input,
                                 bool to_output);
// Bytes of one accumulator of a reduction pass (scratch buffers between passes).
std::size_t reduce_accumulator_bytes(prims_internal::PrimKind kind, DType in);

// Creation kernel of `kind` writing `out`-typed elements.
const std::string& generate_source(prims_internal::PrimKind kind, DType out);

}  // namespace tenferro::prims_webgpu::wgsl
