// The linalg registration table: the rows every compiled backend registers, and how a call's
// key (op, dtype) is read. Admission, modules and `tenferro info` are derived from it.
#include "ops/linalg/registration.hpp"

#include "runtime/op_cast.hpp"
#include "tenferro/linalg.hpp"

namespace tenferro::linalg_internal {
namespace {

runtime_internal::OpKey key_of(const ExtensionOp& op, std::span<const EagerTensor> inputs) {
  const auto* linalg_op = runtime_internal::op_as<LinalgOp>(op);
  if (linalg_op == nullptr || inputs.empty()) {
    throw_error(ErrorKind::RuntimeState, ErrorPhase::Execute, std::string(op.name()),
                "the linalg executor was handed an op of another family");
  }
  // Admission is keyed by the first input's dtype (every linalg op takes one dtype).
  return {static_cast<std::uint32_t>(linalg_op->kind()), inputs[0].dtype()};
}

runtime_internal::FamilyInfo family_info() {
  runtime_internal::FamilyInfo info;
  info.family = std::string(linalg_family::kFamily);
  for (std::size_t k = 0; k < kLinalgKindCount; ++k)
    info.ops.emplace_back(kind_name(static_cast<LinalgKind>(k)));
  info.key_of = &key_of;
  info.notes[static_cast<std::size_t>(BackendKind::Cuda)] =
      "cuSOLVER; eig: cuSOLVER has no dense non-symmetric eigensolver; lstsq from the device "
      "SVD (rank-revealing, as the CPU's gelsd)";
  info.notes[static_cast<std::size_t>(BackendKind::WebGpu)] = "linalg has no WebGPU implementation";
  info.missing[static_cast<std::size_t>(BackendKind::WebGpu)] =
      "linalg has no WebGPU implementation; download() the inputs and upload() them to a CPU "
      "runtime to factorise there";
  runtime_internal::note_backends_not_compiled_in(info);
  return info;
}

std::vector<runtime_internal::Registration> all_rows() {
  std::vector<runtime_internal::Registration> rows = linalg_cpu::cpu_rows();
#if TENFERRO_HAS_CUDA
  for (const auto& r : linalg_cuda::cuda_rows()) rows.push_back(r);
#endif
  return rows;
}

}  // namespace

const runtime_internal::RegistrationTable& registration_table() {
  static const runtime_internal::RegistrationTable table(family_info(), all_rows());
  return table;
}

ModulePtr linalg_module_for(const EagerExtensionTarget& target) {
  return registration_table().module_for(target);
}

}  // namespace tenferro::linalg_internal

namespace tenferro::linalg_family {

const AdmissionTable& admission_table() {
  return linalg_internal::registration_table().admission();
}

}  // namespace tenferro::linalg_family
