// triangular_solve on CUDA with cuBLAS trsm, which solves both sides directly: op(A) X = B
// (left) or X op(A) = B (right), in place on a compact copy of B. trsm does not test for a
// zero diagonal, so a kernel records the first one per batch entry and it is reported (a
// Numerical error, as on the CPU) after the call's one status read-back.
#include <algorithm>

#include "ops/linalg/cuda/cuda_linalg_call.hpp"
#include "ops/linalg/cuda/linalg_kernels.hpp"
#include "tenferro/runtime/runtime.hpp"

namespace tenferro::linalg_cuda {
namespace {

using cuda_detail::cuda_check;
using linalg::TriangularOp;

cublasStatus_t trsm(cublasHandle_t h, cublasSideMode_t side, cublasFillMode_t uplo,
                    cublasOperation_t op, cublasDiagType_t diag, std::int64_t m, std::int64_t n,
                    const float* a, std::int64_t lda, float* b, std::int64_t ldb) {
  const float one = 1;
  return cublasStrsm_64(h, side, uplo, op, diag, m, n, &one, a, lda, b, ldb);
}
cublasStatus_t trsm(cublasHandle_t h, cublasSideMode_t side, cublasFillMode_t uplo,
                    cublasOperation_t op, cublasDiagType_t diag, std::int64_t m, std::int64_t n,
                    const double* a, std::int64_t lda, double* b, std::int64_t ldb) {
  const double one = 1;
  return cublasDtrsm_64(h, side, uplo, op, diag, m, n, &one, a, lda, b, ldb);
}
cublasStatus_t trsm(cublasHandle_t h, cublasSideMode_t side, cublasFillMode_t uplo,
                    cublasOperation_t op, cublasDiagType_t diag, std::int64_t m, std::int64_t n,
                    const cuComplex* a, std::int64_t lda, cuComplex* b, std::int64_t ldb) {
  const cuComplex one{1, 0};
  return cublasCtrsm_64(h, side, uplo, op, diag, m, n, &one, a, lda, b, ldb);
}
cublasStatus_t trsm(cublasHandle_t h, cublasSideMode_t side, cublasFillMode_t uplo,
                    cublasOperation_t op, cublasDiagType_t diag, std::int64_t m, std::int64_t n,
                    const cuDoubleComplex* a, std::int64_t lda, cuDoubleComplex* b,
                    std::int64_t ldb) {
  const cuDoubleComplex one{1, 0};
  return cublasZtrsm_64(h, side, uplo, op, diag, m, n, &one, a, lda, b, ldb);
}

cublasOperation_t op_of(TriangularOp t) {
  switch (t) {
    case TriangularOp::None:
      return CUBLAS_OP_N;
    case TriangularOp::Transpose:
      return CUBLAS_OP_T;
    case TriangularOp::ConjugateTranspose:
      return CUBLAS_OP_C;
  }
  return CUBLAS_OP_N;
}

template <class T>
std::vector<EagerTensor> triangular_solve_typed(const CudaCall& call, const EagerTensor& a,
                                                const EagerTensor& b_in) {
  constexpr auto element = Types<T>::kElement;
  const auto& opt = call.op.payload().triangular;
  const auto d = linalg_internal::matrix_dims(a.shape());
  const std::int64_t n = d.rows;
  const bool vector = b_in.rank() + 1 == a.rank();
  // k right-hand sides: columns of B (left) or rows of B (right; a vector is one row).
  const std::int64_t k = vector ? 1 : (opt.left ? b_in.shape()[1] : b_in.shape()[0]);
  EagerTensor x = compact(call, b_in);
  if (n == 0 || k == 0 || d.batch == 0) return {x};
  EagerTensor ac = compact(call, a);
  const T* ap = call.data<T>(ac);
  T* xp = call.data<T>(x);
  const DeviceStatus status(call, d.batch);
  cuda_check(cuda_kernels::launch_first_nonfinite_triangle(element, ap, n, d.batch, opt.lower,
                                                           !opt.unit_diagonal,
                                                           status.first_nonfinite(), call.stream()),
             call.op_name());
  status.check_finite(element, xp, n * k, n * k, d.batch);
  if (!opt.unit_diagonal) {
    cuda_check(cuda_kernels::launch_zero_diagonal_info(element, ap, n, n, n * n, d.batch,
                                                       status.info(0), 1, call.stream()),
               call.op_name());
  }
  cublasHandle_t h = call.backend.cublas();
  const cublasSideMode_t side = opt.left ? CUBLAS_SIDE_LEFT : CUBLAS_SIDE_RIGHT;
  const cublasFillMode_t uplo = opt.lower ? CUBLAS_FILL_MODE_LOWER : CUBLAS_FILL_MODE_UPPER;
  const cublasDiagType_t diag = opt.unit_diagonal ? CUBLAS_DIAG_UNIT : CUBLAS_DIAG_NON_UNIT;
  const std::int64_t rows = opt.left ? n : k, cols = opt.left ? k : n;
  for (std::int64_t b = 0; b < d.batch; ++b) {
    cuda_check(trsm(h, side, uplo, op_of(opt.transpose), diag, rows, cols, ap + b * n * n, n,
                    xp + b * n * k, rows),
               call.op_name());
  }
  const std::vector<int> info = status.finish(d.batch_shape, "A or B");
  for (std::size_t b = 0; b < info.size(); ++b) {
    if (info[b] > 0)
      throw_numerical(
          call, static_cast<std::int64_t>(b), d.batch_shape,
          "A is singular (its diagonal entry " + std::to_string(info[b] - 1) + " is zero)");
  }
  return {x};
}

}  // namespace

std::vector<EagerTensor> run_triangular_solve(const CudaCall& call, Inputs inputs) {
  return visit_cuda_type(inputs[0].dtype(), [&](auto zero) {
    return triangular_solve_typed<decltype(zero)>(call, inputs[0], inputs[1]);
  });
}

}  // namespace tenferro::linalg_cuda
