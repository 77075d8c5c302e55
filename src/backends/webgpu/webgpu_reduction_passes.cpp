#include "backends/webgpu/webgpu_reduction_passes.hpp"

#include <memory>
#include <utility>

#include "tenferro/core/shape.hpp"

namespace tenferro::webgpu_reduction {

using webgpu_launch::ceil_div;
using webgpu_launch::Params;

const std::string& wgsl_bounds() {
  static const std::string s =
      "const CHUNK: i32 = " + std::to_string(kTreeReduceChunk) +
      ";\nconst SERIAL_CHUNK: i32 = " + std::to_string(kSerialReduceChunk) +
      ";\nconst PER_INVOCATION: u32 = " +
      std::to_string(kTreeReduceChunk / webgpu_launch::kWorkgroupSize) + "u;\n";
  return s;
}

namespace {

// Indexing of the parameter block, then the two kernels (see the header and the design note
// in wgsl_strided_kernels.cpp on bounded loops).
constexpr std::string_view kIndexing = R"(
const REDUCE_PARAMS: i32 = 9;
@group(0) @binding(1) var<storage, read> src: array<S>;
// Offset of the j-th reduced element (column-major over reduced_shape) from its block start.
fn reduced_offset(j: i32) -> i32 {
  let base = REDUCE_PARAMS + 3 * p[1];
  let reduced_rank = p[2];
  var r = j;
  var t = 0;
  for (var a = 0; a < reduced_rank; a++) {
    let extent = p[base + a];
    let c = r % extent;
    r = r / extent;
    t += c * p[base + reduced_rank + a];
  }
  return t;
}
)";

// reduce_serial: one invocation per (output element, chunk of SERIAL_CHUNK reduced elements),
// folded in order; consecutive invocations take consecutive outputs of one chunk, so
// neighbours read neighbouring elements when the outputs are contiguous. reduce_tree: one
// workgroup per (output element, chunk of CHUNK reduced elements), PER_INVOCATION strided
// elements per invocation, then a pairwise tree over the workgroup's 256 accumulators.
constexpr std::string_view kKernels = R"(
@compute @workgroup_size(256)
fn reduce_serial(@builtin(workgroup_id) wid: vec3<u32>,
                 @builtin(local_invocation_id) lid: vec3<u32>,
                 @builtin(num_workgroups) groups: vec3<u32>) {
  let i = linear_index(wid, lid, groups);
  let n_chunks = p[4];
  if (i < 0 || i >= p[0] * n_chunks) { return; }
  let chunk = i / p[0];
  let at = outer_offsets(i % p[0]);
  let first = chunk * SERIAL_CHUNK;
  let last = min(p[3], first + SERIAL_CHUNK);
  var acc = identity();
  for (var j = first; j < last; j++) { acc = combine(acc, load(src[at.x + reduced_offset(j)], j)); }
  store(at.y + chunk * p[7], acc);
}
var<workgroup> partial: array<A, 256>;
@compute @workgroup_size(256)
fn reduce_tree(@builtin(workgroup_id) wid: vec3<u32>,
               @builtin(local_invocation_id) lid: vec3<u32>,
               @builtin(num_workgroups) groups: vec3<u32>) {
  // Everything up to the tree depends on the workgroup id and the parameters only, so the
  // early return is uniform across the workgroup and the barriers below stay valid.
  let g = i32(wid.y * groups.x + wid.x);
  let n_chunks = p[4];
  let o = g / n_chunks;
  if (o >= p[0]) { return; }
  let chunk = g % n_chunks;
  let at = outer_offsets(o);
  let first = chunk * CHUNK + i32(lid.x);
  var acc = identity();
  for (var q = 0u; q < PER_INVOCATION; q++) {
    let j = first + i32(q * WG);
    if (j < p[3]) { acc = combine(acc, load(src[at.x + reduced_offset(j)], j)); }
  }
  partial[lid.x] = acc;
  workgroupBarrier();
  for (var width = WG / 2u; width > 0u; width = width / 2u) {
    if (lid.x < width) { partial[lid.x] = combine(partial[lid.x], partial[lid.x + width]); }
    workgroupBarrier();
  }
  if (lid.x == 0u) { store(at.y + chunk * p[7], partial[0]); }
}
)";

}  // namespace

