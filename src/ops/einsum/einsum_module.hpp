// Einsum's extension module, module factory and the per-backend hooks. The factory switches
// on the target's backend kind; device backends plug in through the functions declared under
// their build flags (implemented in ops/einsum/<backend>/).
#pragma once

#include <span>
#include <vector>

#include "ops/einsum/contraction_kernels.hpp"
#include "tenferro/config.hpp"
#include "tenferro/runtime/extension.hpp"

namespace tenferro::einsum_internal {

// The family's module factory (runtime_internal::FamilyModules): the module of the target's
// engine for every backend kind compiled in (id "<family>/<engine>"), else a typed Unsupported
// error before anything executes.
ModulePtr einsum_module_for(const EagerExtensionTarget& target);

// The runtime's own kernels for the direct binary-dot path, or nullptr when this build has no
// einsum kernels for its backend (the caller then takes the dispatch path, which reports it).
ContractionKernels* contraction_kernels_for(EagerRuntime& runtime);

// The body every backend's executor shares: checks the admission table, records the launch
// and runs the op's program with `kernels` on the context's runtime.
std::vector<EagerTensor> execute_einsum(const ExecutionContext& ctx, const ExtensionOp& op,
                                        std::span<const EagerTensor> inputs,
                                        ContractionKernels& kernels);

#if TENFERRO_HAS_WEBGPU
// Implemented in ops/einsum/webgpu/: the runtime's WebGPU ContractionKernels (its backend
// must be the WebGPU backend).
ContractionKernels* webgpu_contraction_kernels(EagerRuntime& runtime);
#endif

#if TENFERRO_HAS_CUDA
// Implemented in ops/einsum/cuda/: the runtime's CUDA ContractionKernels (its backend must be
// the CUDA backend).
ContractionKernels* cuda_contraction_kernels(EagerRuntime& runtime);
#endif

}  // namespace tenferro::einsum_internal
