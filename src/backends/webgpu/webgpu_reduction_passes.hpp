// Long reductions on WebGPU, for every family: the pass structure that bounds the work of one
// invocation, its parameter block and the WGSL that indexes it. einsum's sums and the prims
// reductions each bring only their kernels' arithmetic (what is accumulated, how it is
// stored); the passes, their scratch buffers and the indexing live here once.
//
// Output element o (column-major over outer_shape) folds the block reduced_shape at
// src_offset + o . src_outer_strides (element j of the block at j . src_reduced_strides). A
// short block (<= kSerialReduceChunk) takes one serial pass; a longer one takes passes that
// shrink it into scratch buffers of accumulators -- serial chunks of kSerialReduceChunk when the
// pass has kSerialPassMinInvocations or more, else workgroup trees over kTreeReduceChunk -- until
// the pass that writes the destination. Scratch buffers come from the backend like any buffer;
// nothing leaves the device.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "backends/webgpu/webgpu_backend.hpp"
#include "backends/webgpu/webgpu_launch.hpp"

namespace tenferro::webgpu_reduction {

// One serial invocation adds at most kSerialReduceChunk elements; one tree workgroup folds
// kTreeReduceChunk (kTreeReduceChunk / 256 per invocation, then a pairwise tree over 256).
inline constexpr std::int64_t kSerialReduceChunk = 32;
inline constexpr std::int64_t kTreeReduceChunk = 2048;
inline constexpr std::int64_t kSerialPassMinInvocations = 16384;
static_assert(kTreeReduceChunk % webgpu_launch::kWorkgroupSize == 0);

// The bounds above as WGSL constants: CHUNK, SERIAL_CHUNK and PER_INVOCATION (also used by
// other kernels that fold chunks the same way, einsum's dot_tree).
const std::string& wgsl_bounds();

// The WGSL of the two reduction kernels, entry points kSerialEntry and kTreeEntry, over the
// parameter block of reduction_params() (word 8 is the family's own, p[8]). The module before
// it provides: binding 0 `p: array<i32>`, WG, linear_index() and wgsl_bounds(); `hooks` provide
// what the family folds -- aliases S (a source element) and A (an accumulator), and
// identity() -> A, combine(a: A, b: A) -> A, load(x: S) -> A, store(d: i32, a: A), the last
// with the destination's binding 2. The source is binding 1, array<S>.
std::string wgsl_reduction(std::string_view hooks);
inline constexpr const char* kSerialEntry = "reduce_serial";
inline constexpr const char* kTreeEntry = "reduce_tree";

// The state of a reduction between passes.
struct Blocks {
  const WebGpuBuffer* src = nullptr;
  bool from_input = true;  // src holds input elements (else accumulators of an earlier pass)
  std::int64_t src_offset = 0;
  std::vector<std::int64_t> outer_shape, src_outer_strides, reduced_shape, src_reduced_strides;
};

enum class Pass { Serial, Tree };

// Where one pass writes: chunk c of output o at dst_offset + o . dst_strides + c * chunk_stride.
struct Target {
  const WebGpuBuffer* dst = nullptr;
  std::int64_t dst_offset = 0;
  std::span<const std::int64_t> dst_strides;
  std::int64_t chunk_stride = 0;
  std::int64_t chunks = 1;
  bool final = false;  // writes the destination (else a scratch buffer of accumulators)
};

// p = [n_out, outer_rank, reduced_rank, n_reduced, n_chunks, src_offset, dst_offset,
//      chunk_stride, word8, outer_shape, src_outer_strides, dst_strides, reduced_shape,
//      src_reduced_strides]
webgpu_launch::Params reduction_params(const Blocks& b, const Target& t, std::uint32_t word8);
// The grid of a pass: one invocation per (output, chunk) for Serial, one workgroup for Tree.
WorkgroupCount pass_groups(const Blocks& b, Pass pass, std::int64_t chunks);

// Queues the passes of `b` into `dst` (at dst_offset + o . dst_strides). `dispatch` queues one
// pass; `accumulator_bytes` sizes one scratch element; `check_count` is called with the number
// of invocations or accumulators of each pass before it is queued (the family raises its own
// error above 2^31-1).
void run_passes(WebGpuBackend& backend, Blocks b, const WebGpuBuffer& dst, std::int64_t dst_offset,
                std::span<const std::int64_t> dst_strides, std::size_t accumulator_bytes,
                const std::function<void(const Blocks&, Pass, const Target&)>& dispatch,
                const std::function<void(std::int64_t)>& check_count);

}  // namespace tenferro::webgpu_reduction
