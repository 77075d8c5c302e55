// The CUDA linalg module: one executor for the family that validates shapes, checks the
// admission table (CUDA: every op but eig and lstsq), then runs the op's
// cuSOLVER path on the runtime's stream. Outputs are device values of the runtime; nothing is
// copied to the host.
#include <memory>

#include "ops/linalg/cuda/cuda_linalg_call.hpp"
#include "ops/linalg/module_factory.hpp"
#include "tenferro/linalg.hpp"
#include "tenferro/runtime/runtime.hpp"

namespace tenferro::linalg_cuda {
namespace {

using linalg_internal::LinalgKind;
using linalg_internal::LinalgOp;

std::vector<EagerTensor> execute(const ExecutionContext& ctx, const ExtensionOp& op,
                                 std::span<const EagerTensor> inputs) {
  const auto* linalg_op = dynamic_cast<const LinalgOp*>(&op);
  if (linalg_op == nullptr) {
    throw_error(ErrorKind::RuntimeState, ErrorPhase::Execute, std::string(op.name()),
                "the linalg CUDA executor was handed an op of another family");
  }
  std::vector<TensorMeta> metas;
  metas.reserve(inputs.size());
  for (const EagerTensor& input : inputs) metas.push_back(input.meta());
  linalg_internal::validate_and_infer(*linalg_op, metas);
  linalg_family::admission_table().check(linalg_internal::kind_name(linalg_op->kind()),
                                         BackendKind::Cuda, inputs[0].dtype());
  auto& backend = ctx.backend_as<CudaBackend>();
  backend.make_current();
  ctx.record_kernel_launch();
  const CudaCall call{ctx, *linalg_op, backend};
  switch (linalg_op->kind()) {
    case LinalgKind::Qr:
      return run_qr(call, inputs);
    case LinalgKind::Svd:
      return run_svd(call, inputs);
    case LinalgKind::Eigh:
      return run_eigh(call, inputs);
    case LinalgKind::Lu:
      return run_lu(call, inputs);
    case LinalgKind::Cholesky:
      return run_cholesky(call, inputs);
    case LinalgKind::Solve:
      return run_solve(call, inputs);
    case LinalgKind::TriangularSolve:
      return run_triangular_solve(call, inputs);
    case LinalgKind::Inv:
      return run_inv(call, inputs);
    case LinalgKind::Det:
      return run_det(call, inputs);
    case LinalgKind::Slogdet:
      return run_slogdet(call, inputs);
    case LinalgKind::Eig:
    case LinalgKind::Lstsq:
      break;  // refused by the admission table above
  }
  // Unreachable while the admission table matches this switch.
  throw_error(ErrorKind::Unsupported, ErrorPhase::Execute, std::string(op.name()),
              "no CUDA implementation");
}

}  // namespace
}  // namespace tenferro::linalg_cuda

namespace tenferro::linalg_internal {

ModulePtr cuda_linalg_module(const EagerExtensionTarget& target) {
  if (target.backend_kind != BackendKind::Cuda) {
    throw_unsupported_target(linalg_family::kFamily, target,
                             "the CUDA linalg module serves CUDA engines only");
  }
  static ModuleCache cache;  // one per (BackendKind, EngineId): devices never share one
  return cache.get_or_build(target, [&] {
    auto module =
        std::make_shared<ExtensionModule>("tenferro.linalg.cuda." + target.engine_id.str());
    module->register_executor(std::string(linalg_family::kFamily), target.engine_id,
                              &linalg_cuda::execute);
    return module;
  });
}

}  // namespace tenferro::linalg_internal
