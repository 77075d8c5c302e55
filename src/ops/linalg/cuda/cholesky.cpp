// Cholesky on CUDA: potrf on the lower triangle per batch entry, the strict upper triangle
// zeroed by a kernel; a matrix that is not positive definite is a Numerical error naming the
// batch entry and the failing leading minor. One status read-back per call.
#include <algorithm>

#include "ops/linalg/cuda/cuda_linalg_call.hpp"
#include "ops/linalg/cuda/cusolver_calls.hpp"
#include "ops/linalg/cuda/linalg_kernels.hpp"
#include "tenferro/runtime/runtime.hpp"

namespace tenferro::linalg_cuda {
namespace {

using cuda_detail::cuda_check;

template <class T>
std::vector<EagerTensor> cholesky_typed(const CudaCall& call, const EagerTensor& a) {
  constexpr auto element = Types<T>::kElement;
  const auto d = linalg_internal::matrix_dims(a.shape());
  const std::int64_t n = d.rows;
  EagerTensor l = compact(call, a);
  if (n == 0 || d.batch == 0) return {l};
  const int in = as_int(call, n, "rows");
  T* lp = call.data<T>(l);
  const DeviceStatus status(call, d.batch);
  cuda_check(cuda_kernels::launch_first_nonfinite_triangle(element, lp, n, d.batch, true, true,
                                                           status.first_nonfinite(), call.stream()),
             call.op_name());
  cusolverDnHandle_t h = call.backend.cusolver();
  int lwork = 0;
  cuda_check(cusolver::potrf_buffer(h, CUBLAS_FILL_MODE_LOWER, in, lp, in, &lwork), call.op_name());
  EagerTensor workspace = call.ctx.allocate(a.dtype(), Shape{std::max(lwork, 1)});
  for (std::int64_t b = 0; b < d.batch; ++b) {
    cuda_check(cusolver::potrf(h, CUBLAS_FILL_MODE_LOWER, in, lp + b * n * n, in,
                               call.data<T>(workspace), lwork, status.info(b)),
               call.op_name());
  }
  cuda_check(cuda_kernels::launch_zero_strict_upper(element, lp, n, d.batch, call.stream()),
             call.op_name());
  const std::vector<int> info = status.finish(d.batch_shape, "A");
  for (std::size_t b = 0; b < info.size(); ++b) {
    if (info[b] < 0) throw_info_argument(call, "potrf", info[b]);
    if (info[b] > 0)
      throw_numerical(call, static_cast<std::int64_t>(b), d.batch_shape,
                      "A is not positive definite (its leading minor of order " +
                          std::to_string(info[b]) + " is not positive)");
  }
  return {l};
}

}  // namespace

std::vector<EagerTensor> run_cholesky(const CudaCall& call, Inputs inputs) {
  return visit_cuda_type(inputs[0].dtype(), [&](auto zero) {
    return cholesky_typed<decltype(zero)>(call, inputs[0]);
  });
}

}  // namespace tenferro::linalg_cuda
