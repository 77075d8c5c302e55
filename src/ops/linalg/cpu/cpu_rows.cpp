// The CPU rows of the linalg registration table: LAPACK runs every op on every dtype. Each row's
// kernel runs the op's LAPACK entry point on host views of the inputs and adopts the host
// outputs into the runtime.
#include "backends/cpu/cpu_backend.hpp"
#include "ops/linalg/cpu/kernels.hpp"
#include "ops/linalg/registration.hpp"

namespace tenferro::linalg_cpu {
namespace {

using linalg_internal::LinalgKind;
using linalg_internal::LinalgOp;
using HostKernel = std::vector<Tensor> (*)(const CpuCall&, Inputs);

// The row kernel around one LAPACK entry point. The table's key function has checked that
// `op` is a LinalgOp.
template <HostKernel Run>
std::vector<EagerTensor> kernel(const ExecutionContext& ctx, const ExtensionOp& op,
                                std::span<const EagerTensor> inputs) {
  const auto& linalg_op = static_cast<const LinalgOp&>(op);
  linalg_internal::validate_unless_marked(linalg_op, inputs);
  ctx.record_kernel_launch();
  std::vector<Tensor> host_outputs = Run(CpuCall{ctx, linalg_op}, inputs);
  std::vector<EagerTensor> outputs;
  outputs.reserve(host_outputs.size());
  for (Tensor& t : host_outputs)
    outputs.push_back(adopt_host_tensor(ctx.runtime_ptr(), std::move(t)));
  return outputs;
}

}  // namespace

std::vector<runtime_internal::Registration> cpu_rows() {
  using linalg_internal::row;
  constexpr BackendKind kCpu = BackendKind::Cpu;
  constexpr runtime_internal::DTypeMask kAll = runtime_internal::kAllFloatDTypes;
  return {
      row(LinalgKind::Qr, kCpu, kAll, &kernel<&run_qr>),
      row(LinalgKind::Svd, kCpu, kAll, &kernel<&run_svd>),
      row(LinalgKind::Eigh, kCpu, kAll, &kernel<&run_eigh>),
      row(LinalgKind::Eig, kCpu, kAll, &kernel<&run_eig>),
      row(LinalgKind::Lu, kCpu, kAll, &kernel<&run_lu>),
      row(LinalgKind::Cholesky, kCpu, kAll, &kernel<&run_cholesky>),
      row(LinalgKind::Solve, kCpu, kAll, &kernel<&run_solve>),
      row(LinalgKind::TriangularSolve, kCpu, kAll, &kernel<&run_triangular_solve>),
      row(LinalgKind::Lstsq, kCpu, kAll, &kernel<&run_lstsq>),
      row(LinalgKind::Inv, kCpu, kAll, &kernel<&run_inv>),
      row(LinalgKind::Det, kCpu, kAll, &kernel<&run_det>),
      row(LinalgKind::Slogdet, kCpu, kAll, &kernel<&run_slogdet>),
  };
}

}  // namespace tenferro::linalg_cpu
