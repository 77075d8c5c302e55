// The prims registration table (runtime_internal::RegistrationTable): each backend's kernel set
// (kernel_calls.hpp) says which (op, dtype) it runs, and its rows are derived from that claim.
// The admission answer, the modules the factory builds, the op names and `tenferro info` all
// come from the table, as for the other families.
#pragma once

#include <memory>
#include <span>
#include <vector>

#include "ops/prims/kernel_calls.hpp"
#include "ops/prims/prims_op.hpp"
#include "runtime/registration_table.hpp"
#include "tenferro/runtime/extension.hpp"

namespace tenferro::prims_internal {

const runtime_internal::RegistrationTable& registration_table();

// The kernel set for `backend`, or nullptr when this build has none.
const PrimsKernels* kernels_for(BackendKind backend) noexcept;

// The module of the target's engine (id "<family>/<engine>"), or a typed Unsupported error
// before anything executes for a backend kind without prims rows in this build.
ModulePtr prims_module_for(const EagerExtensionTarget& target);

// Runs `op` on the runtime of `inputs` (or `runtime` for creation ops) through the dispatch
// contract, with admission answered by the table before anything is installed. Returns the
// single output.
EagerTensor run(const PrimsOp& op, std::span<const EagerTensor> inputs);
// The same for operands from kernel_operand, which may be borrowed handles: the call runs on
// `runtime`, one of the caller's own pointers (its outputs keep that runtime alive), and every
// operand must belong to it (ContextMismatch; a null `runtime` too).
EagerTensor run_operands(const std::shared_ptr<EagerRuntime>& runtime, const PrimsOp& op,
                         std::span<const EagerTensor> operands);
EagerTensor run_on(const std::shared_ptr<EagerRuntime>& runtime, const PrimsOp& op);

// The body of every backend's rows, bound to that backend's kernel set.
std::vector<EagerTensor> execute(const PrimsKernels& kernels, const ExecutionContext& ctx,
                                 const ExtensionOp& op, std::span<const EagerTensor> inputs);

}  // namespace tenferro::prims_internal
