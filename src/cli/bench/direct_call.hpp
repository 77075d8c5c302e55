// The direct side of the eager-overhead comparison: a family's registered executor for the
// runtime's engine, looked up once, then called with an execution context inside the backend
// session — everything the eager call does except the dispatch steps.
#pragma once

#include <memory>

#include "cli/bench/bench_case.hpp"
#include "runtime/family_ids.hpp"
#include "tenferro/core/error.hpp"
#include "tenferro/runtime/extension.hpp"

namespace tenferro::cli::bench {

inline EagerCall direct_executor_call(std::shared_ptr<const ExtensionOp> op,
                                      ModulePtr (*factory)(const EagerExtensionTarget&),
                                      const std::shared_ptr<EagerRuntime>& rt) {
  const EagerExtensionTarget target = rt->extension_target();
  ModulePtr module = factory(target);
  const ExtensionModule::Registration* registration = module->find(op->family(), target.engine_id);
  if (registration == nullptr) {
    throw_error(ErrorKind::MissingExtensionEngine, ErrorPhase::Module, "bench",
                "the family's module registers no executor for " + target.engine_id.str());
  }
  // Resolved once, as the dispatcher's tables resolve it at install.
  const std::uint32_t family_id = runtime_internal::family_id(op->family());
  return [op = std::move(op), module = std::move(module), registration, family_id,
          rt](std::span<const EagerTensor> inputs) {
    std::unique_lock<std::mutex> session(rt->backend().session_mutex(), std::defer_lock);
    if (rt->backend().serializes_sessions()) session.lock();
    const ExecutionContext context(rt, op->family(), family_id);
    return registration->executor(context, *op, inputs);
  };
}

}  // namespace tenferro::cli::bench
