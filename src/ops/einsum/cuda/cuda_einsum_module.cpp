// The CUDA arm of einsum: the runtime's CUDA contraction kernels (used by the CUDA row of the
// registration table and by the direct binary path).
#include <memory>

#include "backends/cuda/cuda_backend.hpp"
#include "ops/einsum/cuda/cuda_contraction_kernels.hpp"
#include "ops/einsum/registration.hpp"
#include "tenferro/einsum.hpp"
#include "tenferro/runtime/runtime.hpp"

namespace tenferro::einsum_internal {
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
