// The CUDA rows of the linalg registration table: every op with a cuSOLVER/cuBLAS kernel, on
// every dtype. Eig has no row: cuSOLVER has no dense non-symmetric eigensolver in the routines
// we use. Lstsq is SVD-based on the device (rank-revealing, as the CPU's gelsd); a QR-based
// one, as gels, would return garbage for a numerically rank-deficient A. Each kernel runs on
// the runtime's stream; outputs are device values of the runtime, nothing is copied to the host.
#include "ops/linalg/cuda/cuda_linalg_call.hpp"
#include "ops/linalg/registration.hpp"

namespace tenferro::linalg_cuda {
namespace {

using linalg_internal::LinalgKind;
using linalg_internal::LinalgOp;
using DeviceKernel = std::vector<EagerTensor> (*)(const CudaCall&, Inputs);

// The row kernel around one device entry point. The table's key function has checked that
// `op` is a LinalgOp.
template <DeviceKernel Run>
std::vector<EagerTensor> kernel(const ExecutionContext& ctx, const ExtensionOp& op,
                                std::span<const EagerTensor> inputs) {
  const auto& linalg_op = static_cast<const LinalgOp&>(op);
  linalg_internal::validate_unless_marked(linalg_op, inputs);
  auto& backend = ctx.backend_as<CudaBackend>();
  backend.make_current();
  ctx.record_kernel_launch();
  return Run(CudaCall{ctx, linalg_op, backend}, inputs);
}

}  // namespace

std::vector<runtime_internal::Registration> cuda_rows() {
  using linalg_internal::row;
  constexpr BackendKind kCuda = BackendKind::Cuda;
  constexpr runtime_internal::DTypeMask kAll = runtime_internal::kAllFloatDTypes;
  return {
      row(LinalgKind::Qr, kCuda, kAll, &kernel<&run_qr>),
      row(LinalgKind::Svd, kCuda, kAll, &kernel<&run_svd>),
      row(LinalgKind::Eigh, kCuda, kAll, &kernel<&run_eigh>),
      row(LinalgKind::Lu, kCuda, kAll, &kernel<&run_lu>),
      row(LinalgKind::Cholesky, kCuda, kAll, &kernel<&run_cholesky>),
      row(LinalgKind::Solve, kCuda, kAll, &kernel<&run_solve>),
      row(LinalgKind::TriangularSolve, kCuda, kAll, &kernel<&run_triangular_solve>),
      row(LinalgKind::Lstsq, kCuda, kAll, &kernel<&run_lstsq>),
      row(LinalgKind::Inv, kCuda, kAll, &kernel<&run_inv>),
      row(LinalgKind::Det, kCuda, kAll, &kernel<&run_det>),
      row(LinalgKind::Slogdet, kCuda, kAll, &kernel<&run_slogdet>),
  };
}

}  // namespace tenferro::linalg_cuda
