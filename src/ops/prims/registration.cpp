// The prims registration table: one row per (op, backend) with the dtypes the backend's kernel
// set claims (intersected with what the op's semantics allow), the key function, and the
// dispatch of the public functions through it.
#include "ops/prims/registration.hpp"

#include <string>

#include "runtime/dispatch_internal.hpp"
#include "runtime/op_cast.hpp"
#include "tenferro/config.hpp"
#include "tenferro/prims.hpp"
#include "tenferro/runtime/errors.hpp"
#include "tenferro/runtime/runtime.hpp"

namespace tenferro::prims_internal {
namespace {

using runtime_internal::OpKey;
using runtime_internal::Registration;

// What admission is keyed by: the kernel input's dtype (Generate: the output's), and for a
// cast also the dtype it writes, which the backend must run as well.
OpKey key_of(const PrimsOp& op) {
  OpKey key{static_cast<std::uint32_t>(op.kind()), op.admission_dtype()};
  if (op.kind() == PrimKind::Cast) key.to = op.payload().out.dtype;
  return key;
}

OpKey key_of_op(const ExtensionOp& op, std::span<const EagerTensor>) {
  const auto* prims_op = runtime_internal::op_as<PrimsOp>(op);
  if (prims_op == nullptr) {
    throw_error(ErrorKind::RuntimeState, ErrorPhase::Execute, std::string(op.name()),
                "the prims executor was handed an op of another family");
  }
  return key_of(*prims_op);
}

// The kernel sets compiled into this build.
const std::vector<const PrimsKernels*>& kernel_sets() {
  static const std::vector<const PrimsKernels*> sets = [] {
    std::vector<const PrimsKernels*> v{&cpu_prims_kernels()};
#if TENFERRO_HAS_WEBGPU
    v.push_back(&webgpu_prims_kernels());
#endif
#if TENFERRO_HAS_CUDA
    v.push_back(&cuda_prims_kernels());
#endif
    return v;
  }();
  return sets;
}

// A row's kernel is a plain function: one instantiation per kernel set.
template <const PrimsKernels& (*Set)()>
std::vector<EagerTensor> run_set(const ExecutionContext& ctx, const ExtensionOp& op,
                                 std::span<const EagerTensor> inputs) {
  return execute(Set(), ctx, op, inputs);
}

// The rows of one kernel set: each op on the dtypes the set runs and the op allows.
template <const PrimsKernels& (*Set)()>
void add_rows(std::vector<Registration>& rows) {
  const PrimsKernels& k = Set();
  for (const PrimInfo& p : kPrimInfo) {
    const DTypeMask mask = k.runs[static_cast<std::size_t>(p.kind)] & p.dtypes;
    if (mask != 0)
      rows.push_back({static_cast<std::uint32_t>(p.kind), k.backend, mask, &run_set<Set>});
  }
}

std::vector<Registration> all_rows() {
  std::vector<Registration> rows;
  add_rows<&cpu_prims_kernels>(rows);
#if TENFERRO_HAS_WEBGPU
  add_rows<&webgpu_prims_kernels>(rows);
#endif
#if TENFERRO_HAS_CUDA
  add_rows<&cuda_prims_kernels>(rows);
#endif
  return rows;
}

runtime_internal::FamilyInfo family_info() {
  runtime_internal::FamilyInfo info;
  info.family = std::string(prims_family::kFamily);
  for (const PrimInfo& p : kPrimInfo) info.ops.emplace_back(p.name);
  info.key_of = &key_of_op;
  info.notes[static_cast<std::size_t>(BackendKind::WebGpu)] = "WGSL has no f64: F32/C32 only";
  for (std::string& why : info.missing) why = "this build has no prims kernels for this backend";
  runtime_internal::note_backends_not_compiled_in(info);
  return info;
}

}  // namespace

const runtime_internal::RegistrationTable& registration_table() {
  static const runtime_internal::RegistrationTable table(family_info(), all_rows());
  return table;
}

const PrimsKernels* kernels_for(BackendKind backend) noexcept {
  for (const PrimsKernels* k : kernel_sets()) {
    if (k->backend == backend) return k;
  }
  return nullptr;
}

ModulePtr prims_module_for(const EagerExtensionTarget& target) {
  return registration_table().module_for(target);
}

namespace {

EagerTensor dispatch(const std::shared_ptr<EagerRuntime>& runtime, const PrimsOp& op,
                     std::span<const EagerTensor> inputs) {
  return std::move(
      runtime_internal::dispatch_table(runtime, op, inputs, registration_table(), key_of(op))
          .at(0));
}

}  // namespace

EagerTensor run(const PrimsOp& op, std::span<const EagerTensor> inputs) {
  return dispatch(require_one_runtime(op.name(), inputs, op.arity()), op, inputs);
}

EagerTensor run_operands(const std::shared_ptr<EagerRuntime>& runtime, const PrimsOp& op,
                         std::span<const EagerTensor> operands) {
  // The checks of require_one_runtime, which would hand back operand 0's (maybe borrowed)
  // pointer.
  if (require_one_runtime(op.name(), operands, op.arity()).get() != runtime.get()) {
    throw ContextMismatchError(std::string(op.name()), 0, runtime ? runtime->id() : 0,
                               operands[0].runtime()->id());
  }
  return dispatch(runtime, op, operands);
}

EagerTensor run_on(const std::shared_ptr<EagerRuntime>& runtime, const PrimsOp& op) {
  // Creation ops name their runtime; the factory answers admission from the same table.
  const runtime_internal::RegistrationTable& table = registration_table();
  const auto factory = [&](const EagerExtensionTarget& target) {
    return table.module_for(target, key_of(op));
  };
  return std::move(
      runtime_internal::dispatch_on_runtime(runtime, op, {}, factory, table.family_id()).at(0));
}

}  // namespace tenferro::prims_internal

namespace tenferro::prims_family {

const AdmissionTable& admission_table() {
  return prims_internal::registration_table().admission();
}

}  // namespace tenferro::prims_family
