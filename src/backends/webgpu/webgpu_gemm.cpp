#include "backends/webgpu/webgpu_gemm.hpp"

#include <algorithm>
#include <memory>
#include <string>
#include <string_view>
#include <utility>

#include "backends/webgpu/webgpu_launch.hpp"
#include "backends/webgpu/webgpu_strided_sum.hpp"
#include "backends/webgpu/wgsl_strided_kernels.hpp"
#include "tenferro/core/error.hpp"

namespace tenferro::webgpu_kernels {
namespace {

using webgpu_launch::AliasGuard;
using webgpu_launch::ceil_div;
using webgpu_launch::kMaxGroupsPerDimension;
using webgpu_launch::kMaxI32;
using webgpu_launch::Params;
using webgpu_launch::workgroup_grid;

using webgpu_launch::check_count;

// One round of split-K GEMM: `splits` consecutive splits from `split_begin`, each writing its
// partial product to `c` at c_offset + batch * c_stride_batch + split * c_stride_split.
struct GemmRound {
  const WebGpuBuffer* c = nullptr;
  std::int64_t c_offset = 0, c_stride_m = 0, c_stride_n = 0, c_stride_batch = 0, c_stride_split = 0;
  std::int64_t splits = 1, split_begin = 0;
  bool accumulate = false;
};

// Few elements of C, long K: one workgroup per (element, chunk of kTreeReduceChunk depths);
// more than one chunk leaves partial sums (chunk-fastest) for run_sum to add into C.
void dot_tree(WebGpuBackend& backend, const GemmProblem& g, const WebGpuBuffer& a,
              const WebGpuBuffer& b, const WebGpuBuffer& c, std::string_view op) {
  const std::int64_t outputs = g.m * g.n * g.batch;
  const std::int64_t chunks = ceil_div(g.k, wgsl::kTreeReduceChunk);
  check_count(outputs * chunks, op);
  std::shared_ptr<Buffer> scratch;
  const WebGpuBuffer* target = &c;
  std::int64_t c_offset = g.c_offset, c_stride_m = g.c_stride_m, c_stride_n = g.c_stride_n,
               c_stride_batch = g.c_stride_batch, c_stride_chunk = 0;
  if (chunks > 1) {
    scratch = backend.allocate(static_cast<std::size_t>(outputs * chunks) * dtype_size(g.dtype));
    target = &WebGpuBackend::buffer_of(*scratch, "webgpu.gemm");
    c_offset = 0, c_stride_chunk = 1;
    c_stride_m = chunks, c_stride_n = chunks * g.m, c_stride_batch = chunks * g.m * g.n;
  }
  Params params;
  params.i32(g.m).i32(g.n).i32(g.k).i32(g.batch).i32(chunks);
  params.i32(g.a_offset).i32(g.a_stride_m).i32(g.a_stride_k).i32(g.a_stride_batch);
  params.i32(g.b_offset).i32(g.b_stride_k).i32(g.b_stride_n).i32(g.b_stride_batch);
  params.i32(c_offset).i32(c_stride_m).i32(c_stride_n).i32(c_stride_batch).i32(c_stride_chunk);
  const WebGpuBuffer* buffers[] = {&a, &b, target};
  backend.dispatch(
      backend.pipeline(wgsl::source(g.dtype, wgsl::kDotTreeEntry), wgsl::kDotTreeEntry),
      params.words(), buffers, workgroup_grid(outputs * chunks));
  if (chunks == 1) return;
  Sum r;
  r.dtype = g.dtype;
  r.source.outer_shape = {g.m, g.n, g.batch};
  r.source.src = target;
  r.source.src_outer_strides = {c_stride_m, c_stride_n, c_stride_batch};
  r.source.reduced_shape = {chunks};
  r.source.src_reduced_strides = {1};
  r.dst = &c;
  r.dst_offset = g.c_offset;
  r.dst_strides = {g.c_stride_m, g.c_stride_n, g.c_stride_batch};
  run_sum(backend, std::move(r), op);
}

}  // namespace

void gemm(WebGpuBackend& backend, const GemmProblem& g, std::size_t scratch_budget_bytes,
          std::string_view op) {
  const WebGpuBuffer& c = *g.c;
  const std::int64_t tile = wgsl::kGemmBlock;
  const std::int64_t groups_m = (g.m + tile - 1) / tile, groups_n = (g.n + tile - 1) / tile;
  if (groups_m > kMaxGroupsPerDimension || groups_n > kMaxGroupsPerDimension || g.k > kMaxI32) {
    throw_error(ErrorKind::Unsupported, ErrorPhase::Execute, std::string(op),
                "GEMM of " + std::to_string(g.m) + "x" + std::to_string(g.n) + "x" +
                    std::to_string(g.k) + " exceeds the WebGPU dispatch limits");
  }

  AliasGuard guard(backend, c);
  const WebGpuBuffer* a_in = guard.input(*g.a);
  const WebGpuBuffer* b_in = guard.input(*g.b);
  if (g.m * g.n <= wgsl::kDotTreeMaxOutputs && g.k >= wgsl::kDotTreeMinDepth) {
    dot_tree(backend, g, *a_in, *b_in, c, op);
    return;
  }
  auto* pipeline = backend.pipeline(wgsl::source(g.dtype, wgsl::kGemmEntry), wgsl::kGemmEntry);
  const auto run_round = [&](const GemmRound& round) {
    const WebGpuBuffer* buffers[] = {a_in, b_in, round.c};
    // z enumerates (batch, split) pairs; more than one dimension's limit go in several dispatches.
    const std::int64_t total_z = g.batch * round.splits;
    check_count(total_z, op);
    for (std::int64_t base = 0; base < total_z; base += kMaxGroupsPerDimension) {
      const std::int64_t count = std::min<std::int64_t>(kMaxGroupsPerDimension, total_z - base);
      Params params;
      params.i32(g.m).i32(g.n).i32(g.k).i32(base);
      params.i32(round.splits).i32(round.split_begin).i32(wgsl::kGemmSplitDepth);
      params.i32(round.accumulate ? 1 : 0);
      params.i32(g.a_offset).i32(g.a_stride_m).i32(g.a_stride_k).i32(g.a_stride_batch);
      params.i32(g.b_offset).i32(g.b_stride_k).i32(g.b_stride_n).i32(g.b_stride_batch);
      params.i32(round.c_offset).i32(round.c_stride_m).i32(round.c_stride_n);
      params.i32(round.c_stride_batch).i32(round.c_stride_split);
      backend.dispatch(pipeline, params.words(), buffers,
                       {static_cast<std::uint32_t>(groups_m), static_cast<std::uint32_t>(groups_n),
                        static_cast<std::uint32_t>(count)});
    }
  };
  GemmRound direct;
  direct.c = &c;
  direct.c_offset = g.c_offset, direct.c_stride_m = g.c_stride_m, direct.c_stride_n = g.c_stride_n;
  direct.c_stride_batch = g.c_stride_batch;

  // Split-K: no workgroup covers more than kGemmSplitDepth of K (see the kernels' design note).
  const std::int64_t splits = std::max<std::int64_t>(1, ceil_div(g.k, wgsl::kGemmSplitDepth));
  if (splits == 1) {
    run_round(direct);
    return;
  }
  // Partial products go to scratch, `group` splits at a time, as much as the budget and one
  // binding allow; each group is then summed pairwise into C (added after the first group).
  const std::int64_t c_elements = g.m * g.n * g.batch;
  check_count(c_elements, op);
  const std::uint64_t per_split = static_cast<std::uint64_t>(c_elements) * dtype_size(g.dtype);
  const std::uint64_t budget =
      std::min<std::uint64_t>(scratch_budget_bytes, backend.max_storage_binding_bytes());
  const std::int64_t group = std::min<std::int64_t>(
      {splits, static_cast<std::int64_t>(budget / per_split), kMaxI32 / c_elements});
  if (group < 2) {
    // C alone fills the budget: every split adds its partial product into C in turn.
    for (std::int64_t s = 0; s < splits; ++s) {
      GemmRound round = direct;
      round.split_begin = s;
      round.accumulate = s > 0;
      run_round(round);
    }
    return;
  }
  std::shared_ptr<Buffer> scratch = backend.allocate(static_cast<std::size_t>(per_split * group));
  const WebGpuBuffer& partials = WebGpuBackend::buffer_of(*scratch, "webgpu.gemm");
  for (std::int64_t s0 = 0; s0 < splits; s0 += group) {
    const std::int64_t count = std::min(group, splits - s0);
    // Partial (i, j, split, batch) at i + m j + m n split + m n count batch.
    GemmRound round;
    round.c = &partials;
    round.c_stride_m = 1, round.c_stride_n = g.m, round.c_stride_split = g.m * g.n;
    round.c_stride_batch = g.m * g.n * count;
    round.splits = count;
    round.split_begin = s0;
    run_round(round);
    Sum r;
    r.dtype = g.dtype;
    r.source.outer_shape = {g.m, g.n, g.batch};
    r.source.src = &partials;
    r.source.src_outer_strides = {1, g.m, g.m * g.n * count};
    r.source.reduced_shape = {count};
    r.source.src_reduced_strides = {g.m * g.n};
    r.dst = &c;
    r.dst_offset = g.c_offset;
    r.dst_strides = {g.c_stride_m, g.c_stride_n, g.c_stride_batch};
    r.accumulate = s0 > 0;
    run_sum(backend, std::move(r), op);
  }
}

}  // namespace tenferro::webgpu_kernels
