// apply_eager_with_targeted_extension_session: the one path every extension-backed eager call
// takes. The order of the steps is the contract (DESIGN §2); each step runs only after the
// previous one succeeded, so a rejected call has no side effects.
#include "runtime/call_scope.hpp"
#include "runtime/dispatch_internal.hpp"
#include "runtime/family_ids.hpp"
#include "runtime/registration_table.hpp"
#include "runtime/resource_boundary.hpp"
#include "runtime/runtime_access.hpp"
#include "tenferro/runtime/errors.hpp"
#include "tenferro/runtime/extension.hpp"
#include "tenferro/runtime/runtime.hpp"

namespace tenferro {

const std::shared_ptr<EagerRuntime>& require_one_runtime(std::string_view op,
                                                         std::span<const EagerTensor> inputs,
                                                         std::size_t arity) {
  if (inputs.empty()) throw_validation(std::string(op), "needs at least one input");
  if (inputs.size() != arity) {
    throw_validation(std::string(op), "expects " + std::to_string(arity) + " inputs, got " +
                                          std::to_string(inputs.size()));
  }
  const std::shared_ptr<EagerRuntime>& runtime = inputs[0].runtime();
  if (!runtime) throw ContextMismatchError(std::string(op), 0, 0, 0);
  for (std::size_t i = 1; i < inputs.size(); ++i) {
    const auto& other = inputs[i].runtime();
    if (other.get() != runtime.get()) {
      throw ContextMismatchError(std::string(op), i, runtime->id(), other ? other->id() : 0);
    }
  }
  return runtime;
}

namespace {

// Steps 2-3 of the contract: the runtime's target and every input's ingress to its engine.
const EagerExtensionTarget& target_with_ingress(EagerRuntime& runtime, std::string_view op_name,
                                                std::span<const EagerTensor> inputs) {
  const Backend& backend = runtime.backend();
  // 2. Target: derived from the runtime's backend (MissingEngine when it has no direct engine).
  const EagerExtensionTarget* target = runtime_internal::RuntimeAccess::target(runtime);
  if (target == nullptr) {
    throw_error(ErrorKind::MissingEngine, ErrorPhase::Target, std::string(op_name),
                "runtime " + std::to_string(runtime.id()) + " (" +
                    std::string(backend_kind_name(backend.kind())) + ") has no direct engine");
  }

  // 3. Ingress: every input's placement must be readable by that engine.
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    const Placement& p = inputs[i].placement();
    if (!backend.accepts(p)) {
      throw NoInputIngressError(std::string(op_name), i, p, backend.placement(),
                                target->engine_id.str());
    }
  }
  return *target;
}

// Steps 2-6 of the contract, for a runtime whose inputs passed step 1. `family_id` is the
// op family's dense id (runtime_internal::family_id(op.family())). `resolve` is steps 4-5: it
// answers admission and ensures the family's module, and returns what step 6 calls as
// run(context, op, inputs) (the installed executor, or the kernel it would index).
template <class Resolve>
std::vector<EagerTensor> dispatch_on(const std::shared_ptr<EagerRuntime>& runtime,
                                     const ExtensionOp& op, std::span<const EagerTensor> inputs,
                                     std::uint32_t family_id, Resolve&& resolve) {
  Backend& backend = runtime->backend();
  const RuntimeCallScope call_scope(*runtime);
  const EagerExtensionTarget& target = target_with_ingress(*runtime, op.name(), inputs);

  // 4-5. Module and ensure. The executor may belong to a module only this snapshot holds: the
  //      snapshot stays alive until the call ends, even if another thread installs meanwhile.
  const runtime_internal::SnapshotReadScope snapshot_reads(*runtime);
  const auto run = resolve(target);

  // 6. Execute inside the runtime's backend session.
  std::unique_lock<std::mutex> session(backend.session_mutex(), std::defer_lock);
  if (backend.serializes_sessions()) session.lock();
  //    Allocation failures inside become ResourceErrors naming the op (resource_boundary.hpp).
  const ExecutionContext context(runtime, op.family(), family_id);
  backend.note_queued_work(op.name());
  return runtime_internal::at_op_boundary(op.name(), [&] { return run(context, op, inputs); });
}

// Steps 4-5 for any module factory: the factory picks the module for this target (its errors,
// e.g. a typed Unsupported for a target without an implementation, reach the caller
// unchanged); the family's dense slot answers on the warm path, the install runs once.
std::vector<EagerTensor> dispatch_on(const std::shared_ptr<EagerRuntime>& runtime,
                                     const ExtensionOp& op, std::span<const EagerTensor> inputs,
                                     ModuleFactoryRef module_factory, std::uint32_t family_id) {
  return dispatch_on(runtime, op, inputs, family_id, [&](const EagerExtensionTarget& target) {
    const ModulePtr module = module_factory(target);
    if (!module) {
      throw_error(ErrorKind::RuntimeState, ErrorPhase::Module, std::string(op.name()),
                  "module factory returned no module");
    }
    return std::cref(runtime_internal::RuntimeAccess::ensure_family(*runtime, module, family_id,
                                                                    op.family(), target.engine_id));
  });
}

// Step 1 of apply_eager_on_runtime: the named runtime, the op's arity, every input of it.
void require_runtime(const std::shared_ptr<EagerRuntime>& runtime, const ExtensionOp& op,
                     std::span<const EagerTensor> inputs) {
  if (!runtime) {
    throw_error(ErrorKind::RuntimeState, ErrorPhase::Input, std::string(op.name()),
                "no runtime given (a null std::shared_ptr<EagerRuntime>)");
  }
  if (inputs.size() != op.arity()) {
    throw_validation(std::string(op.name()), "expects " + std::to_string(op.arity()) +
                                                 " inputs, got " + std::to_string(inputs.size()));
  }
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    const auto& other = inputs[i].runtime();
    if (other.get() != runtime.get()) {
      throw ContextMismatchError(std::string(op.name()), i, runtime->id(), other ? other->id() : 0);
    }
  }
}

}  // namespace

