// The linalg family's module factory: the switch over the runtime's BackendKind.
#pragma once

#include "tenferro/config.hpp"
#include "tenferro/runtime/extension.hpp"

namespace tenferro::linalg_internal {

// CPU: the CPU module for the target's engine (cached per (BackendKind, EngineId)).
// CUDA / WebGPU: a typed Unsupported error, thrown before anything executes.
ModulePtr linalg_module_for(const EagerExtensionTarget& target);

// The CPU module: registers the linalg executor for (tenferro.linalg.v1, engine).
ModulePtr extension_module_cpu(const EngineId& engine);

#if TENFERRO_HAS_CUDA
// To be implemented by the CUDA backend (cuSOLVER executor) under src/ops/linalg/cuda/.
// Not called yet: see linalg_module_for.
ModulePtr cuda_linalg_module(const EagerExtensionTarget& target);
#endif

}  // namespace tenferro::linalg_internal
