// einsum's contraction primitives on WebGPU: each validates its views against their buffers
// (typed errors naming einsum's kernel) and queues the backend's strided kernels
// (backends/webgpu: the map, the sums, GEMM).
#include "ops/einsum/webgpu/webgpu_contraction_kernels.hpp"

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "backends/webgpu/webgpu_gemm.hpp"
#include "backends/webgpu/webgpu_strided_map.hpp"
#include "backends/webgpu/webgpu_strided_sum.hpp"
#include "backends/webgpu/wgsl_strided_kernels.hpp"
#include "ops/einsum/webgpu/webgpu_kernel_launch.hpp"
#include "tenferro/core/error.hpp"
#include "tenferro/core/shape.hpp"

namespace tenferro::einsum_internal {

using namespace webgpu_launch;
using tenferro::webgpu_launch::AliasGuard;
namespace wgsl = webgpu_kernels::wgsl;

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

// The sum both sum_trailing and accumulate run, from views the caller has matched:
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
  webgpu_kernels::Sum r;
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
  webgpu_kernels::run_sum(backend, std::move(r), "einsum.webgpu." + std::string(op));
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
  webgpu_kernels::GemmProblem p;
  p.dtype = g.dtype;
  p.m = g.m, p.n = g.n, p.k = g.k, p.batch = g.batch;
  p.a = &a, p.a_offset = g.a_offset, p.a_stride_m = g.a_stride_m, p.a_stride_k = g.a_stride_k;
  p.a_stride_batch = g.a_stride_batch;
  p.b = &b, p.b_offset = g.b_offset, p.b_stride_k = g.b_stride_k, p.b_stride_n = g.b_stride_n;
  p.b_stride_batch = g.b_stride_batch;
  p.c = &c, p.c_offset = g.c_offset, p.c_stride_m = g.c_stride_m, p.c_stride_n = g.c_stride_n;
  p.c_stride_batch = g.c_stride_batch;
  webgpu_kernels::gemm(backend_, p, scratch_budget_bytes_, "einsum.webgpu.gemm");
}

}  // namespace tenferro::einsum_internal
