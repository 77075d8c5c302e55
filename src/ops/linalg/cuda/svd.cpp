// SVD on CUDA with cuSOLVER's Jacobi solvers: gesvdjBatched for batches of matrices up to
// 32 x 32 (one launch for the whole batch), gesvdj per entry otherwise (econ for the thin
// SVD). V comes back as V; Vh = V^H is formed by a kernel. One status read-back per call.
// Truncation and the canonical gauge are not implemented on CUDA: they are refused (typed
// Unsupported) before anything runs.
#include <algorithm>

#include "ops/einsum/cuda/strided_layout.hpp"
#include "ops/linalg/cuda/cuda_linalg_call.hpp"
#include "ops/linalg/cuda/cusolver_calls.hpp"
#include "ops/linalg/cuda/linalg_kernels.hpp"
#include "tenferro/runtime/runtime.hpp"

namespace tenferro::linalg_cuda {
namespace {

using cuda_detail::cuda_check;
using linalg_internal::concat;

constexpr std::int64_t kBatchedJacobiMax = 32;

// gesvdjInfo_t for one call (tolerance and sweeps at cuSOLVER's defaults).
class JacobiParams {
 public:
  explicit JacobiParams(const CudaCall& call) {
    cuda_check(cusolverDnCreateGesvdjInfo(&params_), call.op_name());
  }
  ~JacobiParams() { cusolverDnDestroyGesvdjInfo(params_); }
  JacobiParams(const JacobiParams&) = delete;
  JacobiParams& operator=(const JacobiParams&) = delete;
  gesvdjInfo_t get() const { return params_; }

