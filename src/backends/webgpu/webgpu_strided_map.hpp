// Element-wise work on WebGPU, for every family: dst = op(in0, ..., in{k-1}) over one shape,
// every operand strided with its own offset (k = 0 to 3). The layer writes the kernel skeleton
// (bindings, the column-major decoding of an invocation's index into each operand's element),
// merges axes, packs the parameter block and dispatches; a family brings only `fn op` and its
// element types: einsum's copy, fill and multiply, and every element-wise prim.
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "backends/webgpu/webgpu_backend.hpp"

namespace tenferro::webgpu_map {

inline constexpr const char* kEntry = "strided_map";
inline constexpr int kMaxArity = 3;
// Words the family may pass to its op (prims: alpha, beta and flags), read in WGSL as
// map_word(j) (i32) or map_f32(j) (the f32 of those bits), j < kFamilyWords.
inline constexpr int kFamilyWords = 5;

// The WGSL of the map with `arity` inputs, entry point kEntry. The module before it provides
// binding 0 `p: array<i32>`, WG and linear_index() (as for the reduction kernels); the family
// provides aliases TI (an input element) and TO (an output element) and
// `fn op(x: TI[, y: TI[, z: TI]]) -> TO`. Inputs are bindings 1..arity, the destination the
// next one. Parameter block:
// p = [n, rank, dst_offset, in0_offset, in1_offset, in2_offset, family words (kFamilyWords),
//      shape[rank], dst_strides[rank], in0_strides[rank], ...]
std::string wgsl_map(int arity);

// One operand: its buffer, element offset, and strides over the map's shape (0 where it is
// broadcast).
struct Operand {
  const WebGpuBuffer* buffer = nullptr;
  std::int64_t offset = 0;
  std::span<const std::int64_t> strides;
};

// Queues `source` (a module ending in wgsl_map(inputs.size())) over `shape`: one invocation
// per element of dst. The caller has checked the operands (dtypes, extents inside their buffers,
// indices and the element count within WGSL's 32 bits) and that no input shares dst's buffer
// (WebGPU forbids a buffer bound read-only and writable in one dispatch). Nothing is queued
// for an empty shape.
void dispatch(WebGpuBackend& backend, const std::string& source,
              std::span<const std::int64_t> shape, const Operand& dst,
              std::span<const Operand> inputs, std::span<const std::uint32_t> family_words = {});

}  // namespace tenferro::webgpu_map
