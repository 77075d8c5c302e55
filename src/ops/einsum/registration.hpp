// Einsum's registration table (runtime_internal::RegistrationTable) and the per-backend hooks:
// every backend runs the same program with its own ContractionKernels, so each backend's row is
// "einsum, its dtypes -> the program on its kernels". Admission, the modules, the op name and
// `tenferro info` are derived from the rows. Device backends plug in through the functions
// declared under their build flags (implemented in ops/einsum/<backend>/).
#pragma once

#include <span>
#include <vector>

#include "ops/einsum/contraction_kernels.hpp"
#include "runtime/registration_table.hpp"
#include "tenferro/config.hpp"

namespace tenferro::einsum_internal {

// The family has one op, "einsum" (op index 0), keyed by the plan's dtype.
inline constexpr std::uint32_t kEinsumOp = 0;

const runtime_internal::RegistrationTable& registration_table();

// The module of the target's engine (id "<family>/<engine>") for every backend kind with rows,
// else a typed Unsupported error before anything executes.
ModulePtr einsum_module_for(const EagerExtensionTarget& target);

// The runtime's own kernels for the direct binary-dot path, or nullptr when this build has no
// einsum kernels for its backend (the caller then takes the dispatch path, which reports it).
ContractionKernels* contraction_kernels_for(EagerRuntime& runtime);

// The body every backend's row shares: records the launch and runs the op's program with
// `kernels` on the context's runtime (admission was answered by the factory).
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
