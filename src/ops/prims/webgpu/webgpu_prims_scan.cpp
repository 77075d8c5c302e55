// cumsum and cumprod on WebGPU (kernel_calls.hpp's ScanCall), F32 and C32, as the blocked scan
// of GPU libraries: each workgroup scans one block of kBlock elements of one line (every
// invocation folds its kPerInvocation elements, the workgroup scans those sums in shared memory,
// then each invocation writes its running sums or products), and writes the block's total. The
// totals, a compact lines x blocks tensor, are scanned the same way (recursively: three levels
// reach 2^33 elements), and a last kernel folds the scanned total of the blocks before it into
// every element past a line's first block. No invocation loops over more than kPerInvocation
// elements, so no loop runs long enough for lavapipe to cut it short.
#include <array>
#include <memory>
#include <string>
#include <vector>

#include "ops/prims/webgpu/webgpu_prims_kernels.hpp"
#include "ops/prims/webgpu/webgpu_prims_launch.hpp"
#include "tenferro/runtime/extension.hpp"

namespace tenferro::prims_webgpu {
namespace {

using prims_internal::PrimKind;
using prims_internal::ScanCall;
using webgpu_launch::ceil_div;

constexpr std::int64_t kPerInvocation = 8;
constexpr std::int64_t kBlock = kPerInvocation * webgpu_launch::kWorkgroupSize;

// p = [lines, n, blocks, rank, src offset, src axis stride, dst offset, dst axis stride,
//      outer shape[rank], src outer strides[rank], dst outer strides[rank]]
constexpr std::string_view kCommon = R"(
@group(0) @binding(0) var<storage, read> p: array<i32>;
const PER: i32 = 8;
const BLOCK: i32 = 2048;
)";

// One workgroup per (line, block), g = line * blocks + block: the index of the block's total
// in the compact totals (block fastest).
constexpr std::string_view kScanBlocks = R"(
@group(0) @binding(1) var<storage, read> src: array<T>;
@group(0) @binding(2) var<storage, read_write> dst: array<T>;
var<workgroup> sums: array<T, 256>;
@compute @workgroup_size(256)
fn scan_blocks(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_id) lid: vec3<u32>,
               @builtin(num_workgroups) groups: vec3<u32>) {
  let g = i32(wid.y * groups.x + wid.x);
  if (g >= p[0] * p[2]) { return; }
  let n = p[1];
  let b = bases(g / p[2]);
  let t = i32(lid.x);
  let first = (g % p[2]) * BLOCK + t * PER;
  var own = identity();
  for (var k = 0; k < PER; k++) {
    if (first + k < n) { own = combine(own, src[b.x + (first + k) * p[5]]); }
  }
  sums[t] = own;
  for (var s = 1; s < 256; s = s * 2) {
    workgroupBarrier();
    var before = identity();
    if (t >= s) { before = sums[t - s]; }
    workgroupBarrier();
    sums[t] = combine(before, sums[t]);
  }
  workgroupBarrier();
  var running = identity();
  if (t > 0) { running = sums[t - 1]; }
  for (var k = 0; k < PER; k++) {
    if (first + k < n) {
      running = combine(running, src[b.x + (first + k) * p[5]]);
      dst[b.y + (first + k) * p[7]] = running;
    }
  }
  store_total(g, t);
}
)";

constexpr std::string_view kWithTotals = R"(
@group(0) @binding(3) var<storage, read_write> totals: array<T>;
fn store_total(g: i32, t: i32) { if (t == 255) { totals[g] = sums[255]; } }
)";
constexpr std::string_view kWithoutTotals = "fn store_total(g: i32, t: i32) {}\n";

// One invocation per element past its line's first block: the scanned total of the blocks before
// the element's folded into it.
constexpr std::string_view kAddOffsets = R"(
@group(0) @binding(1) var<storage, read> scanned: array<T>;
@group(0) @binding(2) var<storage, read_write> dst: array<T>;
@compute @workgroup_size(256)
fn scan_add(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_id) lid: vec3<u32>,
            @builtin(num_workgroups) groups: vec3<u32>) {
  let i = i32((wid.y * groups.x + wid.x) * 256u + lid.x);
  let tail = p[1] - BLOCK;
  if (i < 0 || i >= p[0] * tail) { return; }
  let line = i / tail;
  let j = BLOCK + i % tail;
  let d = bases(line).y + j * p[7];
  dst[d] = combine(scanned[line * p[2] + j / BLOCK - 1], dst[d]);
}
)";

// The scan's fold for each (op, element type).
constexpr std::string_view kFolds[2][2] = {
    {"alias T = f32;\nfn identity() -> T { return 0.0; }\n"
     "fn combine(a: T, b: T) -> T { return a + b; }\n",
     "alias T = vec2<f32>;\nfn identity() -> T { return T(); }\n"
     "fn combine(a: T, b: T) -> T { return a + b; }\n"},
    {"alias T = f32;\nfn identity() -> T { return 1.0; }\n"
     "fn combine(a: T, b: T) -> T { return a * b; }\n",
     "alias T = vec2<f32>;\nfn identity() -> T { return T(1.0, 0.0); }\n"
     "fn combine(a: T, b: T) -> T { return T(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x); }\n"}};

enum Kernel { kBlocks, kBlocksWithTotals, kAdd, kKernels };