 private:
  gesvdjInfo_t params_ = nullptr;
};

void check_info(const CudaCall& call, const std::vector<int>& info, const Shape& batch_shape,
                const char* routine) {
  for (std::size_t b = 0; b < info.size(); ++b) {
    if (info[b] < 0) throw_info_argument(call, routine, info[b]);
    if (info[b] > 0)
      throw_numerical(call, static_cast<std::int64_t>(b), batch_shape,
                      std::string(routine) + " did not converge");
  }
}

template <class T>
std::vector<EagerTensor> svd_typed(const CudaCall& call, const EagerTensor& a) {
  using R = typename Types<T>::Real;
  constexpr auto element = Types<T>::kElement;
  const linalg::SvdOptions& options = call.op.payload().svd;
  const auto d = linalg_internal::matrix_dims(a.shape());
  const std::int64_t m = d.rows, n = d.cols, k = std::min(m, n);
  const bool full = options.full_matrices, uv = options.compute_uv;
  const std::int64_t u_cols = full ? m : k, vh_rows = full ? n : k;
  const DType real = real_dtype(a.dtype());

  EagerTensor u, vh;
  EagerTensor s = call.ctx.allocate(real, concat({k}, d.batch_shape));
  EagerTensor weight = call.ctx.allocate(real, d.batch_shape);  // no truncation: all zero
  if (weight.numel() > 0) {
    cuda_check(cudaMemsetAsync(call.data<R>(weight), 0, weight.numel() * sizeof(R), call.stream()),
               call.op_name());
  }
  if (uv) {
    u = call.ctx.allocate(a.dtype(), concat({m, u_cols}, d.batch_shape));
    vh = call.ctx.allocate(a.dtype(), concat({vh_rows, n}, d.batch_shape));
  }
  auto outputs = [&] {
    if (uv) return std::vector<EagerTensor>{u, s, vh, weight};
    return std::vector<EagerTensor>{s, weight};
  };
  if (d.batch == 0) return outputs();
  if (k == 0) {  // no singular values; a full basis of an empty matrix is the identity
    if (uv && full) {
      cuda_check(cuda_kernels::launch_identity(element, call.data<T>(u), m, d.batch, call.stream()),
                 call.op_name());
      cuda_check(
          cuda_kernels::launch_identity(element, call.data<T>(vh), n, d.batch, call.stream()),
          call.op_name());
    }
    return outputs();
  }

  const int im = as_int(call, m, "rows"), in = as_int(call, n, "columns");
  const int batch_int = as_int(call, d.batch, "batch");
  EagerTensor work_matrix = compact_copy(call, a, n);
  T* w = call.data<T>(work_matrix);
  const DeviceStatus status(call, d.batch);
  status.check_finite(element, w, m * n, m * n, d.batch);
  cusolverDnHandle_t h = call.backend.cusolver();
  const JacobiParams params(call);
  // Without compute_uv the vector buffers below are still allocated (cuSOLVER checks their
  // leading dimensions) but not written.
  const cusolverEigMode_t jobz = uv ? CUSOLVER_EIG_MODE_VECTOR : CUSOLVER_EIG_MODE_NOVECTOR;
  R* s_p = call.data<R>(s);

  if (m <= kBatchedJacobiMax && n <= kBatchedJacobiMax) {
    // One launch for the batch; U [m, m] and V [n, n] per entry.
    EagerTensor u_full = call.ctx.allocate(a.dtype(), Shape{m, m, d.batch});
    EagerTensor v_full = call.ctx.allocate(a.dtype(), Shape{n, n, d.batch});
    T* up = call.data<T>(u_full);
    T* vp = call.data<T>(v_full);
    int lwork = 0;
    cuda_check(cusolver::gesvdj_batched_buffer(h, jobz, im, in, w, im, s_p, up, im, vp, in, &lwork,
                                               params.get(), batch_int),
               call.op_name());
    EagerTensor workspace = call.ctx.allocate(a.dtype(), Shape{std::max(lwork, 1)});
    cuda_check(cusolver::gesvdj_batched(h, jobz, im, in, w, im, s_p, up, im, vp, in,
                                        call.data<T>(workspace), lwork, status.info(0),
                                        params.get(), batch_int),
               call.op_name());
    if (uv) {
      const Shape view{m, u_cols, d.batch};
      const Strides src{1, m, m * m}, dst{1, m, m * u_cols};
      const auto ix = einsum_internal::cuda_layout::coalesce<2>(view, {&dst, &src});
      cuda_check(cuda_kernels::launch_copy(sizeof(T), call.data<T>(u), up, ix.index, ix.count,
                                           call.stream()),
                 call.op_name());
      cuda_check(cuda_kernels::launch_adjoint(element, vp, n, n * n, call.data<T>(vh), vh_rows, n,
                                              d.batch, call.stream()),
                 call.op_name());
    }
  } else {
    // Per entry; econ gives the thin U [m, k] and V [n, k].
    const int econ = full ? 0 : 1;
    const std::int64_t v_cols = full ? n : k;
    EagerTensor u_work = uv ? u : call.ctx.allocate(a.dtype(), Shape{m, u_cols, d.batch});
    EagerTensor v_work = call.ctx.allocate(a.dtype(), Shape{n, v_cols, d.batch});
    T* up = call.data<T>(u_work);
    T* vp = call.data<T>(v_work);
    int lwork = 0;
    cuda_check(cusolver::gesvdj_buffer(h, jobz, econ, im, in, w, im, s_p, up, im, vp, in, &lwork,
                                       params.get()),
               call.op_name());
    EagerTensor workspace = call.ctx.allocate(a.dtype(), Shape{std::max(lwork, 1)});
    T* ws = call.data<T>(workspace);
    for (std::int64_t b = 0; b < d.batch; ++b) {
      cuda_check(cusolver::gesvdj(h, jobz, econ, im, in, w + b * m * n, im, s_p + b * k,
                                  up + b * m * u_cols, im, vp + b * n * v_cols, in, ws, lwork,
                                  status.info(b), params.get()),
                 call.op_name());
    }
    if (uv) {
      cuda_check(cuda_kernels::launch_adjoint(element, vp, n, n * v_cols, call.data<T>(vh), vh_rows,
                                              n, d.batch, call.stream()),
                 call.op_name());
    }
  }
  check_info(call, status.finish(d.batch_shape, "A"), d.batch_shape, "gesvdj");
  return outputs();
}

}  // namespace

void check_svd_options(const linalg_internal::LinalgOp& op) {
  const linalg::SvdOptions& options = op.payload().svd;
  if (options.truncation.active() || options.gauge != linalg::SvdGauge::Raw) {
    throw_error(ErrorKind::Unsupported, ErrorPhase::Module, std::string(op.name()),
                "truncated SVD and the canonical gauge are not implemented on CUDA (the raw, "
                "thin or full SVD is); nothing was run");
  }
}

std::vector<EagerTensor> run_svd(const CudaCall& call, Inputs inputs) {
  check_svd_options(call.op);
  return visit_cuda_type(inputs[0].dtype(),
                         [&](auto zero) { return svd_typed<decltype(zero)>(call, inputs[0]); });
}

}  // namespace tenferro::linalg_cuda