std::vector<EagerTensor> apply_eager_with_targeted_extension_session(
    const ExtensionOp& op, std::span<const EagerTensor> inputs, ModuleFactoryRef module_factory) {
  // 1. Inputs: one runtime, the op's arity. Nothing else has run yet.
  const std::shared_ptr<EagerRuntime>& runtime = require_one_runtime(op.name(), inputs, op.arity());
  return dispatch_on(runtime, op, inputs, module_factory, runtime_internal::family_id(op.family()));
}

std::vector<EagerTensor> apply_eager_on_runtime(const std::shared_ptr<EagerRuntime>& runtime,
                                                const ExtensionOp& op,
                                                std::span<const EagerTensor> inputs,
                                                ModuleFactoryRef module_factory) {
  // 1. Inputs: the named runtime, the op's arity; an input of another runtime is rejected.
  require_runtime(runtime, op, inputs);
  return dispatch_on(runtime, op, inputs, module_factory, runtime_internal::family_id(op.family()));
}

namespace runtime_internal {

std::vector<EagerTensor> dispatch(const ExtensionOp& op, std::span<const EagerTensor> inputs,
                                  ModuleFactoryRef module_factory, std::uint32_t family_id) {
  const std::shared_ptr<EagerRuntime>& runtime = require_one_runtime(op.name(), inputs, op.arity());
  return dispatch_on(runtime, op, inputs, module_factory, family_id);
}

namespace {

// Step 6 of a table's call: the kernel the installed module's executor would index (warm), or
// that executor itself (the call that installed it).
struct TableRun {
  Kernel kernel = nullptr;
  const ExtensionExecutor* executor = nullptr;
  std::vector<EagerTensor> operator()(const ExecutionContext& ctx, const ExtensionOp& op,
                                      std::span<const EagerTensor> inputs) const {
    return kernel != nullptr ? kernel(ctx, op, inputs) : (*executor)(ctx, op, inputs);
  }
};

}  // namespace

std::vector<EagerTensor> dispatch_table(const std::shared_ptr<EagerRuntime>& runtime,
                                        const ExtensionOp& op, std::span<const EagerTensor> inputs,
                                        const RegistrationTable& table, OpKey key) {
  const std::uint32_t family_id = table.family_id();
  return dispatch_on(runtime, op, inputs, family_id, [&](const EagerExtensionTarget& target) {
    // Warm: the family's slot holds one of the table's modules (the one built for this
    //    runtime's engine), so the snapshot load and one index of the table are the whole of
    //    steps 4-5; admission answers from that index (Unsupported when it is empty).
    if (table.built(RuntimeAccess::installed_family_module(*runtime, family_id))) {
      const Kernel kernel = table.admitted_kernel(key, target.backend_kind);
      RuntimeAccess::count_ensure_fast_path_hit(*runtime);
      return TableRun{kernel, nullptr};
    }
    // 4. Cold: the table's admission answer (Unsupported before anything is installed) and the
    //    module built for this engine; 5. its install.
    return TableRun{
        nullptr, &RuntimeAccess::ensure_family(*runtime, table.module_for(target, key), family_id,
                                               op.family(), target.engine_id)};
  });
}

void check_dispatchable(EagerRuntime& runtime, std::string_view op_name,
                        std::span<const EagerTensor> inputs, const RegistrationTable& table,
                        OpKey key) {
  table.check(target_with_ingress(runtime, op_name, inputs), key);
}

std::vector<EagerTensor> dispatch_on_runtime(const std::shared_ptr<EagerRuntime>& runtime,
                                             const ExtensionOp& op,
                                             std::span<const EagerTensor> inputs,
                                             ModuleFactoryRef module_factory,
                                             std::uint32_t family_id) {
  require_runtime(runtime, op, inputs);
  return dispatch_on(runtime, op, inputs, module_factory, family_id);
}

}  // namespace runtime_internal
}  // namespace tenferro
