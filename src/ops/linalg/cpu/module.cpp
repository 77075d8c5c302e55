// The CPU linalg executor: one executor for the family that checks admission, then runs the
// op's LAPACK kernel on host views of the inputs and adopts the host outputs.
#include <memory>

#include "backends/cpu/cpu_backend.hpp"
#include "ops/linalg/cpu/kernels.hpp"
#include "ops/linalg/module_factory.hpp"
#include "tenferro/core/error.hpp"

namespace tenferro::linalg_cpu {
namespace {

using linalg_internal::LinalgKind;
using linalg_internal::LinalgOp;

std::vector<Tensor> run_kernel(const CpuCall& call, Inputs inputs) {
  switch (call.op.kind()) {
    case LinalgKind::Qr:
      return run_qr(call, inputs);
    case LinalgKind::Svd:
      return run_svd(call, inputs);
    case LinalgKind::Eigh:
      return run_eigh(call, inputs);
    case LinalgKind::Eig:
      return run_eig(call, inputs);
    case LinalgKind::Lu:
      return run_lu(call, inputs);
    case LinalgKind::Cholesky:
      return run_cholesky(call, inputs);
    case LinalgKind::Solve:
      return run_solve(call, inputs);
    case LinalgKind::TriangularSolve:
      return run_triangular_solve(call, inputs);
    case LinalgKind::Lstsq:
      return run_lstsq(call, inputs);
    case LinalgKind::Inv:
      return run_inv(call, inputs);
    case LinalgKind::Det:
      return run_det(call, inputs);
    case LinalgKind::Slogdet:
      return run_slogdet(call, inputs);
  }
  throw_validation(call.op_name(), "unknown linalg op");
}

}  // namespace

std::vector<EagerTensor> cpu_linalg_execute(const ExecutionContext& ctx, const ExtensionOp& op,
                                            std::span<const EagerTensor> inputs) {
  const auto* linalg_op = dynamic_cast<const LinalgOp*>(&op);
  if (linalg_op == nullptr) {
    throw_error(ErrorKind::RuntimeState, ErrorPhase::Execute, std::string(op.name()),
                "the linalg CPU executor was handed an op of another family");
  }
  // Shapes again (the executor may be reached without the public functions), then admission,
  // both before any kernel runs.
  std::vector<TensorMeta> metas;
  metas.reserve(inputs.size());
  for (const EagerTensor& input : inputs) metas.push_back(input.meta());
  linalg_internal::validate_and_infer(*linalg_op, metas);
  linalg_family::admission_table().check(linalg_internal::kind_name(linalg_op->kind()),
                                         BackendKind::Cpu, inputs[0].dtype());
  ctx.record_kernel_launch();
  const CpuCall call{ctx, *linalg_op};
  std::vector<Tensor> host_outputs = run_kernel(call, inputs);
  std::vector<EagerTensor> outputs;
  outputs.reserve(host_outputs.size());
  for (Tensor& t : host_outputs)
    outputs.push_back(adopt_host_tensor(ctx.runtime_ptr(), std::move(t)));
  return outputs;
}

}  // namespace tenferro::linalg_cpu
