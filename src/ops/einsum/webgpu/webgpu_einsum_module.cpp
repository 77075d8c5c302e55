// The WebGPU arm of einsum: the module registered for a WebGPU engine, and the runtime's
// WebGPU contraction kernels (used by that module's executor and by the direct binary path).
#include <memory>

#include "backends/webgpu/webgpu_backend.hpp"
#include "ops/einsum/einsum_module.hpp"
#include "ops/einsum/webgpu/webgpu_contraction_kernels.hpp"
#include "tenferro/einsum.hpp"
#include "tenferro/runtime/runtime.hpp"

namespace tenferro::einsum_internal {
namespace {

constexpr const char* kWebGpuModuleId = "tenferro.einsum.webgpu";

ModulePtr build_webgpu_module(const EngineId& engine) {
  auto module = std::make_shared<ExtensionModule>(kWebGpuModuleId);
  module->register_executor(
      std::string(einsum_family::kFamily), engine,
      [](const ExecutionContext& ctx, const ExtensionOp& op, std::span<const EagerTensor> inputs) {
        // execute_einsum checks the admission table (F64/C64 refused) before any kernel runs.
        return execute_einsum(ctx, op, inputs, *webgpu_contraction_kernels(ctx.runtime()));
      });
  return module;
}

}  // namespace

ModulePtr webgpu_einsum_module(const EagerExtensionTarget& target) {
  if (target.backend_kind != BackendKind::WebGpu) {
    throw_unsupported_target(einsum_family::kFamily, target,
                             "the WebGPU module serves WebGPU engines only");
  }
  // Modules are immutable metadata: one per (backend kind, engine id), never shared across.
  static ModuleCache modules;
  return modules.get_or_build(target, [&] { return build_webgpu_module(target.engine_id); });
}

ContractionKernels* webgpu_contraction_kernels(EagerRuntime& runtime) {
  auto* backend = dynamic_cast<WebGpuBackend*>(&runtime.backend());
  if (backend == nullptr) {
    throw_error(ErrorKind::RuntimeState, ErrorPhase::Execute, "einsum",
                "WebGPU einsum kernels asked for on a " +
                    std::string(backend_kind_name(runtime.backend_kind())) + " runtime");
  }
  return &backend->family_state<WebGpuContractionKernels>(
      [&] { return std::make_shared<WebGpuContractionKernels>(*backend); });
}

}  // namespace tenferro::einsum_internal
