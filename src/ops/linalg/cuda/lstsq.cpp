// lstsq on CUDA for full-rank A, per batch entry, like LAPACK's gels:
//   m >= n: A = Q R (geqrf); X = R^-1 (Q^H B)[:n] (ormqr/unmqr, then trsm);
//   m <  n: A^H = Q R, so A = R^H Q^H; the minimum-norm X = Q [y; 0] with R^H y = B.
// A zero on R's diagonal (rank deficiency) is a Numerical error, as on the CPU; it is found
// by a kernel and reported after the call's one status read-back.
#include <algorithm>
#include <type_traits>

#include "ops/einsum/cuda/strided_layout.hpp"
#include "ops/linalg/cuda/cuda_linalg_call.hpp"
#include "ops/linalg/cuda/cusolver_calls.hpp"
#include "ops/linalg/cuda/linalg_kernels.hpp"
#include "tenferro/runtime/runtime.hpp"

namespace tenferro::linalg_cuda {
namespace {

using cuda_detail::cuda_check;
using linalg_internal::concat;

template <class T>
cublasStatus_t trsm(cublasHandle_t h, cublasOperation_t op, std::int64_t m, std::int64_t n,
                    const T* a, std::int64_t lda, T* b, std::int64_t ldb) {
  const cublasSideMode_t left = CUBLAS_SIDE_LEFT;
  const cublasFillMode_t upper = CUBLAS_FILL_MODE_UPPER;
  const cublasDiagType_t diag = CUBLAS_DIAG_NON_UNIT;
  if constexpr (std::is_same_v<T, float>) {
    const float one = 1;
    return cublasStrsm_64(h, left, upper, op, diag, m, n, &one, a, lda, b, ldb);
  } else if constexpr (std::is_same_v<T, double>) {
    const double one = 1;
    return cublasDtrsm_64(h, left, upper, op, diag, m, n, &one, a, lda, b, ldb);
  } else if constexpr (std::is_same_v<T, cuComplex>) {
    const cuComplex one{1, 0};
    return cublasCtrsm_64(h, left, upper, op, diag, m, n, &one, a, lda, b, ldb);
  } else {
    const cuDoubleComplex one{1, 0};
    return cublasZtrsm_64(h, left, upper, op, diag, m, n, &one, a, lda, b, ldb);
  }
}

template <class T>
constexpr cublasOperation_t adjoint_op() {
  return std::is_same_v<T, float> || std::is_same_v<T, double> ? CUBLAS_OP_T : CUBLAS_OP_C;
}

template <class T>
std::vector<EagerTensor> lstsq_typed(const CudaCall& call, const EagerTensor& a,
                                     const EagerTensor& b_in) {
  constexpr auto element = Types<T>::kElement;
  const auto d = linalg_internal::matrix_dims(a.shape());
  const std::int64_t m = d.rows, n = d.cols;
  const bool vector = b_in.rank() + 1 == a.rank();
  const std::int64_t nrhs = vector ? 1 : b_in.shape()[1];
  EagerTensor x = call.ctx.allocate(
      a.dtype(), vector ? concat({n}, d.batch_shape) : concat({n, nrhs}, d.batch_shape));
  if (x.numel() > 0) {
    cuda_check(cudaMemsetAsync(call.data<T>(x), 0, x.numel() * sizeof(T), call.stream()),
               call.op_name());
  }
  // With m == 0 or n == 0 the minimum-norm solution is zero; with nrhs == 0 it is empty.
  if (m == 0 || n == 0 || nrhs == 0 || d.batch == 0) return {x};

  const int im = as_int(call, m, "rows"), in = as_int(call, n, "columns");
  const int inrhs = as_int(call, nrhs, "right-hand sides");
  const std::int64_t ldb = std::max(m, n), k = std::min(m, n);
  // W [ldb, nrhs, batch]: B in its first m rows, zeros below (the minimum-norm padding).
  EagerTensor w = call.ctx.allocate(a.dtype(), Shape{ldb, nrhs, d.batch});
  T* wp = call.data<T>(w);
  cuda_check(cudaMemsetAsync(wp, 0, w.numel() * sizeof(T), call.stream()), call.op_name());
  {
    Strides dst{1};
    if (!vector) dst.push_back(ldb);
    std::int64_t stride = ldb * nrhs;
    for (std::int64_t e : d.batch_shape) {
      dst.push_back(stride);
      stride *= e;
    }
    const auto ix =
        einsum_internal::cuda_layout::coalesce<2>(b_in.shape(), {&dst, &b_in.strides()});
    cuda_check(cuda_kernels::launch_copy(sizeof(T), wp, call.data<T>(b_in), ix.index, ix.count,
                                         call.stream()),
               call.op_name());
  }
  EagerTensor a_compact = compact(call, a);
  const DeviceStatus status(call, 3 * d.batch);  // zero-diagonal, geqrf, ormqr per entry
  status.check_finite(element, call.data<T>(a_compact), m * n, m * n, d.batch);
  status.check_finite(element, wp, ldb * nrhs, ldb * nrhs, d.batch);

  // The matrix geqrf factors: A itself (m >= n) or A^H (m < n); rows x k with k = min(m, n).
  const bool tall = m >= n;
  EagerTensor f = a_compact;
  if (!tall) {
    f = call.ctx.allocate(a.dtype(), Shape{n, m, d.batch});
    cuda_check(cuda_kernels::launch_adjoint(element, call.data<T>(a_compact), m, m * n,
                                            call.data<T>(f), n, m, d.batch, call.stream()),
               call.op_name());
  }
  const std::int64_t rows = tall ? m : n;
  const int irows = tall ? im : in, ik = static_cast<int>(k);
  T* fp = call.data<T>(f);
  EagerTensor tau = call.ctx.allocate(a.dtype(), Shape{k * d.batch});
  T* taup = call.data<T>(tau);
  cusolverDnHandle_t h = call.backend.cusolver();
  const cublasOperation_t q_op = tall ? adjoint_op<T>() : CUBLAS_OP_N;
  int lwork_qr = 0, lwork_orm = 0;
  cuda_check(cusolver::geqrf_buffer(h, irows, ik, fp, irows, &lwork_qr), call.op_name());
  cuda_check(cusolver::ormqr_buffer(h, CUBLAS_SIDE_LEFT, q_op, irows, inrhs, ik, fp, irows, taup,
                                    wp, static_cast<int>(ldb), &lwork_orm),
             call.op_name());
  const int lwork = std::max({lwork_qr, lwork_orm, 1});
  EagerTensor workspace = call.ctx.allocate(a.dtype(), Shape{lwork});
  T* ws = call.data<T>(workspace);
  for (std::int64_t b = 0; b < d.batch; ++b) {
    cuda_check(cusolver::geqrf(h, irows, ik, fp + b * rows * k, irows, taup + b * k, ws, lwork,
                               status.info(d.batch + 2 * b)),
               call.op_name());
  }
  cuda_check(cuda_kernels::launch_zero_diagonal_info(element, fp, k, rows, rows * k, d.batch,
                                                     status.info(0), 1, call.stream()),
             call.op_name());
  cublasHandle_t blas = call.backend.cublas();
  for (std::int64_t b = 0; b < d.batch; ++b) {
    T* fb = fp + b * rows * k;
    T* wb = wp + b * ldb * nrhs;
    int* orm_info = status.info(d.batch + 2 * b + 1);
    if (tall) {  // Q^H B, then R X = (Q^H B)[:n]
      cuda_check(cusolver::ormqr(h, CUBLAS_SIDE_LEFT, q_op, im, inrhs, ik, fb, im, taup + b * k, wb,
                                 static_cast<int>(ldb), ws, lwork, orm_info),
                 call.op_name());
      cuda_check(trsm<T>(blas, CUBLAS_OP_N, n, nrhs, fb, m, wb, ldb), call.op_name());
    } else {  // R^H y = B, then X = Q [y; 0]
      cuda_check(trsm<T>(blas, adjoint_op<T>(), m, nrhs, fb, n, wb, ldb), call.op_name());
      cuda_check(cusolver::ormqr(h, CUBLAS_SIDE_LEFT, q_op, in, inrhs, ik, fb, in, taup + b * k, wb,
                                 static_cast<int>(ldb), ws, lwork, orm_info),
                 call.op_name());
    }
  }
  {  // X = W[:n]
    const Shape view{n, nrhs, d.batch};
    const Strides src{1, ldb, ldb * nrhs}, dst{1, n, n * nrhs};
    const auto ix = einsum_internal::cuda_layout::coalesce<2>(view, {&dst, &src});
    cuda_check(cuda_kernels::launch_copy(sizeof(T), call.data<T>(x), wp, ix.index, ix.count,
                                         call.stream()),
               call.op_name());
  }
  const std::vector<int> info = status.finish(d.batch_shape, "A or B");
  for (std::int64_t b = 0; b < d.batch; ++b) {
    const int qr_info = info[static_cast<std::size_t>(d.batch + 2 * b)];
    const int orm_info = info[static_cast<std::size_t>(d.batch + 2 * b + 1)];
    if (qr_info < 0) throw_info_argument(call, "geqrf", qr_info);
    if (orm_info < 0) throw_info_argument(call, "ormqr/unmqr", orm_info);
    const int zero = info[static_cast<std::size_t>(b)];
    if (zero > 0) {
      throw_numerical(call, b, d.batch_shape,
                      "A does not have full rank (diagonal entry " + std::to_string(zero - 1) +
                          " of its triangular factor is zero); lstsq needs a full-rank A");
    }
  }
  return {x};
}

}  // namespace

std::vector<EagerTensor> run_lstsq(const CudaCall& call, Inputs inputs) {
  return visit_cuda_type(inputs[0].dtype(), [&](auto zero) {
    return lstsq_typed<decltype(zero)>(call, inputs[0], inputs[1]);
  });
}

}  // namespace tenferro::linalg_cuda