std::string wgsl_reduction(std::string_view hooks) {
  std::string s(hooks);
  s.append(kIndexing);
  // Source and destination offsets of output element o: (src, dst); p[1] is the outer rank,
  // p[5] and p[6] the offsets, REDUCE_PARAMS (9) words before the shapes.
  s.append(webgpu_launch::wgsl_outer_offsets("outer_offsets", 1, 5, 6, 9)).append(kKernels);
  return s;
}

Params reduction_params(const Blocks& b, const Target& t, std::uint32_t word8) {
  Params params;
  params.i32(checked_numel(b.outer_shape))
      .i32(static_cast<std::int64_t>(b.outer_shape.size()))
      .i32(static_cast<std::int64_t>(b.reduced_shape.size()))
      .i32(checked_numel(b.reduced_shape))
      .i32(t.chunks)
      .i32(b.src_offset)
      .i32(t.dst_offset)
      .i32(t.chunk_stride)
      .u32(word8);
  params.i32(b.outer_shape).i32(b.src_outer_strides).i32(t.dst_strides);
  params.i32(b.reduced_shape).i32(b.src_reduced_strides);
  return params;
}

WorkgroupCount pass_groups(const Blocks& b, Pass pass, std::int64_t chunks) {
  const std::int64_t items = checked_numel(b.outer_shape) * chunks;
  return pass == Pass::Serial ? webgpu_launch::linear_groups(items)
                              : webgpu_launch::workgroup_grid(items);
}

void run_passes(WebGpuBackend& backend, Blocks b, const WebGpuBuffer& dst, std::int64_t dst_offset,
                std::span<const std::int64_t> dst_strides, std::size_t accumulator_bytes,
                const std::function<void(const Blocks&, Pass, const Target&)>& dispatch,
                const std::function<void(std::int64_t)>& check_count) {
  const std::int64_t n_out = checked_numel(b.outer_shape);
  if (n_out == 0) return;
  check_count(n_out);
  const Target final_target{&dst, dst_offset, dst_strides, 0, 1, true};
  std::shared_ptr<Buffer> scratch;  // the current pass's source when it is not the input
  for (;;) {
    const std::int64_t n_reduced = checked_numel(b.reduced_shape);
    check_count(n_reduced);
    if (n_reduced <= kSerialReduceChunk) return dispatch(b, Pass::Serial, final_target);
    // Many outputs: serial chunks keep every invocation busy; few: workgroup trees.
    Pass pass = Pass::Serial;
    std::int64_t chunks = ceil_div(n_reduced, kSerialReduceChunk);
    if (n_out * chunks < kSerialPassMinInvocations) {
      pass = Pass::Tree;
      chunks = ceil_div(n_reduced, kTreeReduceChunk);
      if (chunks == 1) return dispatch(b, pass, final_target);
    }
    check_count(n_out * chunks);
    // Accumulators laid out the way the pass writes them: output-fastest from a serial pass
    // (neighbouring invocations, neighbouring outputs), chunk-fastest from a tree pass (one
    // output's chunks contiguous for the next tree).
    std::shared_ptr<Buffer> next =
        backend.allocate(static_cast<std::size_t>(n_out * chunks) * accumulator_bytes);
    const WebGpuBuffer& next_buffer = WebGpuBackend::buffer_of(*next, "webgpu.reduction");
    const bool serial = pass == Pass::Serial;
    std::vector<std::int64_t> next_strides =
        webgpu_launch::compact_strides(b.outer_shape, serial ? 1 : chunks);
    const std::int64_t chunk_stride = serial ? n_out : 1;
    dispatch(b, pass, Target{&next_buffer, 0, next_strides, chunk_stride, chunks, false});
    // wgpu-native keeps a released buffer alive until the work queued on it has run.
    scratch = std::move(next);
    b.src = &next_buffer;
    b.from_input = false;
    b.src_offset = 0;
    b.src_outer_strides = std::move(next_strides);
    b.reduced_shape = {chunks};
    b.src_reduced_strides = {chunk_stride};
  }
}

}  // namespace tenferro::webgpu_reduction
