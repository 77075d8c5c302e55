// lstsq on CUDA from the SVD, with the CPU's (gelsd's) semantics: A = U diag(s) V^H (the thin
// SVD from svd_solvers), singular values s_i <= rcond * s_max count as zero, and
//   X = V diag(1/s_i kept, 0 cut) U^H B,
// the minimum-norm least-squares solution, for tall, wide and rank-deficient A alike. The
// cut and the rank are computed on the device (lstsq_kernels.cu), the two products are
// strided-batched cuBLAS GEMMs, and the call's one status read-back reports non-finite input
// and the SVD's info values. (A QR-based solve, as gels, divides by the tiny diagonal of R
// of a numerically rank-deficient A and returns garbage; that is why this is SVD-based.)
#include <algorithm>
#include <limits>

#include "ops/linalg/cuda/cuda_linalg_call.hpp"
#include "ops/linalg/cuda/lstsq_kernels.hpp"
#include "ops/linalg/cuda/svd_solvers.hpp"
#include "tenferro/runtime/runtime.hpp"

namespace tenferro::linalg_cuda {
namespace {

using cuda_detail::cuda_check;
using linalg_internal::concat;

// C = A^H B for every batch entry (column-major; op(A) = A^H is m x k, B is k x n, C is
// m x n). For the real types cuBLAS reads CUBLAS_OP_C as the transpose.
struct AdjointGemm {
  std::int64_t m, n, k;
  std::int64_t lda, stride_a, ldb, stride_b, ldc, stride_c, batch;
};
cublasStatus_t adjoint_gemm(cublasHandle_t h, const AdjointGemm& g, const float* a, const float* b,
                            float* c) {
  const float one = 1, zero = 0;
  return cublasSgemmStridedBatched_64(h, CUBLAS_OP_C, CUBLAS_OP_N, g.m, g.n, g.k, &one, a, g.lda,
                                      g.stride_a, b, g.ldb, g.stride_b, &zero, c, g.ldc, g.stride_c,
                                      g.batch);
}
cublasStatus_t adjoint_gemm(cublasHandle_t h, const AdjointGemm& g, const double* a,
                            const double* b, double* c) {
  const double one = 1, zero = 0;
  return cublasDgemmStridedBatched_64(h, CUBLAS_OP_C, CUBLAS_OP_N, g.m, g.n, g.k, &one, a, g.lda,
                                      g.stride_a, b, g.ldb, g.stride_b, &zero, c, g.ldc, g.stride_c,
                                      g.batch);
}
cublasStatus_t adjoint_gemm(cublasHandle_t h, const AdjointGemm& g, const cuComplex* a,
                            const cuComplex* b, cuComplex* c) {
  const cuComplex one{1, 0}, zero{0, 0};
  return cublasCgemmStridedBatched_64(h, CUBLAS_OP_C, CUBLAS_OP_N, g.m, g.n, g.k, &one, a, g.lda,
                                      g.stride_a, b, g.ldb, g.stride_b, &zero, c, g.ldc, g.stride_c,
                                      g.batch);
}
cublasStatus_t adjoint_gemm(cublasHandle_t h, const AdjointGemm& g, const cuDoubleComplex* a,
                            const cuDoubleComplex* b, cuDoubleComplex* c) {
  const cuDoubleComplex one{1, 0}, zero{0, 0};
  return cublasZgemmStridedBatched_64(h, CUBLAS_OP_C, CUBLAS_OP_N, g.m, g.n, g.k, &one, a, g.lda,
                                      g.stride_a, b, g.ldb, g.stride_b, &zero, c, g.ldc, g.stride_c,
                                      g.batch);
}

// All-zero bits are 0 for every dtype (real and complex).
template <class E>
void fill_zero(const CudaCall& call, const EagerTensor& t) {
  if (t.numel() == 0) return;
  cuda_check(cudaMemsetAsync(call.data<E>(t), 0, static_cast<std::size_t>(t.numel()) * sizeof(E),
                             call.stream()),
             call.op_name());
}

template <class T>
std::vector<EagerTensor> lstsq_typed(const CudaCall& call, const EagerTensor& a,
                                     const EagerTensor& b_in) {
  using R = typename Types<T>::Real;
  constexpr auto element = Types<T>::kElement;
  const auto md = linalg_internal::matrix_dims(a.shape());
  const std::int64_t m = md.rows, n = md.cols, k = std::min(m, n), batch = md.batch;
  const bool vector = b_in.rank() + 1 == a.rank();
  const std::int64_t nrhs = vector ? 1 : b_in.shape()[1];
  const DType real = real_dtype(a.dtype());
  // All three compact: x [n, nrhs, batch] (a vector x is the nrhs = 1 case), s [k, batch].
  EagerTensor x = call.ctx.allocate(
      a.dtype(), vector ? concat({n}, md.batch_shape) : concat({n, nrhs}, md.batch_shape));
  EagerTensor rank = call.ctx.allocate(real, md.batch_shape);
  EagerTensor s = call.ctx.allocate(real, concat({k}, md.batch_shape));
  if (batch == 0) return {x, rank, s};
  const EagerTensor bc = compact(call, b_in);                 // [m, nrhs, batch]
  const T* bp = bc.numel() > 0 ? call.data<T>(bc) : nullptr;  // none: m == 0 or nrhs == 0
  if (k == 0) {
    // A has rank 0 and the minimum-norm solution is zero; B is still checked, as on the CPU.
    fill_zero<T>(call, x);
    fill_zero<R>(call, rank);
    if (m * nrhs > 0) {
      const DeviceStatus status(call, 0);
      status.check_finite(element, bp, m * nrhs, m * nrhs, batch);
      (void)status.finish(md.batch_shape, "B");
    }
    return {x, rank, s};
  }

  as_int(call, batch, "batch");
  SvdDims d;
  d.m = m;
  d.n = n;
  d.k = k;
  d.batch = batch;
  d.uv = true;
  d.full = false;                               // thin: U [m, k], Vh [k, n]
  EagerTensor work = compact_copy(call, a, n);  // [m, n, batch], overwritten by the solver
  T* w = call.data<T>(work);
  // Slots 0..batch-1: the SVD's info per entry.
  const DeviceStatus status(call, batch);
  status.check_finite(element, w, m * n, m * n, batch);
  status.check_finite(element, bp, m * nrhs, m * nrhs, batch);
  EagerTensor u = call.ctx.allocate(a.dtype(), Shape{m, k, batch});
  EagerTensor vh = call.ctx.allocate(a.dtype(), Shape{k, n, batch});
  const SvdTargets<T> targets{call.data<R>(s), call.data<T>(u), call.data<T>(vh)};
  const JacobiParams params(call);  // outlives the read-back below
  const char* routine = queue_svd<T>(call, d, w, targets, status, params);

  // NumPy's default cutoff, the value the CPU hands to gelsd.
  const double rcond = call.op.payload().lstsq.rcond.value_or(
      static_cast<double>(std::numeric_limits<R>::epsilon()) * static_cast<double>(std::max(m, n)));
  EagerTensor cutoff = call.ctx.allocate(real, Shape{batch});
  cuda_check(
      cuda_kernels::launch_lstsq_rank(sizeof(R) == sizeof(double), targets.s, k, batch, rcond,
                                      call.data<R>(cutoff), call.data<R>(rank), call.stream()),
      call.op_name());
  if (nrhs > 0) {
    cublasHandle_t h = call.backend.cublas();
    // C [k, nrhs] = U^H B, then C = diag(1/s, cut) C, then X [n, nrhs] = (Vh)^H C = V C.
    EagerTensor c = call.ctx.allocate(a.dtype(), Shape{k, nrhs, batch});
    T* cp = call.data<T>(c);
    const AdjointGemm uhb{k, nrhs, m, m, m * k, m, m * nrhs, k, k * nrhs, batch};
    cuda_check(adjoint_gemm(h, uhb, call.data<T>(u), bp, cp), call.op_name());
    cuda_check(cuda_kernels::launch_lstsq_scale(element, cp, targets.s, call.data<R>(cutoff), k,
                                                nrhs, batch, call.stream()),
               call.op_name());
    const AdjointGemm vc{n, nrhs, k, k, k * n, k, k * nrhs, n, n * nrhs, batch};
    cuda_check(adjoint_gemm(h, vc, call.data<T>(vh), cp, call.data<T>(x)), call.op_name());
  }
  check_svd_info(call, status.finish(md.batch_shape, "A or B"), batch, md.batch_shape, routine);
  return {x, rank, s};
}

}  // namespace

std::vector<EagerTensor> run_lstsq(const CudaCall& call, Inputs inputs) {
  return visit_cuda_type(inputs[0].dtype(), [&](auto zero) {
    return lstsq_typed<decltype(zero)>(call, inputs[0], inputs[1]);
  });
}

}  // namespace tenferro::linalg_cuda
