// The module factory: picks the linalg module for the runtime's target, never another one.
#include "ops/linalg/module_factory.hpp"

#include "tenferro/config.hpp"
#include "tenferro/linalg.hpp"

namespace tenferro::linalg_internal {

ModulePtr linalg_module_for(const EagerExtensionTarget& target) {
  switch (target.backend_kind) {
    case BackendKind::Cpu: {
      // Modules are immutable metadata, so one per (BackendKind, EngineId) is shared by every
      // CPU runtime with that engine; a different engine id builds its own.
      static ModuleCache cache;
      return cache.get_or_build(target, [&] { return extension_module_cpu(target.engine_id); });
    }
    case BackendKind::Cuda:
#if TENFERRO_HAS_CUDA
      // CUDA ARM: when the cuSOLVER executor exists this becomes
      //   return cuda_linalg_module(target);
      // Until then a CUDA runtime must get a typed refusal, never the CPU module.
      throw_unsupported_target(linalg_family::kFamily, target,
                               "linalg has no CUDA implementation yet");
#else
      throw_unsupported_target(linalg_family::kFamily, target, "this build has no CUDA backend");
#endif
    case BackendKind::WebGpu:
      throw_unsupported_target(linalg_family::kFamily, target,
                               "linalg has no WebGPU implementation; download() the inputs and "
                               "upload() them to a CPU runtime to factorise there");
  }
  throw_unsupported_target(linalg_family::kFamily, target, "unknown backend kind");
}

}  // namespace tenferro::linalg_internal
