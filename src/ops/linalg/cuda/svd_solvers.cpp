#include "ops/linalg/cuda/svd_solvers.hpp"

#include <algorithm>

#include "backends/cuda/strided_layout.hpp"
#include "ops/linalg/cuda/cusolver_calls.hpp"
#include "ops/linalg/cuda/linalg_kernels.hpp"

namespace tenferro::linalg_cuda {
namespace {

using cuda_detail::cuda_check;

template <class T>
EagerTensor scratch(const CudaCall& call, const Shape& shape) {
  return call.ctx.allocate(Types<T>::kDType, shape);
}

// Without compute_uv the vector buffers are still allocated (cuSOLVER checks their leading
// dimensions) but not written.
template <class T>
void jacobi_batched(const CudaCall& call, const SvdDims& d, T* a, const SvdTargets<T>& out,
                    const DeviceStatus& status, gesvdjInfo_t params) {
  constexpr auto element = Types<T>::kElement;
  const std::int64_t m = d.m, n = d.n;
  const int im = as_int(call, m, "rows"), in = as_int(call, n, "columns");
  const int batch = as_int(call, d.batch, "batch");
  const cusolverEigMode_t jobz = d.uv ? CUSOLVER_EIG_MODE_VECTOR : CUSOLVER_EIG_MODE_NOVECTOR;
  cusolverDnHandle_t h = call.backend.cusolver();
  // U [m, m] and V [n, n] per entry.
  EagerTensor u_full = scratch<T>(call, Shape{m, m, d.batch});
  EagerTensor v_full = scratch<T>(call, Shape{n, n, d.batch});
  T* up = call.data<T>(u_full);
  T* vp = call.data<T>(v_full);
  int lwork = 0;
  cuda_check(cusolver::gesvdj_batched_buffer(h, jobz, im, in, a, im, out.s, up, im, vp, in, &lwork,
                                             params, batch),
             call.op_name());
  EagerTensor workspace = scratch<T>(call, Shape{std::max(lwork, 1)});
  cuda_check(
      cusolver::gesvdj_batched(h, jobz, im, in, a, im, out.s, up, im, vp, in,
                               call.data<T>(workspace), lwork, status.info(0), params, batch),
      call.op_name());
  if (!d.uv) return;
  const Shape view{m, d.u_cols(), d.batch};
  const Strides src{1, m, m * m}, dst{1, m, m * d.u_cols()};
  const auto ix = cuda_layout::coalesce<2>(view, {dst, src});
  cuda_check(cuda_kernels::launch_copy(sizeof(T), out.u, up, ix.index, ix.count, call.stream()),
             call.op_name());
  cuda_check(cuda_kernels::launch_adjoint(element, vp, n, n * n, out.vh, d.vh_rows(), n, d.batch,
                                          call.stream()),
             call.op_name());
}

// One entry at a time; V goes through one entry's worth of scratch and becomes Vh = V^H.
template <class T>
void jacobi_per_entry(const CudaCall& call, const SvdDims& d, T* a, const SvdTargets<T>& out,
                      const DeviceStatus& status, gesvdjInfo_t params) {
  constexpr auto element = Types<T>::kElement;
  const std::int64_t m = d.m, n = d.n, k = d.k;
  const int im = as_int(call, m, "rows"), in = as_int(call, n, "columns");
  const cusolverEigMode_t jobz = d.uv ? CUSOLVER_EIG_MODE_VECTOR : CUSOLVER_EIG_MODE_NOVECTOR;
  cusolverDnHandle_t h = call.backend.cusolver();
  // econ gives the thin U [m, k] and V [n, k].
  const int econ = d.full ? 0 : 1;
  const std::int64_t u_cols = d.u_cols(), v_cols = d.full ? n : k, vh_rows = d.vh_rows();
  EagerTensor u_scratch = d.uv ? EagerTensor{} : scratch<T>(call, Shape{m, u_cols});
  EagerTensor v_scratch = scratch<T>(call, Shape{n, v_cols});
  T* vp = call.data<T>(v_scratch);
  int lwork = 0;
  cuda_check(
      cusolver::gesvdj_buffer(h, jobz, econ, im, in, a, im, out.s,
                              d.uv ? out.u : call.data<T>(u_scratch), im, vp, in, &lwork, params),
      call.op_name());
  EagerTensor workspace = scratch<T>(call, Shape{std::max(lwork, 1)});
  T* ws = call.data<T>(workspace);
  for (std::int64_t b = 0; b < d.batch; ++b) {
    T* ub = d.uv ? out.u + b * m * u_cols : call.data<T>(u_scratch);
    cuda_check(cusolver::gesvdj(h, jobz, econ, im, in, a + b * m * n, im, out.s + b * k, ub, im, vp,
                                in, ws, lwork, status.info(b), params),
               call.op_name());
    if (!d.uv) continue;
    // The stream orders the next entry's gesvdj after this read of the scratch.
    cuda_check(cuda_kernels::launch_adjoint(element, vp, n, n * v_cols, out.vh + b * vh_rows * n,
                                            vh_rows, n, 1, call.stream()),
               call.op_name());
  }
}

// gesvd needs m >= n: a wide A is solved as A^H = U' S V'^H, so U = V' and Vh = U'^H. Wide
// entries go one at a time through one entry's worth of scratch (A^H, U', VT').
template <class T>
void gesvd_per_entry(const CudaCall& call, const SvdDims& d, T* a, const SvdTargets<T>& out,
                     const DeviceStatus& status) {
  using R = typename Types<T>::Real;
  constexpr auto element = Types<T>::kElement;
  const bool wide = d.m < d.n;
  // The problem gesvd sees: rows >= cols.
  const std::int64_t rows = wide ? d.n : d.m, cols = wide ? d.m : d.n, k = d.k;
  const std::int64_t u_cols = d.full ? rows : k, vt_rows = d.full ? cols : k;
  const int ir = as_int(call, rows, "rows"), ic = as_int(call, cols, "columns");
  const int ivt = as_int(call, vt_rows, "rows");
  cusolverDnHandle_t h = call.backend.cusolver();

  EagerTensor transposed = wide ? scratch<T>(call, Shape{rows, cols}) : EagerTensor{};
  // Unless wide, the factors land in the outputs directly; wide ones go through scratch.
  EagerTensor u_scratch, vt_scratch;
  if (d.uv && wide) {
    u_scratch = scratch<T>(call, Shape{rows, u_cols});
    vt_scratch = scratch<T>(call, Shape{vt_rows, cols});
  }
  // With job 'N' U and VT are not referenced; a valid one-element buffer stands in for them.
  EagerTensor unused = d.uv ? EagerTensor{} : scratch<T>(call, Shape{1});
  const signed char job = !d.uv ? 'N' : (d.full ? 'A' : 'S');
  int lwork = 0;
  cuda_check(cusolver::gesvd_buffer(h, a, ir, ic, &lwork), call.op_name());
  EagerTensor workspace = scratch<T>(call, Shape{std::max(lwork, 1)});
  // rwork receives the unconverged superdiagonal when info > 0.
  EagerTensor rwork =
      call.ctx.allocate(real_dtype(Types<T>::kDType), Shape{std::max<std::int64_t>(k - 1, 1)});
  T* ws = call.data<T>(workspace);
  R* rw = call.data<R>(rwork);
  for (std::int64_t b = 0; b < d.batch; ++b) {
    T* entry = a + b * d.m * d.n;
    T* ub = !d.uv  ? call.data<T>(unused)
            : wide ? call.data<T>(u_scratch)
                   : out.u + b * rows * u_cols;
    T* vb = !d.uv  ? call.data<T>(unused)
            : wide ? call.data<T>(vt_scratch)
                   : out.vh + b * vt_rows * cols;
    if (wide) {
      cuda_check(
          cuda_kernels::launch_adjoint(element, entry, d.m, d.m * d.n, call.data<T>(transposed),
                                       rows, cols, 1, call.stream()),
          call.op_name());
      entry = call.data<T>(transposed);
    }
    cuda_check(cusolver::gesvd(h, job, job, ir, ic, entry, ir, out.s + b * k, ub, ir, vb, ivt, ws,
                               lwork, rw, status.info(b)),
               call.op_name());
    if (!d.uv || !wide) continue;
    // U [m, vt_rows] = (VT' [vt_rows, m])^H and Vh [u_cols, n] = (U' [n, u_cols])^H; the
    // stream orders the next entry's use of the scratch after these reads.
    cuda_check(
        cuda_kernels::launch_adjoint(element, vb, vt_rows, vt_rows * cols,
                                     out.u + b * d.m * vt_rows, d.m, vt_rows, 1, call.stream()),
        call.op_name());
    cuda_check(
        cuda_kernels::launch_adjoint(element, ub, rows, rows * u_cols, out.vh + b * u_cols * d.n,
                                     u_cols, d.n, 1, call.stream()),
        call.op_name());
  }
}

}  // namespace

SvdDriver svd_driver(const SvdDims& d) {
  if (d.m <= kBatchedJacobiMaxExtent && d.n <= kBatchedJacobiMaxExtent) {
    return SvdDriver::JacobiBatched;
  }
  return std::min(d.m, d.n) >= kGesvdMinExtent ? SvdDriver::Gesvd : SvdDriver::Jacobi;
}

const char* driver_name(SvdDriver driver) {
  switch (driver) {
    case SvdDriver::JacobiBatched:
      return "gesvdjBatched";
    case SvdDriver::Jacobi:
      return "gesvdj";
    case SvdDriver::Gesvd:
      break;
  }
  return "gesvd";
}

void check_svd_info(const CudaCall& call, const std::vector<int>& info, std::int64_t batch,
                    const Shape& batch_shape, const char* routine) {
  for (std::int64_t b = 0; b < batch; ++b) {
    const int v = info[static_cast<std::size_t>(b)];
    if (v < 0) throw_info_argument(call, routine, v);
    if (v > 0) throw_numerical(call, b, batch_shape, std::string(routine) + " did not converge");
  }
}

template <class T>
const char* queue_svd(const CudaCall& call, const SvdDims& d, T* a, const SvdTargets<T>& out,
                      const DeviceStatus& status, const JacobiParams& params) {
  const SvdDriver driver = svd_driver(d);
  switch (driver) {
    case SvdDriver::JacobiBatched:
      jacobi_batched(call, d, a, out, status, params.get());
      break;
    case SvdDriver::Jacobi:
      jacobi_per_entry(call, d, a, out, status, params.get());
      break;
    case SvdDriver::Gesvd:
      gesvd_per_entry(call, d, a, out, status);
      break;
  }
  return driver_name(driver);
}

template const char* queue_svd<float>(const CudaCall&, const SvdDims&, float*,
                                      const SvdTargets<float>&, const DeviceStatus&,
                                      const JacobiParams&);
template const char* queue_svd<double>(const CudaCall&, const SvdDims&, double*,
                                       const SvdTargets<double>&, const DeviceStatus&,
                                       const JacobiParams&);
template const char* queue_svd<cuComplex>(const CudaCall&, const SvdDims&, cuComplex*,
                                          const SvdTargets<cuComplex>&, const DeviceStatus&,
                                          const JacobiParams&);
template const char* queue_svd<cuDoubleComplex>(const CudaCall&, const SvdDims&, cuDoubleComplex*,
                                                const SvdTargets<cuDoubleComplex>&,
                                                const DeviceStatus&, const JacobiParams&);

}  // namespace tenferro::linalg_cuda
