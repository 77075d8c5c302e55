// The linalg family's module factory: the switch over the runtime's BackendKind.
#pragma once

#include "ops/linalg/linalg_op.hpp"
#include "tenferro/config.hpp"
#include "tenferro/runtime/extension.hpp"

namespace tenferro::linalg_internal {

// CPU: the CPU module for the target's engine (cached per (BackendKind, EngineId)).
// CUDA: the CUDA module when compiled in (ops it lacks are refused by the admission table).
// WebGPU (and CUDA when not compiled in): a typed Unsupported error, before anything executes.
ModulePtr linalg_module_for(const EagerExtensionTarget& target);

// The CPU module: registers the linalg executor for (tenferro.linalg.v1, engine).
ModulePtr extension_module_cpu(const EngineId& engine);

#if TENFERRO_HAS_CUDA
// The CUDA module (cuSOLVER executor, src/ops/linalg/cuda/) for the target's engine.
ModulePtr cuda_linalg_module(const EagerExtensionTarget& target);
// Whether the CUDA executor has a kernel for `kind`: the CUDA rows of the admission table are
// derived from this answer, so CUDA admits exactly what it runs.
bool cuda_linalg_implements(LinalgKind kind) noexcept;
#endif

}  // namespace tenferro::linalg_internal
