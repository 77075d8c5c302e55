// SVD on CUDA. The cuSOLVER drivers (svd_solvers.cpp) give the untruncated factors; the
// truncation rank is then computed on the device by the same rule the CPU uses, comes back in
// the call's one status read-back together with the info values, and U, S, Vh are cut and the
// discarded weight summed on the device. The canonical gauge is a device kernel too. Nothing
// else crosses to the host.
#include <algorithm>

#include "ops/linalg/cuda/cuda_linalg_call.hpp"
#include "ops/linalg/cuda/linalg_kernels.hpp"
#include "ops/linalg/cuda/svd_kernels.hpp"
#include "ops/linalg/cuda/svd_solvers.hpp"
#include "ops/linalg/truncation.hpp"
#include "tenferro/runtime/runtime.hpp"

namespace tenferro::linalg_cuda {
namespace {

using cuda_detail::cuda_check;
using linalg_internal::concat;

struct SvdOutputs {
  EagerTensor u, s, vh, weight;
  std::vector<EagerTensor> list(bool uv) const {
    if (uv) return {u, s, vh, weight};
    return {s, weight};
  }
};

template <class T>
void zero_weight(const CudaCall& call, const EagerTensor& weight) {
  using R = typename Types<T>::Real;
  if (weight.numel() == 0) return;
  cuda_check(cudaMemsetAsync(call.data<R>(weight), 0, weight.numel() * sizeof(R), call.stream()),
             call.op_name());
}

// No singular values to compute (an empty batch or min(m, n) == 0): shapes only, and the
// identity as the full basis of an empty matrix.
template <class T>
SvdOutputs empty_svd(const CudaCall& call, const EagerTensor& a, const SvdDims& d,
                     const Shape& batch_shape) {
  const linalg::SvdOptions& options = call.op.payload().svd;
  std::int64_t rank = d.k;
  if (options.truncation.active() && d.batch == 0) {
    rank = linalg_internal::common_rank({}, d.k, 0, options.truncation);
  }
  const bool truncated = options.truncation.active();
  const std::int64_t u_cols = truncated ? rank : d.u_cols();
  const std::int64_t vh_rows = truncated ? rank : d.vh_rows();
  SvdOutputs out;
  const DType real = real_dtype(a.dtype());
  out.s = call.ctx.allocate(real, concat({rank}, batch_shape));
  out.weight = call.ctx.allocate(real, batch_shape);
  zero_weight<T>(call, out.weight);
  if (!d.uv) return out;
  out.u = call.ctx.allocate(a.dtype(), concat({d.m, u_cols}, batch_shape));
  out.vh = call.ctx.allocate(a.dtype(), concat({vh_rows, d.n}, batch_shape));
  if (d.full && d.batch > 0) {
    constexpr auto element = Types<T>::kElement;
    cuda_check(
        cuda_kernels::launch_identity(element, call.data<T>(out.u), d.m, d.batch, call.stream()),
        call.op_name());
    cuda_check(
        cuda_kernels::launch_identity(element, call.data<T>(out.vh), d.n, d.batch, call.stream()),
        call.op_name());
  }
  return out;
}

// Keeps the leading `rank` singular triplets of every entry; the dropped weight is summed on
// the device from the untruncated S.
template <class T>
SvdOutputs truncate(const CudaCall& call, const SvdOutputs& full, const SvdDims& d,
                    std::int64_t rank, const Shape& batch_shape) {
  using R = typename Types<T>::Real;
  SvdOutputs out;
  out.s = leading_block(call, full.s, concat({rank}, batch_shape));
  out.weight = call.ctx.allocate(full.s.dtype(), batch_shape);
  cuda_check(cuda_kernels::launch_svd_discarded_weight(sizeof(R) == sizeof(double),
                                                       call.data<R>(full.s), d.k, d.batch, rank,
                                                       call.data<R>(out.weight), call.stream()),
             call.op_name());
  if (d.uv) {
    out.u = leading_block(call, full.u, concat({d.m, rank}, batch_shape));
    out.vh = leading_block(call, full.vh, concat({rank, d.n}, batch_shape));
  }
  return out;
}

template <class T>
void canonical_gauge(const CudaCall& call, const SvdOutputs& out, const SvdDims& d,
                     std::int64_t cols) {
  const std::int64_t u_cols = out.u.shape()[1], vh_rows = out.vh.shape()[0];
  cuda_check(cuda_kernels::launch_svd_canonical_gauge(
                 Types<T>::kElement, call.data<T>(out.u), d.m, d.m * u_cols, call.data<T>(out.vh),
                 vh_rows, d.n, vh_rows * d.n, cols, d.batch, call.stream()),
             call.op_name());
}

template <class T>
std::vector<EagerTensor> svd_typed(const CudaCall& call, const EagerTensor& a) {
  using R = typename Types<T>::Real;
  const linalg::SvdOptions& options = call.op.payload().svd;
  const auto md = linalg_internal::matrix_dims(a.shape());
  SvdDims d;
  d.m = md.rows;
  d.n = md.cols;
  d.k = std::min(d.m, d.n);
  d.batch = md.batch;
  d.uv = options.compute_uv;
  d.full = options.full_matrices;
  if (d.batch == 0 || d.k == 0) return empty_svd<T>(call, a, d, md.batch_shape).list(d.uv);

  const bool truncating = options.truncation.active();
  const bool gauge = options.gauge == linalg::SvdGauge::Canonical && d.uv;
  const DType real = real_dtype(a.dtype());
  SvdOutputs full;
  full.s = call.ctx.allocate(real, concat({d.k}, md.batch_shape));
  if (d.uv) {
    full.u = call.ctx.allocate(a.dtype(), concat({d.m, d.u_cols()}, md.batch_shape));
    full.vh = call.ctx.allocate(a.dtype(), concat({d.vh_rows(), d.n}, md.batch_shape));
  }
  as_int(call, d.batch, "batch");
  EagerTensor work_matrix = compact_copy(call, a, d.n);
  T* w = call.data<T>(work_matrix);
  // Slots 0..batch-1: info per entry; slot `batch`: the common truncation rank.
  const DeviceStatus status(call, d.batch + 1);
  status.check_finite(Types<T>::kElement, w, d.m * d.n, d.m * d.n, d.batch);
  const SvdTargets<T> targets{call.data<R>(full.s), d.uv ? call.data<T>(full.u) : nullptr,
                              d.uv ? call.data<T>(full.vh) : nullptr};
  const JacobiParams params(call);  // outlives the read-back below
  const char* routine = queue_svd<T>(call, d, w, targets, status, params);

  if (!truncating) {
    // Everything queued before the one read-back.
    full.weight = call.ctx.allocate(real, md.batch_shape);
    zero_weight<T>(call, full.weight);
    if (gauge) canonical_gauge<T>(call, full, d, d.k);
    check_svd_info(call, status.finish(md.batch_shape, "A"), d.batch, md.batch_shape, routine);
    return full.list(d.uv);
  }
  cuda_check(cuda_kernels::launch_svd_common_rank(
                 sizeof(R) == sizeof(double), targets.s, d.k, d.batch,
                 linalg_internal::rule_of(options.truncation), status.info(d.batch), call.stream()),
             call.op_name());
  const std::vector<int> info = status.finish(md.batch_shape, "A");
  check_svd_info(call, info, d.batch, md.batch_shape, routine);
  const std::int64_t rank = info[static_cast<std::size_t>(d.batch)];
  SvdOutputs out;
  if (rank < d.k) {
    out = truncate<T>(call, full, d, rank, md.batch_shape);
  } else {  // nothing to cut
    out = full;
    out.weight = call.ctx.allocate(real, md.batch_shape);
    zero_weight<T>(call, out.weight);
  }
  if (gauge) canonical_gauge<T>(call, out, d, rank);
  return out.list(d.uv);
}

}  // namespace

std::vector<EagerTensor> run_svd(const CudaCall& call, Inputs inputs) {
  return visit_cuda_type(inputs[0].dtype(),
                         [&](auto zero) { return svd_typed<decltype(zero)>(call, inputs[0]); });
}

}  // namespace tenferro::linalg_cuda