const std::string& source(PrimKind kind, DType dtype, Kernel kernel) {
  static const std::array<std::string, 4 * kKernels> sources = [] {
    std::array<std::string, 4 * kKernels> s;
    for (int op = 0; op < 2; ++op) {
      for (int complex = 0; complex < 2; ++complex) {
        // bases(line): the first elements of a line in src (x) and dst (y).
        const std::string head = std::string(kFolds[op][complex]) + std::string(kCommon) +
                                 webgpu_launch::wgsl_outer_offsets("bases", 3, 4, 6, 8);
        std::string* at = &s[(2 * op + complex) * kKernels];
        at[kBlocks] = head + std::string(kScanBlocks) + std::string(kWithoutTotals);
        at[kBlocksWithTotals] = head + std::string(kScanBlocks) + std::string(kWithTotals);
        at[kAdd] = head + std::string(kAddOffsets);
      }
    }
    return s;
  }();
  const int op = kind == PrimKind::CumProd ? 1 : 0, complex = dtype == DType::C32 ? 1 : 0;
  return sources[(2 * op + complex) * kKernels + kernel];
}

// Lines of one scan: where each starts in a buffer (offset, strides over the outer axes) and
// the stride along the scanned axis.
struct Lines {
  const WebGpuBuffer* buffer = nullptr;
  std::int64_t offset = 0, axis_stride = 0;
  std::vector<std::int64_t> outer_strides;
};

void scan_lines(WebGpuBackend& backend, PrimKind kind, DType dtype,
                const std::vector<std::int64_t>& outer_shape, std::int64_t n, const Lines& src,
                const Lines& dst) {
  const std::int64_t lines = checked_numel(outer_shape);
  const std::int64_t blocks = ceil_div(n, kBlock);
  check_count(lines * blocks, kind, "workgroups of one scan pass");
  Params params;
  params.i32(lines).i32(n).i32(blocks).i32(static_cast<std::int64_t>(outer_shape.size()));
  params.i32(src.offset).i32(src.axis_stride).i32(dst.offset).i32(dst.axis_stride);
  params.i32(outer_shape).i32(src.outer_strides).i32(dst.outer_strides);
  if (blocks == 1) {
    const WebGpuBuffer* buffers[] = {src.buffer, dst.buffer};
    backend.dispatch(backend.pipeline(source(kind, dtype, kBlocks), "scan_blocks"), params.words(),
                     buffers, workgroup_grid(lines));
    return;
  }
  // Two compact lines x blocks tensors: the blocks' totals and their scan.
  const auto bytes = static_cast<std::size_t>(lines * blocks) * dtype_size(dtype);
  const std::shared_ptr<Buffer> totals = backend.allocate(bytes), scanned = backend.allocate(bytes);
  const std::string op = "prims." + std::string(prims_internal::prim_name(kind));
  const Lines totals_lines{&WebGpuBackend::buffer_of(*totals, op), 0, 1, {blocks}};
  const Lines scanned_lines{&WebGpuBackend::buffer_of(*scanned, op), 0, 1, {blocks}};
  const WebGpuBuffer* first[] = {src.buffer, dst.buffer, totals_lines.buffer};
  backend.dispatch(backend.pipeline(source(kind, dtype, kBlocksWithTotals), "scan_blocks"),
                   params.words(), first, workgroup_grid(lines * blocks));
  scan_lines(backend, kind, dtype, {lines}, blocks, totals_lines, scanned_lines);
  check_count(lines * (n - kBlock), kind, "elements of one scan pass");
  const WebGpuBuffer* add[] = {scanned_lines.buffer, dst.buffer};
  backend.dispatch(backend.pipeline(source(kind, dtype, kAdd), "scan_add"), params.words(), add,
                   linear_groups(lines * (n - kBlock)));
}

}  // namespace

void scan(const ExecutionContext& ctx, const ScanCall& call) {
  const PrimKind kind = call.kind;
  if (kind != PrimKind::CumSum && kind != PrimKind::CumProd) {
    fail(ErrorKind::RuntimeState, kind, "not a scan");
  }
  const TensorLayout& in = call.in.layout;
  const TensorLayout& out = call.out.layout;
  const auto [in_buffer, out_buffer] = checked_in_out(call.in, call.out, kind);
  const auto a = static_cast<std::size_t>(call.axis);
  std::vector<std::int64_t> outer_shape, outer_in, outer_out;
  for (std::size_t d = 0; d < in.shape.size(); ++d) {
    if (d == a) continue;
    outer_shape.push_back(in.shape[d]);
    outer_in.push_back(in.strides[d]);
    outer_out.push_back(out.strides[d]);
  }
  const std::span<const std::int64_t> outer_strides[2] = {outer_in, outer_out};
  Loop outer = merge_axes(outer_shape, outer_strides);
  const std::int64_t n = in.shape[a];
  if (n == 0 || checked_numel(outer.shape) == 0) return;
  scan_lines(ctx.backend_as<WebGpuBackend>(), kind, in.dtype, outer.shape, n,
             {&in_buffer, in.offset, in.strides[a], std::move(outer.strides[0])},
             {&out_buffer, out.offset, out.strides[a], std::move(outer.strides[1])});
}

}  // namespace tenferro::prims_webgpu
