// solve(A, B) and inv(A) on CUDA: getrf + getrs per batch entry (inv solves against the
// identity); an exactly singular A is a Numerical error naming the batch entry. One status
// read-back per call.
#include <algorithm>

#include "ops/linalg/cuda/cuda_linalg_call.hpp"
#include "ops/linalg/cuda/cusolver_calls.hpp"
#include "ops/linalg/cuda/linalg_kernels.hpp"
#include "tenferro/runtime/runtime.hpp"

namespace tenferro::linalg_cuda {
namespace {

using cuda_detail::cuda_check;

// Overwrites x (compact [n, nrhs, batch]) with A^-1 x. `a` is consumed (becomes its LU).
template <class T>
void lu_solve(const CudaCall& call, const EagerTensor& a, std::int64_t n, std::int64_t batch,
              const Shape& batch_shape, const EagerTensor& x, std::int64_t nrhs,
              const char* rhs_name) {
  constexpr auto element = Types<T>::kElement;
  const int in = as_int(call, n, "rows"), inrhs = as_int(call, nrhs, "right-hand sides");
  T* ap = call.data<T>(a);
  T* xp = call.data<T>(x);
  const DeviceStatus status(call, 2 * batch);
  status.check_finite(element, ap, n * n, n * n, batch);
  if (rhs_name) status.check_finite(element, xp, n * nrhs, n * nrhs, batch);
  cusolverDnHandle_t h = call.backend.cusolver();
  int lwork = 0;
  cuda_check(cusolver::getrf_buffer(h, in, in, ap, in, &lwork), call.op_name());
  EagerTensor workspace = call.ctx.allocate(a.dtype(), Shape{std::max(lwork, 1)});
  EagerTensor pivots = call.ctx.allocate(DType::F32, Shape{n * batch});  // int storage
  int* ipiv = static_cast<int*>(call.backend.device_pointer(*pivots.buffer(), call.op.name()));
  for (std::int64_t b = 0; b < batch; ++b) {
    cuda_check(cusolver::getrf(h, in, in, ap + b * n * n, in, call.data<T>(workspace), ipiv + b * n,
                               status.info(2 * b)),
               call.op_name());
    if (nrhs > 0) {
      cuda_check(cusolver::getrs(h, CUBLAS_OP_N, in, inrhs, ap + b * n * n, in, ipiv + b * n,
                                 xp + b * n * nrhs, in, status.info(2 * b + 1)),
                 call.op_name());
    }
  }
  const std::vector<int> info = status.finish(batch_shape, "A");
  for (std::size_t i = 0; i < info.size(); ++i) {
    const bool factor = i % 2 == 0;
    if (info[i] < 0) throw_info_argument(call, factor ? "getrf" : "getrs", info[i]);
    if (factor && info[i] > 0) {
      throw_numerical(call, static_cast<std::int64_t>(i / 2), batch_shape,
                      "A is singular (U(" + std::to_string(info[i] - 1) + ", " +
                          std::to_string(info[i] - 1) +
                          ") of its LU factorisation is exactly zero)");
    }
  }
}

template <class T>
std::vector<EagerTensor> solve_typed(const CudaCall& call, const EagerTensor& a,
                                     const EagerTensor& b) {
  const auto d = linalg_internal::matrix_dims(a.shape());
  const std::int64_t n = d.rows;
  const bool vector = b.rank() + 1 == a.rank();
  const std::int64_t nrhs = vector ? 1 : b.shape()[1];
  EagerTensor x = compact(call, b);  // getrs overwrites B with X
  if (n == 0 || d.batch == 0) return {x};
  EagerTensor lu = compact(call, a);
  lu_solve<T>(call, lu, n, d.batch, d.batch_shape, x, nrhs, "B");
  return {x};
}

template <class T>
std::vector<EagerTensor> inv_typed(const CudaCall& call, const EagerTensor& a) {
  const auto d = linalg_internal::matrix_dims(a.shape());
  const std::int64_t n = d.rows;
  EagerTensor x = call.ctx.allocate(a.dtype(), a.shape());
  if (n == 0 || d.batch == 0) return {x};
  cuda_check(
      cuda_kernels::launch_identity(Types<T>::kElement, call.data<T>(x), n, d.batch, call.stream()),
      call.op_name());
  EagerTensor lu = compact(call, a);
  lu_solve<T>(call, lu, n, d.batch, d.batch_shape, x, n, nullptr);
  return {x};
}

}  // namespace

std::vector<EagerTensor> run_solve(const CudaCall& call, Inputs inputs) {
  return visit_cuda_type(inputs[0].dtype(), [&](auto zero) {
    return solve_typed<decltype(zero)>(call, inputs[0], inputs[1]);
  });
}

std::vector<EagerTensor> run_inv(const CudaCall& call, Inputs inputs) {
  return visit_cuda_type(inputs[0].dtype(),
                         [&](auto zero) { return inv_typed<decltype(zero)>(call, inputs[0]); });
}

}  // namespace tenferro::linalg_cuda
