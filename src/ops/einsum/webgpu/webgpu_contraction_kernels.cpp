// Host side of the WebGPU contraction kernels: validates views against their buffers, packs
// the i32 parameter block each WGSL entry point expects and submits the dispatch.
#include "ops/einsum/webgpu/webgpu_contraction_kernels.hpp"

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "backends/webgpu/webgpu_strided_map.hpp"
#include "ops/einsum/webgpu/webgpu_kernel_launch.hpp"
#include "ops/einsum/webgpu/webgpu_reduction.hpp"
#include "ops/einsum/webgpu/wgsl_contraction_kernels.hpp"
#include "tenferro/core/error.hpp"
#include "tenferro/core/shape.hpp"

namespace tenferro::einsum_internal {

using namespace webgpu_launch;

namespace {

void check_dtype(DType dtype, std::string_view op) {
  if (dtype != DType::F32 && dtype != DType::C32) {
    fail(ErrorKind::Unsupported, op,
         "WebGPU kernels support F32 and C32 only (WGSL has no f64), not " +
             std::string(dtype_name(dtype)));
  }
}

std::int64_t numel_of(const std::vector<std::int64_t>& shape) {
  return checked_numel(shape);
}

// The largest element index a strided access touches (the smallest must stay >= 0) must lie
// inside the buffer and within the 32-bit indices WGSL computes with.
void check_extent(const WebGpuBuffer& buffer, DType dtype, std::int64_t offset,
                  std::span<const std::int64_t> extents, std::span<const std::int64_t> strides,
                  std::string_view op, std::string_view operand) {
  std::int64_t lo = offset, hi = offset;
  for (std::size_t a = 0; a < extents.size(); ++a) {
    if (extents[a] == 0) return;  // touches nothing
    const std::int64_t span = (extents[a] - 1) * strides[a];
    (span < 0 ? lo : hi) += span;
  }
  const auto elements = static_cast<std::int64_t>(buffer.size_bytes() / dtype_size(dtype));
  if (lo < 0 || hi >= elements) {
    fail(ErrorKind::Validation, op,
         std::string(operand) + " reaches elements [" + std::to_string(lo) + ", " +
             std::to_string(hi) + "] of a buffer holding " + std::to_string(elements));
  }
  if (hi > kMaxI32) {
    fail(ErrorKind::Unsupported, op,
         std::string(operand) +
             " needs element indices beyond 2^31-1, which WGSL kernels cannot address");
  }
}

const WebGpuBuffer& view_buffer(const KernelView& view, DType dtype, std::string_view op,
                                std::string_view operand) {
  if (view.buffer == nullptr)
    fail(ErrorKind::RuntimeState, op, std::string(operand) + " has no buffer");
  if (view.dtype != dtype) {
    fail(ErrorKind::Validation, op,
         std::string(operand) + " is " + std::string(dtype_name(view.dtype)) + ", expected " +
             std::string(dtype_name(dtype)));
  }
  if (view.shape.size() != view.strides.size()) {
    fail(ErrorKind::Validation, op, std::string(operand) + " has a rank/stride mismatch");
  }
  return WebGpuBackend::buffer_of(*view.buffer, "einsum.webgpu." + std::string(op));
}

// Strides of `view` iterated over `shape` (its rank must match); extent-1 axes broadcast.
std::vector<std::int64_t> broadcast_strides(const KernelView& view,
                                            const std::vector<std::int64_t>& shape,
                                            std::string_view op, std::string_view operand) {
  if (view.shape.size() != shape.size()) {
    fail(ErrorKind::Validation, op,
         std::string(operand) + " has shape " + shape_to_string(view.shape) + ", expected " +
             shape_to_string(shape));
  }
  std::vector<std::int64_t> strides(shape.size());
  for (std::size_t a = 0; a < shape.size(); ++a) {
    if (view.shape[a] == shape[a]) {
      strides[a] = view.strides[a];
    } else if (view.shape[a] == 1) {
      strides[a] = 0;
    } else {
      fail(ErrorKind::Validation, op,
           std::string(operand) + " has shape " + shape_to_string(view.shape) +
               ", which does not broadcast to " + shape_to_string(shape));
    }
  }
  return strides;
}

// One round of split-K GEMM: `splits` consecutive splits from `split_begin`, each writing its
// partial product to `c` at c_offset + batch * c_stride_batch + split * c_stride_split.
struct GemmRound {
  const WebGpuBuffer* c = nullptr;
  std::int64_t c_offset = 0, c_stride_m = 0, c_stride_n = 0, c_stride_batch = 0, c_stride_split = 0;
  std::int64_t splits = 1, split_begin = 0;
  bool accumulate = false;
};

}  // namespace

// A read-only binding may not be the buffer the same dispatch writes (WebGPU forbids the
// conflicting usages), so an input that aliases the output is read from a device-side copy.
class AliasGuard {
 public:
  AliasGuard(WebGpuBackend& backend, const WebGpuBuffer& output)
      : backend_(backend), output_(output) {}
  const WebGpuBuffer* input(const WebGpuBuffer& in) {
    if (&in != &output_) return &in;
    if (!copy_) {
      copy_ = backend_.allocate(in.size_bytes());
      backend_.copy_buffer(in, 0, WebGpuBackend::buffer_of(*copy_, "einsum.webgpu"), 0,
                           in.padded_bytes());
    }
    return &WebGpuBackend::buffer_of(*copy_, "einsum.webgpu");
  }

