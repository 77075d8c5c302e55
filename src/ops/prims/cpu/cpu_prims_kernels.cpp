// The CPU kernel set: every prims op for every dtype its semantics allow.
#include "ops/prims/cpu/cpu_kernels.hpp"

namespace tenferro::prims_internal {

const PrimsKernels& cpu_prims_kernels() {
  static const PrimsKernels kernels = [] {
    PrimsKernels k;
    k.backend = BackendKind::Cpu;
    for (const PrimInfo& p : kPrimInfo) k.runs[static_cast<std::size_t>(p.kind)] = p.dtypes;
    k.elementwise = &prims_cpu::elementwise;
    k.reduce = &prims_cpu::reduce;
    k.scan = &prims_cpu::scan;
    k.generate = &prims_cpu::generate;
    return k;
  }();
  return kernels;
}

}  // namespace tenferro::prims_internal
