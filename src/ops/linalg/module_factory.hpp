// The linalg family's modules: one runtime_internal::FamilyModules built from the executor
// each backend kind registers (CPU: LAPACK; CUDA: cuSOLVER when compiled in; WebGPU: none).
#pragma once

#include <span>
#include <vector>

#include "ops/linalg/linalg_op.hpp"
#include "tenferro/config.hpp"
#include "tenferro/runtime/extension.hpp"

namespace tenferro::linalg_cpu {
// The CPU executor (src/ops/linalg/cpu/module.cpp).
std::vector<EagerTensor> cpu_linalg_execute(const ExecutionContext& ctx, const ExtensionOp& op,
                                            std::span<const EagerTensor> inputs);
}  // namespace tenferro::linalg_cpu

#if TENFERRO_HAS_CUDA
namespace tenferro::linalg_cuda {
// The CUDA executor (src/ops/linalg/cuda/cuda_linalg_module.cpp).
std::vector<EagerTensor> cuda_linalg_execute(const ExecutionContext& ctx, const ExtensionOp& op,
                                             std::span<const EagerTensor> inputs);
}  // namespace tenferro::linalg_cuda
#endif

namespace tenferro::linalg_internal {

// The module of the target's engine (id "<family>/<engine>"), or a typed Unsupported error
// before anything executes for a backend kind linalg does not run on in this build. Ops a
// backend lacks are refused by the admission table, also before execution.
ModulePtr linalg_module_for(const EagerExtensionTarget& target);

#if TENFERRO_HAS_CUDA
// Whether the CUDA executor has a kernel for `kind`: the CUDA rows of the admission table are
// derived from this answer, so CUDA admits exactly what it runs.
bool cuda_linalg_implements(LinalgKind kind) noexcept;
#endif

}  // namespace tenferro::linalg_internal
