// The WebGPU arm of einsum: the runtime's WebGPU contraction kernels (used by the family's
// executor and by the direct binary path).
#include <memory>

#include "backends/webgpu/webgpu_backend.hpp"
#include "ops/einsum/registration.hpp"
#include "ops/einsum/webgpu/webgpu_contraction_kernels.hpp"
#include "tenferro/einsum.hpp"
#include "tenferro/runtime/runtime.hpp"

namespace tenferro::einsum_internal {
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
