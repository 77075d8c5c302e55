// QR on CUDA: geqrf + orgqr/ungqr per batch entry on the backend's stream, R extracted by a
// kernel, the optional positive-diagonal gauge applied on the device; one status read-back.
#include <algorithm>

#include "backends/cuda/strided_layout.hpp"
#include "ops/linalg/cuda/cuda_linalg_call.hpp"
#include "ops/linalg/cuda/cusolver_calls.hpp"
#include "ops/linalg/cuda/linalg_kernels.hpp"
#include "tenferro/runtime/runtime.hpp"

namespace tenferro::linalg_cuda {
namespace {

using cuda_detail::cuda_check;
using linalg_internal::concat;

template <class T>
std::vector<EagerTensor> qr_typed(const CudaCall& call, const EagerTensor& a) {
  constexpr auto element = Types<T>::kElement;
  const auto d = linalg_internal::matrix_dims(a.shape());
  const std::int64_t m = d.rows, n = d.cols, k = std::min(m, n);
  const bool complete = call.op.payload().qr.mode == linalg::QrMode::Complete;
  const std::int64_t q_cols = complete ? m : k, r_rows = complete ? m : k;
  const std::int64_t buf_cols = std::max(n, q_cols);
  const int im = as_int(call, m, "rows"), in = as_int(call, n, "columns");
  const int ik = static_cast<int>(k), iq = as_int(call, q_cols, "Q columns");
  const int lda = std::max(im, 1);

  // One buffer per entry holds A, then the Householder vectors, then Q (orgqr is in place).
  EagerTensor work_matrix = compact_copy(call, a, buf_cols);
  EagerTensor r = call.ctx.allocate(a.dtype(), concat({r_rows, n}, d.batch_shape));
  if (m == 0 || q_cols == 0 || d.batch == 0) {
    EagerTensor q = call.ctx.allocate(a.dtype(), concat({m, q_cols}, d.batch_shape));
    return {q, r};
  }
  T* w = call.data<T>(work_matrix);
  const std::int64_t entry = m * buf_cols;
  const DeviceStatus status(call, 2 * d.batch);
  status.check_finite(element, w, m * n, entry, d.batch);

  EagerTensor tau = call.ctx.allocate(a.dtype(), Shape{std::max<std::int64_t>(k, 1) * d.batch});
  T* tau_p = call.data<T>(tau);
  cusolverDnHandle_t h = call.backend.cusolver();
  int lwork_qr = 0, lwork_org = 0;
  if (k > 0) cuda_check(cusolver::geqrf_buffer(h, im, in, w, lda, &lwork_qr), call.op_name());
  cuda_check(cusolver::orgqr_buffer(h, im, iq, ik, w, lda, tau_p, &lwork_org), call.op_name());
  const std::int64_t lwork = std::max({lwork_qr, lwork_org, 1});
  EagerTensor workspace = call.ctx.allocate(a.dtype(), Shape{lwork});
  T* ws = call.data<T>(workspace);
  const std::int64_t tau_stride = std::max<std::int64_t>(k, 1);

  if (k > 0) {
    for (std::int64_t b = 0; b < d.batch; ++b) {
      cuda_check(cusolver::geqrf(h, im, in, w + b * entry, lda, tau_p + b * tau_stride, ws,
                                 static_cast<int>(lwork), status.info(2 * b)),
                 call.op_name());
    }
  }
  cuda_check(cuda_kernels::launch_upper_triangle(element, w, m, entry, call.data<T>(r), r_rows, n,
                                                 d.batch, call.stream()),
             call.op_name());
  for (std::int64_t b = 0; b < d.batch; ++b) {
    cuda_check(cusolver::orgqr(h, im, iq, ik, w + b * entry, lda, tau_p + b * tau_stride, ws,
                               static_cast<int>(lwork), status.info(2 * b + 1)),
               call.op_name());
  }
  EagerTensor q = work_matrix;
  if (buf_cols != q_cols) {  // reduced QR of a wide matrix: Q is the first k columns
    q = call.ctx.allocate(a.dtype(), concat({m, q_cols}, d.batch_shape));
    const Shape view{m, q_cols, d.batch};
    const Strides src_strides{1, m, entry}, dst_strides{1, m, m * q_cols};
    const auto ix = cuda_layout::coalesce<2>(view, {dst_strides, src_strides});
    cuda_check(
        cuda_kernels::launch_copy(sizeof(T), call.data<T>(q), w, ix.index, ix.count, call.stream()),
        call.op_name());
  } else {
    q = work_matrix.reshape(concat({m, q_cols}, d.batch_shape));
  }
  if (call.op.payload().qr.gauge == linalg::QrGauge::PositiveDiagonal) {
    cuda_check(
        cuda_kernels::launch_positive_diagonal(element, call.data<T>(q), m, q_cols, call.data<T>(r),
                                               r_rows, n, k, d.batch, call.stream()),
        call.op_name());
  }
  const std::vector<int> info = status.finish(d.batch_shape, "A");
  for (std::size_t i = 0; i < info.size(); ++i) {
    if (info[i] < 0) throw_info_argument(call, i % 2 == 0 ? "geqrf" : "orgqr/ungqr", info[i]);
  }
  return {q, r};
}

}  // namespace

std::vector<EagerTensor> run_qr(const CudaCall& call, Inputs inputs) {
  return visit_cuda_type(inputs[0].dtype(),
                         [&](auto zero) { return qr_typed<decltype(zero)>(call, inputs[0]); });
}

}  // namespace tenferro::linalg_cuda
