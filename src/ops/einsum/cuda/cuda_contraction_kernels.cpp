#include "ops/einsum/cuda/cuda_contraction_kernels.hpp"
#include "backends/cuda/element_of.hpp"

#include <complex>
#include <span>

#include "backends/cuda/cuda_check.hpp"
#include "backends/cuda/strided_layout.hpp"
#include "ops/einsum/program.hpp"

namespace tenferro::einsum_internal {
namespace {

using cuda_detail::cuda_check;
using cuda_layout::coalesce;

bool is_empty(std::span<const std::int64_t> shape) {
  for (auto e : shape)
    if (e == 0) return true;
  return false;
}

[[noreturn]] void bad_matrix(const char* which) {
  throw_error(ErrorKind::RuntimeState, ErrorPhase::Execute, "einsum",
              std::string("internal: GEMM operand ") + which + " is not a BLAS matrix");
}

cublasOperation_t op_of(bool transposed) {
  return transposed ? CUBLAS_OP_T : CUBLAS_OP_N;
}

// One strided-batched GEMM call per dtype. Operands are column-major (op(A) is m x k).
struct GemmCall {
  bool ta, tb;
  std::int64_t m, n, k;
  const void* a;
  std::int64_t lda, stride_a;
  const void* b;
  std::int64_t ldb, stride_b;
  void* c;
  std::int64_t ldc, stride_c, batch;
};

void run_gemm(cublasHandle_t h, DType dtype, const GemmCall& g) {
  const cublasOperation_t ta = op_of(g.ta), tb = op_of(g.tb);
  cublasStatus_t status = CUBLAS_STATUS_SUCCESS;
  switch (dtype) {
    case DType::F32: {
      const float one = 1, zero = 0;
      status = cublasSgemmStridedBatched_64(
          h, ta, tb, g.m, g.n, g.k, &one, static_cast<const float*>(g.a), g.lda, g.stride_a,
          static_cast<const float*>(g.b), g.ldb, g.stride_b, &zero, static_cast<float*>(g.c), g.ldc,
          g.stride_c, g.batch);
      break;
    }
    case DType::F64: {
      const double one = 1, zero = 0;
      status = cublasDgemmStridedBatched_64(
          h, ta, tb, g.m, g.n, g.k, &one, static_cast<const double*>(g.a), g.lda, g.stride_a,
          static_cast<const double*>(g.b), g.ldb, g.stride_b, &zero, static_cast<double*>(g.c),
          g.ldc, g.stride_c, g.batch);
      break;
    }
    case DType::C32: {
      const cuComplex one{1, 0}, zero{0, 0};
      status = cublasCgemmStridedBatched_64(
          h, ta, tb, g.m, g.n, g.k, &one, static_cast<const cuComplex*>(g.a), g.lda, g.stride_a,
          static_cast<const cuComplex*>(g.b), g.ldb, g.stride_b, &zero,
          static_cast<cuComplex*>(g.c), g.ldc, g.stride_c, g.batch);
      break;
    }
    case DType::C64: {
      const cuDoubleComplex one{1, 0}, zero{0, 0};
      status = cublasZgemmStridedBatched_64(
          h, ta, tb, g.m, g.n, g.k, &one, static_cast<const cuDoubleComplex*>(g.a), g.lda,
          g.stride_a, static_cast<const cuDoubleComplex*>(g.b), g.ldb, g.stride_b, &zero,
          static_cast<cuDoubleComplex*>(g.c), g.ldc, g.stride_c, g.batch);
      break;
    }
    default:
      throw_error(ErrorKind::Unsupported, ErrorPhase::Execute, "einsum",
                  "no CUDA GEMM for " + std::string(dtype_name(dtype)));
  }
  cuda_check(status, "einsum.gemm");
}

// The device address of a view's first element (its offset applied).
std::byte* element_at(const CudaBackend& backend, const KernelView& view, std::string_view op) {
  return static_cast<std::byte*>(backend.device_pointer(*view.buffer, op)) +
         view.offset * static_cast<std::int64_t>(dtype_size(view.dtype));
}

}  // namespace

void CudaContractionKernels::copy(const KernelView& src, const KernelView& dst) {
  if (is_empty(dst.shape)) return;
  const auto ix = coalesce<2>(dst.shape, {dst.strides, src.strides});
  const auto size = static_cast<std::int64_t>(dtype_size(dst.dtype));
  auto* d = element_at(backend_, dst, "einsum.copy");
  const auto* s = element_at(backend_, src, "einsum.copy");
  backend_.make_current();
  cuda_check(cuda_kernels::launch_copy(static_cast<int>(size), d, s, ix.index, ix.count,
                                       backend_.stream()),
             "einsum.copy");
}

void CudaContractionKernels::accumulate(const KernelView& src, const KernelView& dst) {
  if (is_empty(dst.shape)) return;
  const auto ix = coalesce<2>(dst.shape, {dst.strides, src.strides});
  auto* d = element_at(backend_, dst, "einsum.accumulate");
  const auto* s = element_at(backend_, src, "einsum.accumulate");
  backend_.make_current();
  cuda_check(cuda_kernels::launch_accumulate(cuda_kernels::element_of(dst.dtype), d, s, ix.index,
                                             ix.count, backend_.stream()),
             "einsum.accumulate");
}

void CudaContractionKernels::sum_trailing(const KernelView& src, const KernelView& dst,
                                          int reduced_rank) {
  if (is_empty(dst.shape)) return;
  if (is_empty(src.shape)) return fill_zero(dst);  // an empty sum is zero
  const std::size_t kept_rank = dst.shape.size();
  if (src.shape.size() != kept_rank + static_cast<std::size_t>(reduced_rank))
    throw_error(ErrorKind::RuntimeState, ErrorPhase::Execute, "einsum.sum",
                "internal: source rank is not kept + reduced rank");
  const std::span<const std::int64_t> src_kept(src.strides.data(), kept_rank);
  const std::span<const std::int64_t> reduced_shape = std::span(src.shape).subspan(kept_rank);
  const std::span<const std::int64_t> reduced_strides = std::span(src.strides).subspan(kept_rank);
  const auto kept = coalesce<2>(dst.shape, {dst.strides, src_kept});
  const auto reduced = coalesce<1>(reduced_shape, {reduced_strides});
  auto* d = element_at(backend_, dst, "einsum.sum");
  const auto* s = element_at(backend_, src, "einsum.sum");
  backend_.make_current();
  cuda_check(cuda_kernels::launch_sum(cuda_kernels::element_of(dst.dtype), d, s, kept.index,
                                      kept.count, reduced.index, reduced.count, backend_.stream()),
             "einsum.sum");
}

void CudaContractionKernels::multiply(const KernelView& a, const KernelView& b,
                                      const KernelView& dst) {
  if (is_empty(dst.shape)) return;
  const auto ix = coalesce<3>(dst.shape, {dst.strides, a.strides, b.strides});
  auto* d = element_at(backend_, dst, "einsum.multiply");
  const auto* pa = element_at(backend_, a, "einsum.multiply");
  const auto* pb = element_at(backend_, b, "einsum.multiply");
  backend_.make_current();
  cuda_check(cuda_kernels::launch_multiply(cuda_kernels::element_of(dst.dtype), d, pa, pb, ix.index,
                                           ix.count, backend_.stream()),
             "einsum.multiply");
}

void CudaContractionKernels::fill_zero(const KernelView& dst) {
  if (is_empty(dst.shape)) return;
  const auto ix = coalesce<1>(dst.shape, {dst.strides});
  const auto size = static_cast<std::int64_t>(dtype_size(dst.dtype));
  auto* d = element_at(backend_, dst, "einsum.fill_zero");
  backend_.make_current();
  if (ix.index.rank <= 1 && (ix.index.rank == 0 || ix.index.stride[0][0] == 1)) {
    // One contiguous run: a memset (all-zero bits are 0.0 and 0+0i).
    cuda_check(cudaMemsetAsync(d, 0, static_cast<std::size_t>(ix.count * size), backend_.stream()),
               "einsum.fill_zero");
    return;
  }
  cuda_check(cuda_kernels::launch_fill_zero(static_cast<int>(size), d, ix.index, ix.count,
                                            backend_.stream()),
             "einsum.fill_zero");
}

void CudaContractionKernels::gemm(const GemmProblem& p) {
  if (p.m == 0 || p.n == 0 || p.batch == 0) return;
  if (p.k == 0) {
    fill_zero(KernelView{p.c,
                         p.dtype,
                         {p.m, p.n, p.batch},
                         {p.c_stride_m, p.c_stride_n, p.c_stride_batch},
                         p.c_offset});
    return;
  }
  const BlasMatrix am = blas_matrix(p.m, p.k, p.a_stride_m, p.a_stride_k);
  const BlasMatrix bm = blas_matrix(p.k, p.n, p.b_stride_k, p.b_stride_n);
  const BlasMatrix cm = blas_matrix(p.m, p.n, p.c_stride_m, p.c_stride_n);
  if (!am.ok) bad_matrix("A");
  if (!bm.ok) bad_matrix("B");
  if (!cm.ok) bad_matrix("C");
  const auto size = static_cast<std::int64_t>(dtype_size(p.dtype));
  const auto* a = static_cast<const std::byte*>(backend_.device_pointer(*p.a, "einsum.gemm")) +
                  p.a_offset * size;
  const auto* b = static_cast<const std::byte*>(backend_.device_pointer(*p.b, "einsum.gemm")) +
                  p.b_offset * size;
  auto* c =
      static_cast<std::byte*>(backend_.device_pointer(*p.c, "einsum.gemm")) + p.c_offset * size;
  // A batch of one needs no batch strides; cuBLAS accepts any value there.
  const std::int64_t sa = p.batch > 1 ? p.a_stride_batch : 0;
  const std::int64_t sb = p.batch > 1 ? p.b_stride_batch : 0;
  const std::int64_t sc = p.batch > 1 ? p.c_stride_batch : 0;
  backend_.make_current();
  cublasHandle_t handle = backend_.cublas();
  if (!cm.transposed) {
    run_gemm(handle, p.dtype,
             GemmCall{am.transposed, bm.transposed, p.m, p.n, p.k, a, am.ld, sa, b, bm.ld, sb, c,
                      cm.ld, sc, p.batch});
  } else {  // C^T = op(B)^T op(A)^T, with C^T column-major
    run_gemm(handle, p.dtype,
             GemmCall{!bm.transposed, !am.transposed, p.n, p.m, p.k, b, bm.ld, sb, a, am.ld, sa, c,
                      cm.ld, sc, p.batch});
  }
}

}  // namespace tenferro::einsum_internal
