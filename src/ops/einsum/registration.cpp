// The einsum registration table: one row per compiled backend (its dtypes -> the program on
// its contraction kernels), the key function, and the shared executor body.
#include "ops/einsum/registration.hpp"

#include "ops/einsum/cpu/cpu_contraction_kernels.hpp"
#include "ops/einsum/einsum_op.hpp"
#include "ops/einsum/executor.hpp"
#include "runtime/op_cast.hpp"
#include "tenferro/einsum.hpp"
#include "tenferro/runtime/runtime.hpp"

namespace tenferro::einsum_internal {
namespace {

using runtime_internal::dtypes;
using runtime_internal::Registration;

runtime_internal::OpKey key_of(const ExtensionOp& op, std::span<const EagerTensor>) {
  const auto* einsum_op = runtime_internal::op_as<EinsumOp>(op);
  if (einsum_op == nullptr) {
    throw_error(ErrorKind::RuntimeState, ErrorPhase::Execute, std::string(op.name()),
                "the einsum executor got an op of another family");
  }
  return {kEinsumOp, einsum_op->plan().dtype};
}

ContractionKernels* cpu_kernels_of(EagerRuntime&) {
  return &cpu_contraction_kernels();
}

// The einsum backends of this build: the one list the rows, the admission and
// contraction_kernels_for come from.
struct EinsumBackend {
  BackendKind kind;
  runtime_internal::DTypeMask dtypes;
  ContractionKernels* (*kernels)(EagerRuntime&);
  runtime_internal::Kernel kernel;  // the row's executor: the program on those kernels
};

// A row's executor: the shared body on one backend's kernels (one instantiation each).
template <ContractionKernels* (*KernelsOf)(EagerRuntime&)>
std::vector<EagerTensor> run_on(const ExecutionContext& ctx, const ExtensionOp& op,
                                std::span<const EagerTensor> inputs) {
  return execute_einsum(ctx, op, inputs, *KernelsOf(ctx.runtime()));
}

const EinsumBackend kBackends[] = {
    {BackendKind::Cpu, runtime_internal::kAllFloatDTypes, &cpu_kernels_of,
     &run_on<&cpu_kernels_of>},
#if TENFERRO_HAS_WEBGPU
    {BackendKind::WebGpu, dtypes({DType::F32, DType::C32}),  // WGSL has no f64
     &webgpu_contraction_kernels, &run_on<&webgpu_contraction_kernels>},
#endif
#if TENFERRO_HAS_CUDA
    {BackendKind::Cuda, runtime_internal::kAllFloatDTypes, &cuda_contraction_kernels,
     &run_on<&cuda_contraction_kernels>},
#endif
};

runtime_internal::FamilyInfo family_info() {
  runtime_internal::FamilyInfo info;
  info.family = std::string(einsum_family::kFamily);
  info.ops = {"einsum"};
  info.key_of = &key_of;
  info.notes[static_cast<std::size_t>(BackendKind::WebGpu)] = "WGSL has no f64";
  runtime_internal::note_backends_not_compiled_in(info);
  return info;
}

std::vector<Registration> all_rows() {
  std::vector<Registration> rows;
  for (const EinsumBackend& b : kBackends) rows.push_back({kEinsumOp, b.kind, b.dtypes, b.kernel});
  return rows;
}

}  // namespace

const runtime_internal::RegistrationTable& registration_table() {
  static const runtime_internal::RegistrationTable table(family_info(), all_rows());
  return table;
}

ModulePtr einsum_module_for(const EagerExtensionTarget& target) {
  return registration_table().module_for(target);
}

std::vector<EagerTensor> execute_einsum(const ExecutionContext& ctx, const ExtensionOp& op,
                                        std::span<const EagerTensor> inputs,
                                        ContractionKernels& kernels) {
  // The table's key function has checked the op's family.
  const auto& einsum_op = static_cast<const EinsumOp&>(op);
  const EinsumPlan& plan = einsum_op.plan();
  ctx.record_kernel_launch();
  // A sliced plan runs on any backend's kernels (their accumulate sums the slices).
  if (!plan.path.sliced_labels.empty())
    return {run_sliced_program(ctx.runtime(), kernels, plan, inputs, einsum_op.slices())};
  return {run_program(ctx.runtime(), kernels, plan, inputs)};
}

ContractionKernels* contraction_kernels_for(EagerRuntime& runtime) {
  for (const EinsumBackend& b : kBackends)
    if (b.kind == runtime.backend_kind()) return b.kernels(runtime);
  return nullptr;
}

}  // namespace tenferro::einsum_internal

namespace tenferro {

const AdmissionTable& einsum_family::admission_table() {
  return einsum_internal::registration_table().admission();
}

}  // namespace tenferro
