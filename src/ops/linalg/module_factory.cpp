// The linalg module factory: the family's executors by backend kind, nothing else.
#include "ops/linalg/module_factory.hpp"

#include "runtime/family_modules.hpp"
#include "tenferro/linalg.hpp"

namespace tenferro::linalg_internal {

ModulePtr linalg_module_for(const EagerExtensionTarget& target) {
  static const runtime_internal::FamilyModules modules(
      std::string(linalg_family::kFamily),
      {{
          {&linalg_cpu::cpu_linalg_execute, ""},  // Cpu
#if TENFERRO_HAS_CUDA
          {&linalg_cuda::cuda_linalg_execute, ""},  // Cuda
#else
          {{}, "this build has no CUDA backend"},
#endif
          {{},  // WebGpu
           "linalg has no WebGPU implementation; download() the inputs and upload() them to a "
           "CPU runtime to factorise there"},
      }});
  return modules.module_for(target);
}

}  // namespace tenferro::linalg_internal
