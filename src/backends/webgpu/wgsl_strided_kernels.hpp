// WGSL of the WebGPU backend's strided kernels over plain elements (F32, and C32 as interleaved
// vec2<f32>): copy, fill and product maps, sums and GEMM, the work einsum's contractions are
// made of. Each entry point reads its parameters from binding 0, a read-only array<i32> whose
// layout is documented beside the kernel in the .cpp.
#pragma once

#include <cstdint>
#include <string>

#include "backends/webgpu/webgpu_reduction_passes.hpp"
#include "tenferro/core/dtype.hpp"

namespace tenferro::webgpu_kernels::wgsl {

// The sums run the reduction passes' kernels (webgpu_reduction_passes.hpp).
inline constexpr const char* kSumSerialEntry = webgpu_reduction::kSerialEntry;
inline constexpr const char* kSumTreeEntry = webgpu_reduction::kTreeEntry;
inline constexpr const char* kGemmEntry = "gemm";
inline constexpr const char* kDotTreeEntry = "dot_tree";

// Workgroup sizes the sources are written for.
inline constexpr unsigned kLinearWorkgroup = 256;  // one-dimensional kernels
inline constexpr unsigned kGemmBlock = 64;  // GEMM: one workgroup computes a 64 x 64 block of C

// Bounds on the work of one invocation (see the design note in the .cpp): the reductions' are
// the passes' (webgpu_reduction_passes.hpp; dot_tree folds chunks of kTreeReduceChunk of K as
// sum_tree does), one GEMM workgroup covers at most kGemmSplitDepth of K.
inline constexpr std::int64_t kTreeReduceChunk = webgpu_reduction::kTreeReduceChunk;
inline constexpr std::int64_t kGemmSplitDepth = 1024;  // 64 steps of 16
// GEMMs with at most kDotTreeMaxOutputs elements of C per batch and a K of at least
// kDotTreeMinDepth run as dot_tree (one workgroup per element and chunk of K) rather than as
// 64 x 64 tiles, most of which would idle; a shorter K (batches of tiny products) keeps the
// tiles, whose one workgroup per batch then covers all of K in a few steps.
inline constexpr std::int64_t kDotTreeMaxOutputs = 64;
inline constexpr std::int64_t kDotTreeMinDepth = kLinearWorkgroup;

// The element-wise kernels: the strided map (entry webgpu_map::kEntry) with dst = src,
// dst = 0 or dst = a * b (the plain complex product, no conjugation).
enum class MapOp { Copy, FillZero, Multiply };
const std::string& map_source(DType dtype, MapOp op);

// The WGSL module holding the entry point `entry` for `dtype` (F32 or C32; Unsupported else).
// The returned string is the same object for the same arguments, so the backend's pipeline
// cache sees a stable key.
const std::string& source(DType dtype, const char* entry);

}  // namespace tenferro::webgpu_kernels::wgsl
