// det and slogdet on CUDA: getrf per batch entry, then one kernel forms the product of U's
// diagonal with the row-swap signs (det), and the unit-modulus sign with log|det| (slogdet).
// A singular matrix is not an error: det = 0, slogdet = (0, -inf), as on the CPU.
#include <algorithm>

#include "ops/linalg/cuda/cuda_linalg_call.hpp"
#include "ops/linalg/cuda/cusolver_calls.hpp"
#include "ops/linalg/cuda/linalg_kernels.hpp"
#include "tenferro/runtime/runtime.hpp"

namespace tenferro::linalg_cuda {
namespace {

using cuda_detail::cuda_check;

template <class T>
std::vector<EagerTensor> determinants(const CudaCall& call, const EagerTensor& a, bool log_form) {
  using R = typename Types<T>::Real;
  constexpr auto element = Types<T>::kElement;
  const auto d = linalg_internal::matrix_dims(a.shape());
  const std::int64_t n = d.rows;
  EagerTensor det, sign, logabs;
  if (log_form) {
    sign = call.ctx.allocate(a.dtype(), d.batch_shape);
    logabs = call.ctx.allocate(real_dtype(a.dtype()), d.batch_shape);
  } else {
    det = call.ctx.allocate(a.dtype(), d.batch_shape);
  }
  auto outputs = [&] {
    if (log_form) return std::vector<EagerTensor>{sign, logabs};
    return std::vector<EagerTensor>{det};
  };
  if (d.batch == 0) return outputs();
  EagerTensor lu = compact(call, a);
  EagerTensor pivots = call.ctx.allocate(DType::F32, Shape{std::max<std::int64_t>(n, 1) * d.batch});
  int* ipiv = static_cast<int*>(call.backend.device_pointer(*pivots.buffer(), call.op.name()));
  const DeviceStatus status(call, d.batch);
  if (n > 0) {
    const int in = as_int(call, n, "rows");
    T* lp = call.data<T>(lu);
    status.check_finite(element, lp, n * n, n * n, d.batch);
    cusolverDnHandle_t h = call.backend.cusolver();
    int lwork = 0;
    cuda_check(cusolver::getrf_buffer(h, in, in, lp, in, &lwork), call.op_name());
    EagerTensor workspace = call.ctx.allocate(a.dtype(), Shape{std::max(lwork, 1)});
    for (std::int64_t b = 0; b < d.batch; ++b) {
      cuda_check(cusolver::getrf(h, in, in, lp + b * n * n, in, call.data<T>(workspace),
                                 ipiv + b * n, status.info(b)),
                 call.op_name());
    }
  }
  cuda_check(cuda_kernels::launch_lu_determinants(
                 element, n > 0 ? call.data<T>(lu) : nullptr, ipiv, n, d.batch,
                 log_form ? nullptr : call.data<T>(det), log_form ? call.data<T>(sign) : nullptr,
                 log_form ? call.data<R>(logabs) : nullptr, call.stream()),
             call.op_name());
  // info > 0 only says U is singular, which the kernel turned into det = 0 / (0, -inf).
  for (int info : status.finish(d.batch_shape, "A"))
    if (info < 0) throw_info_argument(call, "getrf", info);
  return outputs();
}

}  // namespace

std::vector<EagerTensor> run_det(const CudaCall& call, Inputs inputs) {
  return visit_cuda_type(inputs[0].dtype(), [&](auto zero) {
    return determinants<decltype(zero)>(call, inputs[0], false);
  });
}

std::vector<EagerTensor> run_slogdet(const CudaCall& call, Inputs inputs) {
  return visit_cuda_type(inputs[0].dtype(), [&](auto zero) {
    return determinants<decltype(zero)>(call, inputs[0], true);
  });
}

}  // namespace tenferro::linalg_cuda
