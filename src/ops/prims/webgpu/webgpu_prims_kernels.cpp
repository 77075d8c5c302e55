// The WebGPU kernel set: every prims op for F32 and C32 where its semantics allow them (the
// admission table is derived from `runs`, so nothing is claimed that is not run here).
#include "ops/prims/webgpu/webgpu_prims_kernels.hpp"

namespace tenferro::prims_internal {

const PrimsKernels& webgpu_prims_kernels() {
  static const PrimsKernels kernels = [] {
    PrimsKernels k;
    k.backend = BackendKind::WebGpu;
    for (const PrimInfo& p : kPrimInfo) {
      k.runs[static_cast<std::size_t>(p.kind)] = p.dtypes & kSinglePrecision;
    }
    k.elementwise = &prims_webgpu::elementwise;
    k.reduce = &prims_webgpu::reduce;
    k.scan = &prims_webgpu::scan;
    k.generate = &prims_webgpu::generate;
    return k;
  }();
  return kernels;
}

}  // namespace tenferro::prims_internal
