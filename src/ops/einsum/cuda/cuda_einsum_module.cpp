// The CUDA arm of einsum: the module registered for a CUDA engine, and the runtime's CUDA
// contraction kernels (used by that module's executor and by the direct binary path).
#include <memory>

#include "backends/cuda/cuda_backend.hpp"
#include "ops/einsum/cuda/cuda_contraction_kernels.hpp"
#include "ops/einsum/einsum_module.hpp"
#include "tenferro/einsum.hpp"
#include "tenferro/runtime/runtime.hpp"

namespace tenferro::einsum_internal {
namespace {

constexpr const char* kCudaModuleId = "tenferro.einsum.cuda";

ModulePtr build_cuda_module(const EngineId& engine) {
  auto module = std::make_shared<ExtensionModule>(kCudaModuleId);
  module->register_executor(
      std::string(einsum_family::kFamily), engine,
      [](const ExecutionContext& ctx, const ExtensionOp& op, std::span<const EagerTensor> inputs) {
        // execute_einsum checks the admission table before any kernel runs.
        return execute_einsum(ctx, op, inputs, *cuda_contraction_kernels(ctx.runtime()));
      });
  return module;
}

}  // namespace

ModulePtr cuda_einsum_module(const EagerExtensionTarget& target) {
  if (target.backend_kind != BackendKind::Cuda) {
    throw_unsupported_target(einsum_family::kFamily, target,
                             "the CUDA module serves CUDA engines only");
  }
  // Modules are immutable metadata: one per (backend kind, engine id), never shared across
  // devices (tenferro.cuda.d0.v1 and tenferro.cuda.d1.v1 get distinct modules).
  static ModuleCache modules;
  return modules.get_or_build(target, [&] { return build_cuda_module(target.engine_id); });
}

ContractionKernels* cuda_contraction_kernels(EagerRuntime& runtime) {
  auto* backend = dynamic_cast<CudaBackend*>(&runtime.backend());
  if (backend == nullptr) {
    throw_error(ErrorKind::RuntimeState, ErrorPhase::Execute, "einsum",
                "CUDA einsum kernels asked for on a " +
                    std::string(backend_kind_name(runtime.backend_kind())) + " runtime");
  }
  return &backend->family_state<CudaContractionKernels>(
      [&] { return std::make_shared<CudaContractionKernels>(*backend); });
}

}  // namespace tenferro::einsum_internal
