// The dispatch contract (DESIGN §2) for the library's own families, which know their dense
// family id (runtime_internal::family_id, resolved once per family) and so skip the name
// lookup the public entry points make. dispatch_table is for callers that already ran step 1
// (one runtime, the op's arity) themselves, so a warm call checks its inputs' runtime once.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string_view>
#include <vector>

#include "tenferro/runtime/extension.hpp"

namespace tenferro::runtime_internal {

// Steps 1-6: apply_eager_with_targeted_extension_session.
std::vector<EagerTensor> dispatch(const ExtensionOp& op, std::span<const EagerTensor> inputs,
                                  ModuleFactoryRef module_factory, std::uint32_t family_id);

class RegistrationTable;
struct OpKey;

// Steps 2-6 for a family with a registration table. `runtime` must be what
// require_one_runtime returned for `inputs` and the op's arity. The same steps and errors as
// dispatch with a factory calling table.module_for(target, key), but the warm path compares
// the module without taking a reference to it.
std::vector<EagerTensor> dispatch_table(const std::shared_ptr<EagerRuntime>& runtime,
                                        const ExtensionOp& op, std::span<const EagerTensor> inputs,
                                        const RegistrationTable& table, OpKey key);

// Steps 2-4 of dispatch_table with nothing installed or run: the errors a call would raise
// there, in the same order. For a family that works before it dispatches (einsum plans a path
// and caches it), so that a call it would refuse is refused before that work.
void check_dispatchable(EagerRuntime& runtime, std::string_view op_name,
                        std::span<const EagerTensor> inputs, const RegistrationTable& table,
                        OpKey key);

// Steps 1-6 of apply_eager_on_runtime (creation ops).
std::vector<EagerTensor> dispatch_on_runtime(const std::shared_ptr<EagerRuntime>& runtime,
                                             const ExtensionOp& op,
                                             std::span<const EagerTensor> inputs,
                                             ModuleFactoryRef module_factory,
                                             std::uint32_t family_id);

}  // namespace tenferro::runtime_internal
