// Hermitian eigen-decomposition on CUDA, lower triangle read, eigenvalues ascending:
// syevjBatched/heevjBatched (one launch) for batches of matrices up to 32 x 32, syevd/heevd
// per entry otherwise. One status read-back per call.
#include <algorithm>
#include <optional>

#include "ops/linalg/cuda/cuda_linalg_call.hpp"
#include "ops/linalg/cuda/cusolver_calls.hpp"
#include "ops/linalg/cuda/linalg_kernels.hpp"
#include "tenferro/runtime/runtime.hpp"

namespace tenferro::linalg_cuda {
namespace {

using cuda_detail::cuda_check;
using linalg_internal::concat;

constexpr std::int64_t kBatchedJacobiMax = 32;

template <class T>
std::vector<EagerTensor> eigh_typed(const CudaCall& call, const EagerTensor& a) {
  using R = typename Types<T>::Real;
  constexpr auto element = Types<T>::kElement;
  const auto d = linalg_internal::matrix_dims(a.shape());
  const std::int64_t n = d.rows;
  const bool values_only = call.op.payload().eigh.values_only;
  EagerTensor w = call.ctx.allocate(real_dtype(a.dtype()), concat({n}, d.batch_shape));
  EagerTensor v = compact(call, a);  // overwritten with the eigenvectors
  auto outputs = [&] {
    if (values_only) return std::vector<EagerTensor>{w};
    return std::vector<EagerTensor>{w, v};
  };
  if (n == 0 || d.batch == 0) return outputs();
  const int in = as_int(call, n, "rows");
  const int batch_int = as_int(call, d.batch, "batch");
  T* vp = call.data<T>(v);
  R* wp = call.data<R>(w);
  const DeviceStatus status(call, d.batch);
  cuda_check(cuda_kernels::launch_first_nonfinite_triangle(element, vp, n, d.batch, true, true,
                                                           status.first_nonfinite(), call.stream()),
             call.op_name());
  cusolverDnHandle_t h = call.backend.cusolver();
  const cusolverEigMode_t jobz =
      values_only ? CUSOLVER_EIG_MODE_NOVECTOR : CUSOLVER_EIG_MODE_VECTOR;
  const cublasFillMode_t lower = CUBLAS_FILL_MODE_LOWER;
  const char* routine = "syevd/heevd";
  // Declared at function scope: cuSOLVER may report into the parameters until the status
  // read-back below (SolverParams' contract), so they must outlive it.
  std::optional<SyevjParams> params;
  if (n <= kBatchedJacobiMax && d.batch > 1) {
    routine = "syevjBatched/heevjBatched";
    params.emplace(call);
    int lwork = 0;
    cuda_check(cusolver::syevj_batched_buffer(h, jobz, lower, in, vp, in, wp, &lwork, params->get(),
                                              batch_int),
               call.op_name());
    EagerTensor workspace = call.ctx.allocate(a.dtype(), Shape{std::max(lwork, 1)});
    cuda_check(cusolver::syevj_batched(h, jobz, lower, in, vp, in, wp, call.data<T>(workspace),
                                       lwork, status.info(0), params->get(), batch_int),
               call.op_name());
  } else {
    int lwork = 0;
    cuda_check(cusolver::syevd_buffer(h, jobz, lower, in, vp, in, wp, &lwork), call.op_name());
    EagerTensor workspace = call.ctx.allocate(a.dtype(), Shape{std::max(lwork, 1)});
    T* ws = call.data<T>(workspace);
    for (std::int64_t b = 0; b < d.batch; ++b) {
      cuda_check(cusolver::syevd(h, jobz, lower, in, vp + b * n * n, in, wp + b * n, ws, lwork,
                                 status.info(b)),
                 call.op_name());
    }
  }
  const std::vector<int> info = status.finish(d.batch_shape, "A");
  for (std::size_t b = 0; b < info.size(); ++b) {
    if (info[b] < 0) throw_info_argument(call, routine, info[b]);
    if (info[b] > 0)
      throw_numerical(call, static_cast<std::int64_t>(b), d.batch_shape,
                      std::string("the eigensolver (") + routine + ") did not converge");
  }
  return outputs();
}

}  // namespace

std::vector<EagerTensor> run_eigh(const CudaCall& call, Inputs inputs) {
  return visit_cuda_type(inputs[0].dtype(),
                         [&](auto zero) { return eigh_typed<decltype(zero)>(call, inputs[0]); });
}

}  // namespace tenferro::linalg_cuda
