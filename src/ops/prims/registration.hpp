// The prims registration table: which backend kernel set runs which (op, dtype). The admission
// table, the modules the factory builds and `tenferro info` are all derived from it.
#pragma once

#include <span>

#include "ops/prims/kernel_calls.hpp"
#include "ops/prims/prims_op.hpp"
#include "tenferro/runtime/extension.hpp"

namespace tenferro::prims_internal {

// The kernel sets compiled into this build, one per backend kind that has them.
std::span<const PrimsKernels* const> registered_kernel_sets();
// The kernel set for `backend`, or nullptr when this build has none.
const PrimsKernels* kernels_for(BackendKind backend) noexcept;

// Throws Unsupported (phase Module) unless `backend` runs `op` for its dtypes (a Cast needs both
// its input and its output dtype). Called by the module factory, before execution.
void check_admitted(const PrimsOp& op, BackendKind backend);

// The module factory: the prims module of the target's engine (cached per (kind, engine)), or a
// typed Unsupported error when this build has no prims kernels for the target's backend.
ModulePtr prims_module_for(const EagerExtensionTarget& target);

// Runs `op` on the runtime of `inputs` (or `runtime` for creation ops) through the dispatch
// contract, with admission checked inside the factory step. Returns the single output.
EagerTensor run(const PrimsOp& op, std::span<const EagerTensor> inputs);
EagerTensor run_on(const std::shared_ptr<EagerRuntime>& runtime, const PrimsOp& op);

// The executor every backend's module registers, bound to that backend's kernel set.
std::vector<EagerTensor> execute(const PrimsKernels& kernels, const ExecutionContext& ctx,
                                 const ExtensionOp& op, std::span<const EagerTensor> inputs);

}  // namespace tenferro::prims_internal
