// apply_eager_with_targeted_extension_session: the one path every extension-backed eager call
// takes. The order of the steps is the contract (DESIGN §2); each step runs only after the
// previous one succeeded, so a rejected call has no side effects.
#include "runtime/call_scope.hpp"
#include "runtime/resource_boundary.hpp"
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

// Steps 2-6 of the contract, for a runtime whose inputs passed step 1.
std::vector<EagerTensor> dispatch_on(const std::shared_ptr<EagerRuntime>& runtime,
                                     const ExtensionOp& op, std::span<const EagerTensor> inputs,
                                     ModuleFactoryRef module_factory) {
  Backend& backend = runtime->backend();
  const RuntimeCallScope call_scope(*runtime);

  // 2. Target: derived from the runtime's backend (MissingEngine when it has no direct engine).
  const EngineId* engine = backend.direct_engine();
  if (engine == nullptr) {
    throw_error(ErrorKind::MissingEngine, ErrorPhase::Target, std::string(op.name()),
                "runtime " + std::to_string(runtime->id()) + " (" +
                    std::string(backend_kind_name(backend.kind())) + ") has no direct engine");
  }
  const EagerExtensionTarget target{*engine, backend.kind()};

  // 3. Ingress: every input's placement must be readable by that engine.
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    const Placement& p = inputs[i].placement();
    if (!backend.accepts(p)) {
      throw NoInputIngressError(std::string(op.name()), i, p, backend.placement(), engine->str());
    }
  }

  // 4. Module: the family's factory picks the module for this target; its errors (typed
  //    Unsupported for a target without an implementation) reach the caller unchanged.
  const ModulePtr module = module_factory(target);
  if (!module) {
    throw_error(ErrorKind::RuntimeState, ErrorPhase::Module, std::string(op.name()),
                "module factory returned no module");
  }

  // 5. Ensure: a snapshot lookup on the warm path; install once on the cold path.
  const ExtensionExecutor& executor =
      runtime->ensure_extension_module_for_engine(module, op.family(), *engine);

  // 6. Execute inside the runtime's backend session.
  std::unique_lock<std::mutex> session(backend.session_mutex(), std::defer_lock);
  if (backend.serializes_sessions()) session.lock();
  //    Allocation failures inside become ResourceErrors naming the op (resource_boundary.hpp).
  const ExecutionContext context(runtime, op.family());
  backend.note_queued_work(op.name());
  return runtime_internal::at_op_boundary(op.name(), [&] { return executor(context, op, inputs); });
}

}  // namespace

std::vector<EagerTensor> apply_eager_with_targeted_extension_session(
    const ExtensionOp& op, std::span<const EagerTensor> inputs, ModuleFactoryRef module_factory) {
  // 1. Inputs: one runtime, the op's arity. Nothing else has run yet.
  const std::shared_ptr<EagerRuntime>& runtime = require_one_runtime(op.name(), inputs, op.arity());
  return dispatch_on(runtime, op, inputs, module_factory);
}

std::vector<EagerTensor> apply_eager_on_runtime(const std::shared_ptr<EagerRuntime>& runtime,
                                                const ExtensionOp& op,
                                                std::span<const EagerTensor> inputs,
                                                ModuleFactoryRef module_factory) {
  // 1. Inputs: the named runtime, the op's arity; an input of another runtime is rejected.
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
  return dispatch_on(runtime, op, inputs, module_factory);
}

}  // namespace tenferro
