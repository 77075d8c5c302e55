#include "runtime/family_ids.hpp"
#include "runtime/runtime_access.hpp"
#include "tenferro/runtime/extension.hpp"
#include "tenferro/runtime/runtime.hpp"

namespace tenferro {

ExecutionContext::ExecutionContext(const std::shared_ptr<EagerRuntime>& runtime,
                                   std::string_view family)
    : runtime_(runtime), family_(family), family_id_(runtime_internal::family_id(family)) {}

Backend& ExecutionContext::backend() const noexcept {
  return runtime_->backend();
}

ExtensionCacheStore& ExecutionContext::caches() const noexcept {
  return runtime_->caches();
}

void ExecutionContext::record_kernel_launch(std::uint64_t count) const noexcept {
  runtime_internal::RuntimeAccess::count_kernel_launch(*runtime_, family_id_, count);
}

EagerTensor ExecutionContext::allocate(DType dtype, Shape shape) const {
  // The context's own reference to the runtime: shared_from_this() (runtime_->empty) would
  // lock a weak pointer, a compare-and-swap loop, on every output.
  return EagerTensor::fresh(runtime_, runtime_->backend(), dtype, std::move(shape));
}

void ExecutionContext::throw_backend_type_mismatch() const {
  throw_error(ErrorKind::RuntimeState, ErrorPhase::Execute, std::string(family_),
              "executor registered for another backend type ran on a " +
                  std::string(backend_kind_name(backend().kind())) + " runtime");
}

}  // namespace tenferro
