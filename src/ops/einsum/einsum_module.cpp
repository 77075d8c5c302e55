#include "ops/einsum/einsum_module.hpp"

#include <memory>

#include "ops/einsum/cpu/cpu_contraction_kernels.hpp"
#include "ops/einsum/einsum_op.hpp"
#include "ops/einsum/executor.hpp"
#include "runtime/family_modules.hpp"
#include "tenferro/einsum.hpp"
#include "tenferro/runtime/runtime.hpp"

namespace tenferro {

const AdmissionTable& einsum_family::admission_table() {
  static const AdmissionTable table = [] {
    AdmissionTable t(std::string(kFamily), {"einsum"});
    t.admit("einsum", BackendKind::Cpu, {DType::F32, DType::F64, DType::C32, DType::C64});
#if TENFERRO_HAS_WEBGPU
    t.admit("einsum", BackendKind::WebGpu, {DType::F32, DType::C32});
    t.note(BackendKind::WebGpu, "WGSL has no f64");
#else
    t.note(BackendKind::WebGpu, "not compiled in");
#endif
#if TENFERRO_HAS_CUDA
    t.admit("einsum", BackendKind::Cuda, {DType::F32, DType::F64, DType::C32, DType::C64});
#else
    t.note(BackendKind::Cuda, "not compiled in");
#endif
    return t;
  }();
  return table;
}

namespace einsum_internal {

std::vector<EagerTensor> execute_einsum(const ExecutionContext& ctx, const ExtensionOp& op,
                                        std::span<const EagerTensor> inputs,
                                        ContractionKernels& kernels) {
  const auto* einsum_op = dynamic_cast<const EinsumOp*>(&op);
  if (einsum_op == nullptr)
    throw_error(ErrorKind::RuntimeState, ErrorPhase::Execute, std::string(op.name()),
                "the einsum executor got an op of another family");
  const EinsumPlan& plan = einsum_op->plan();
  einsum_family::admission_table().check("einsum", ctx.runtime().backend_kind(), plan.dtype);
  ctx.record_kernel_launch();
  if (!plan.path.sliced_labels.empty()) {
    // einsum() refuses sliced plans off the CPU before dispatch; this guards other callers.
    if (ctx.runtime().backend_kind() != BackendKind::Cpu)
      throw_error(ErrorKind::Unsupported, ErrorPhase::Execute, "einsum",
                  "sliced execution is implemented for the CPU backend only");
    return {run_sliced_program(ctx.runtime(), kernels, plan, inputs, einsum_op->slices())};
  }
  return {run_program(ctx.runtime(), kernels, plan, inputs)};
}

ModulePtr einsum_module_for(const EagerExtensionTarget& target) {
  // Every backend runs the same program with its own contraction kernels.
  const ExtensionExecutor executor = [](const ExecutionContext& ctx, const ExtensionOp& op,
                                        std::span<const EagerTensor> inputs) {
    return execute_einsum(ctx, op, inputs, *contraction_kernels_for(ctx.runtime()));
  };
  static const runtime_internal::FamilyModules modules(std::string(einsum_family::kFamily),
                                                       {{
                                                           {executor, ""},  // Cpu
#if TENFERRO_HAS_CUDA
                                                           {executor, ""},  // Cuda
#else
                                                           {{}, "this build has no CUDA backend"},
#endif
#if TENFERRO_HAS_WEBGPU
                                                           {executor, ""},  // WebGpu
#else
                                                           {{}, "this build has no WebGPU backend"},
#endif
                                                       }});
  return modules.module_for(target);
}

ContractionKernels* contraction_kernels_for(EagerRuntime& runtime) {
  switch (runtime.backend_kind()) {
    case BackendKind::Cpu:
      return &cpu_contraction_kernels();
    case BackendKind::WebGpu:
#if TENFERRO_HAS_WEBGPU
      return webgpu_contraction_kernels(runtime);
#else
      return nullptr;
#endif
    case BackendKind::Cuda:
#if TENFERRO_HAS_CUDA
      return cuda_contraction_kernels(runtime);
#else
      return nullptr;
#endif
  }
  return nullptr;
}

}  // namespace einsum_internal
}  // namespace tenferro
