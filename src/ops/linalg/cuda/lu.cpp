// LU on CUDA: getrf per batch entry (any m x n), unpacked by kernels into SciPy's A = P L U.
// An exactly zero pivot still leaves a valid factorisation: not an error, as on the CPU.
#include <algorithm>

#include "ops/linalg/cuda/cuda_linalg_call.hpp"
#include "ops/linalg/cuda/cusolver_calls.hpp"
#include "ops/linalg/cuda/linalg_kernels.hpp"
#include "tenferro/runtime/runtime.hpp"

namespace tenferro::linalg_cuda {
namespace {

using cuda_detail::cuda_check;
using linalg_internal::concat;

template <class T>
std::vector<EagerTensor> lu_typed(const CudaCall& call, const EagerTensor& a) {
  constexpr auto element = Types<T>::kElement;
  const auto d = linalg_internal::matrix_dims(a.shape());
  const std::int64_t m = d.rows, n = d.cols, k = std::min(m, n);
  EagerTensor p = call.ctx.allocate(a.dtype(), concat({m, m}, d.batch_shape));
  EagerTensor l = call.ctx.allocate(a.dtype(), concat({m, k}, d.batch_shape));
  EagerTensor u = call.ctx.allocate(a.dtype(), concat({k, n}, d.batch_shape));
  if (m == 0 || d.batch == 0) return {p, l, u};
  cuda_check(cudaMemsetAsync(call.data<T>(p), 0, p.numel() * sizeof(T), call.stream()),
             call.op_name());
  EagerTensor lu = compact(call, a);
  EagerTensor pivots = call.ctx.allocate(DType::F32, Shape{std::max<std::int64_t>(k, 1) * d.batch});
  EagerTensor perm = call.ctx.allocate(DType::F32, Shape{m * d.batch});  // int scratch
  int* ipiv = static_cast<int*>(call.backend.device_pointer(*pivots.buffer(), call.op.name()));
  const DeviceStatus status(call, d.batch);
  if (k > 0) {
    const int im = as_int(call, m, "rows"), in = as_int(call, n, "columns");
    T* lp = call.data<T>(lu);
    status.check_finite(element, lp, m * n, m * n, d.batch);
    cusolverDnHandle_t h = call.backend.cusolver();
    int lwork = 0;
    cuda_check(cusolver::getrf_buffer(h, im, in, lp, im, &lwork), call.op_name());
    EagerTensor workspace = call.ctx.allocate(a.dtype(), Shape{std::max(lwork, 1)});
    for (std::int64_t b = 0; b < d.batch; ++b) {
      cuda_check(cusolver::getrf(h, im, in, lp + b * m * n, im, call.data<T>(workspace),
                                 ipiv + b * k, status.info(b)),
                 call.op_name());
    }
  }
  cuda_check(cuda_kernels::launch_lu_unpack(
                 element, k > 0 ? call.data<T>(lu) : nullptr, ipiv, m, n, d.batch, call.data<T>(p),
                 k > 0 ? call.data<T>(l) : nullptr, k > 0 ? call.data<T>(u) : nullptr,
                 static_cast<int*>(call.backend.device_pointer(*perm.buffer(), call.op.name())),
                 call.stream()),
             call.op_name());
  for (int info : status.finish(d.batch_shape, "A"))
    if (info < 0) throw_info_argument(call, "getrf", info);
  return {p, l, u};
}

}  // namespace

std::vector<EagerTensor> run_lu(const CudaCall& call, Inputs inputs) {
  return visit_cuda_type(inputs[0].dtype(),
                         [&](auto zero) { return lu_typed<decltype(zero)>(call, inputs[0]); });
}

}  // namespace tenferro::linalg_cuda
