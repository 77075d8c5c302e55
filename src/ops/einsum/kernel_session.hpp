// Work run on a runtime's own ContractionKernels outside the dispatcher: einsum's direct
// binary-dot path and write_into. Under the backend's session lock, counted as one einsum
// launch, with allocation failures turned into typed errors, as a dispatched call would be.
#pragma once

#include <mutex>
#include <string_view>

#include "ops/einsum/registration.hpp"
#include "runtime/resource_boundary.hpp"
#include "runtime/runtime_access.hpp"
#include "tenferro/runtime/runtime.hpp"

namespace tenferro::einsum_internal {

template <class Body>
decltype(auto) run_on_own_kernels(EagerRuntime& runtime, std::string_view op, Body&& body) {
  Backend& backend = runtime.backend();
  std::unique_lock<std::mutex> session;
  if (backend.serializes_sessions()) session = std::unique_lock(backend.session_mutex());
  runtime_internal::RuntimeAccess::count_kernel_launch(runtime, registration_table().family_id());
  backend.note_queued_work(op);
  return runtime_internal::at_op_boundary(op, body);
}

}  // namespace tenferro::einsum_internal