 private:
  WebGpuBackend& backend_;
  const WebGpuBuffer& output_;
  std::shared_ptr<Buffer> copy_;
};

namespace {

// The Reduction both sum_trailing and accumulate run, from views the caller has matched:
// src is dst's shape followed by `reduced_rank` summed axes (none for accumulate). One place
// checks the extents, guards an aliasing source and splits src's strides into outer and
// reduced ones.
void run_view_reduction(WebGpuBackend& backend, const WebGpuBuffer& in, const KernelView& src,
                        const WebGpuBuffer& out, const KernelView& dst, std::size_t reduced_rank,
                        bool accumulate, std::string_view op) {
  const std::size_t outer_rank = src.shape.size() - reduced_rank;
  const std::span<const std::int64_t> src_shape(src.shape), src_strides(src.strides);
  const auto reduced_shape = src_shape.subspan(outer_rank);
  check_count(checked_numel(reduced_shape), op);
  check_extent(out, dst.dtype, dst.offset, dst.shape, dst.strides, op, "destination");
  check_extent(in, dst.dtype, src.offset, src.shape, src.strides, op, "source");

  AliasGuard guard(backend, out);
  Reduction r;
  r.dtype = dst.dtype;
  r.source.outer_shape = dst.shape;
  r.source.src = guard.input(in);
  r.source.src_offset = src.offset;
  r.source.src_outer_strides.assign(src_strides.begin(), src_strides.begin() + outer_rank);
  r.source.reduced_shape.assign(reduced_shape.begin(), reduced_shape.end());
  r.source.src_reduced_strides.assign(src_strides.begin() + outer_rank, src_strides.end());
  r.dst = &out;
  r.dst_offset = dst.offset;
  r.dst_strides = dst.strides;
  r.accumulate = accumulate;
  run_reduction(backend, std::move(r));
}

}  // namespace

void WebGpuContractionKernels::copy(const KernelView& src, const KernelView& dst) {
  constexpr std::string_view op = "copy";
  check_dtype(dst.dtype, op);
  const WebGpuBuffer& out = view_buffer(dst, dst.dtype, op, "destination");
  const WebGpuBuffer& in = view_buffer(src, dst.dtype, op, "source");
  const std::vector<std::int64_t> src_strides = broadcast_strides(src, dst.shape, op, "source");
  const std::int64_t n = numel_of(dst.shape);
  if (n == 0) return;
  check_count(n, op);
  check_extent(out, dst.dtype, dst.offset, dst.shape, dst.strides, op, "destination");
  check_extent(in, dst.dtype, src.offset, dst.shape, src_strides, op, "source");

  AliasGuard guard(backend_, out);
  const webgpu_map::Operand inputs[] = {{guard.input(in), src.offset, src_strides}};
  webgpu_map::dispatch(backend_, wgsl::map_source(dst.dtype, wgsl::MapOp::Copy), dst.shape,
                       {&out, dst.offset, dst.strides}, inputs);
}

void WebGpuContractionKernels::fill_zero(const KernelView& dst) {
  constexpr std::string_view op = "fill_zero";
  check_dtype(dst.dtype, op);
  const WebGpuBuffer& out = view_buffer(dst, dst.dtype, op, "destination");
  const std::int64_t n = numel_of(dst.shape);
  if (n == 0) return;
  check_count(n, op);
  check_extent(out, dst.dtype, dst.offset, dst.shape, dst.strides, op, "destination");

  webgpu_map::dispatch(backend_, wgsl::map_source(dst.dtype, wgsl::MapOp::FillZero), dst.shape,
                       {&out, dst.offset, dst.strides}, {});
}

void WebGpuContractionKernels::multiply(const KernelView& a, const KernelView& b,
                                        const KernelView& dst) {
  constexpr std::string_view op = "multiply";
  check_dtype(dst.dtype, op);
  const WebGpuBuffer& out = view_buffer(dst, dst.dtype, op, "destination");
  const WebGpuBuffer& lhs = view_buffer(a, dst.dtype, op, "left operand");
  const WebGpuBuffer& rhs = view_buffer(b, dst.dtype, op, "right operand");
  const std::vector<std::int64_t> a_strides = broadcast_strides(a, dst.shape, op, "left operand");
  const std::vector<std::int64_t> b_strides = broadcast_strides(b, dst.shape, op, "right operand");
  const std::int64_t n = numel_of(dst.shape);
  if (n == 0) return;
  check_count(n, op);
  check_extent(out, dst.dtype, dst.offset, dst.shape, dst.strides, op, "destination");
  check_extent(lhs, dst.dtype, a.offset, dst.shape, a_strides, op, "left operand");
  check_extent(rhs, dst.dtype, b.offset, dst.shape, b_strides, op, "right operand");

  AliasGuard guard(backend_, out);
  const webgpu_map::Operand inputs[] = {{guard.input(lhs), a.offset, a_strides},
                                        {guard.input(rhs), b.offset, b_strides}};
  webgpu_map::dispatch(backend_, wgsl::map_source(dst.dtype, wgsl::MapOp::Multiply), dst.shape,
                       {&out, dst.offset, dst.strides}, inputs);
}

void WebGpuContractionKernels::sum_trailing(const KernelView& src, const KernelView& dst,
                                            int reduced_rank) {
  constexpr std::string_view op = "sum_trailing";
  check_dtype(dst.dtype, op);
  const WebGpuBuffer& out = view_buffer(dst, dst.dtype, op, "destination");
  const WebGpuBuffer& in = view_buffer(src, dst.dtype, op, "source");
  const std::size_t outer_rank = dst.shape.size();
  if (reduced_rank < 0 || src.shape.size() != outer_rank + static_cast<std::size_t>(reduced_rank) ||
      !std::equal(dst.shape.begin(), dst.shape.end(), src.shape.begin())) {
    fail(ErrorKind::Validation, op,
         "source shape " + shape_to_string(src.shape) + " is not destination shape " +
             shape_to_string(dst.shape) + " followed by " + std::to_string(reduced_rank) +
             " reduced axes");
  }
  const std::int64_t n = numel_of(dst.shape);
  if (n == 0) return;
  check_count(n, op);
  run_view_reduction(backend_, in, src, out, dst, static_cast<std::size_t>(reduced_rank),
                     /*accumulate=*/false, op);
}

// dst += src: a reduction over no axes (each output's block is the one element under it) that
// adds into what the destination holds, as GEMM's split-K rounds do.
void WebGpuContractionKernels::accumulate(const KernelView& src, const KernelView& dst) {
  constexpr std::string_view op = "accumulate";
  check_dtype(dst.dtype, op);
  if (src.shape != dst.shape) {
    fail(ErrorKind::Validation, op,
         "source shape " + shape_to_string(src.shape) + " is not destination shape " +
             shape_to_string(dst.shape));
  }
  const std::int64_t n = numel_of(dst.shape);
  if (n == 0) return;
  check_count(n, op);
  const WebGpuBuffer& out = view_buffer(dst, dst.dtype, op, "destination");
  const WebGpuBuffer& in = view_buffer(src, dst.dtype, op, "source");
  run_view_reduction(backend_, in, src, out, dst, 0, /*accumulate=*/true, op);
}

// Few elements of C, long K: one workgroup per (element, chunk of kTreeReduceChunk depths);
// more than one chunk leaves partial sums (chunk-fastest) for run_reduction to add into C.
void WebGpuContractionKernels::dot_tree(const GemmProblem& g, const WebGpuBuffer& a,
                                        const WebGpuBuffer& b, const WebGpuBuffer& c) {
  constexpr std::string_view op = "gemm";
  const std::int64_t outputs = g.m * g.n * g.batch;
  const std::int64_t chunks = ceil_div(g.k, wgsl::kTreeReduceChunk);
  check_count(outputs * chunks, op);
  std::shared_ptr<Buffer> scratch;
  const WebGpuBuffer* target = &c;
  std::int64_t c_offset = g.c_offset, c_stride_m = g.c_stride_m, c_stride_n = g.c_stride_n,
               c_stride_batch = g.c_stride_batch, c_stride_chunk = 0;
  if (chunks > 1) {
    scratch = backend_.allocate(static_cast<std::size_t>(outputs * chunks) * dtype_size(g.dtype));
    target = &WebGpuBackend::buffer_of(*scratch, "einsum.webgpu.gemm");
    c_offset = 0, c_stride_chunk = 1;
    c_stride_m = chunks, c_stride_n = chunks * g.m, c_stride_batch = chunks * g.m * g.n;
  }
  Params params;
  params.i32(g.m).i32(g.n).i32(g.k).i32(g.batch).i32(chunks);
  params.i32(g.a_offset).i32(g.a_stride_m).i32(g.a_stride_k).i32(g.a_stride_batch);
  params.i32(g.b_offset).i32(g.b_stride_k).i32(g.b_stride_n).i32(g.b_stride_batch);
  params.i32(c_offset).i32(c_stride_m).i32(c_stride_n).i32(c_stride_batch).i32(c_stride_chunk);
  const WebGpuBuffer* buffers[] = {&a, &b, target};
  backend_.dispatch(
      backend_.pipeline(wgsl::source(g.dtype, wgsl::kDotTreeEntry), wgsl::kDotTreeEntry),
      params.words(), buffers, workgroup_grid(outputs * chunks));
  if (chunks == 1) return;
  Reduction r;
  r.dtype = g.dtype;
  r.source.outer_shape = {g.m, g.n, g.batch};
  r.source.src = target;
  r.source.src_outer_strides = {c_stride_m, c_stride_n, c_stride_batch};
  r.source.reduced_shape = {chunks};
  r.source.src_reduced_strides = {1};
  r.dst = &c;
  r.dst_offset = g.c_offset;
  r.dst_strides = {g.c_stride_m, g.c_stride_n, g.c_stride_batch};
  run_reduction(backend_, std::move(r));
}

void WebGpuContractionKernels::gemm(const GemmProblem& g) {
  constexpr std::string_view op = "gemm";
  check_dtype(g.dtype, op);
  if (g.a == nullptr || g.b == nullptr || g.c == nullptr)
    fail(ErrorKind::RuntimeState, op, "missing operand buffer");
  if (g.m < 0 || g.n < 0 || g.k < 0 || g.batch < 0)
    fail(ErrorKind::Validation, op, "negative GEMM extent");
  if (g.m == 0 || g.n == 0 || g.batch == 0) return;
  const WebGpuBuffer& a = WebGpuBackend::buffer_of(*g.a, "einsum.webgpu.gemm");
  const WebGpuBuffer& b = WebGpuBackend::buffer_of(*g.b, "einsum.webgpu.gemm");
  const WebGpuBuffer& c = WebGpuBackend::buffer_of(*g.c, "einsum.webgpu.gemm");
  const std::int64_t a_ext[] = {g.m, g.k, g.batch},
                     a_str[] = {g.a_stride_m, g.a_stride_k, g.a_stride_batch};
  const std::int64_t b_ext[] = {g.k, g.n, g.batch},
                     b_str[] = {g.b_stride_k, g.b_stride_n, g.b_stride_batch};
  const std::int64_t c_ext[] = {g.m, g.n, g.batch},
                     c_str[] = {g.c_stride_m, g.c_stride_n, g.c_stride_batch};
  check_extent(c, g.dtype, g.c_offset, c_ext, c_str, op, "C");
  if (g.k > 0) {
    check_extent(a, g.dtype, g.a_offset, a_ext, a_str, op, "A");
    check_extent(b, g.dtype, g.b_offset, b_ext, b_str, op, "B");
  }
  const std::int64_t tile = wgsl::kGemmBlock;
  const std::int64_t groups_m = (g.m + tile - 1) / tile, groups_n = (g.n + tile - 1) / tile;
  if (groups_m > kMaxGroupsPerDimension || groups_n > kMaxGroupsPerDimension || g.k > kMaxI32) {
    fail(ErrorKind::Unsupported, op,
         "GEMM of " + std::to_string(g.m) + "x" + std::to_string(g.n) + "x" + std::to_string(g.k) +
             " exceeds the WebGPU dispatch limits");
  }

  AliasGuard guard(backend_, c);
  const WebGpuBuffer* a_in = guard.input(a);
  const WebGpuBuffer* b_in = guard.input(b);
  if (g.m * g.n <= wgsl::kDotTreeMaxOutputs && g.k >= wgsl::kDotTreeMinDepth) {
    dot_tree(g, *a_in, *b_in, c);
    return;
  }
  auto* pipeline = backend_.pipeline(wgsl::source(g.dtype, wgsl::kGemmEntry), wgsl::kGemmEntry);
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
      backend_.dispatch(pipeline, params.words(), buffers,
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
      std::min<std::uint64_t>(scratch_budget_bytes_, backend_.max_storage_binding_bytes());
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
  std::shared_ptr<Buffer> scratch = backend_.allocate(static_cast<std::size_t>(per_split * group));
  const WebGpuBuffer& partials = WebGpuBackend::buffer_of(*scratch, "einsum.webgpu.gemm");
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
    Reduction r;
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
    run_reduction(backend_, std::move(r));
  }
}

}  // namespace tenferro::einsum_internal
