// Counting backend constructions: process-wide, and per runtime for the backends built while
// one of its eager calls runs on the constructing thread (see RuntimeCallScope).
#include <atomic>

#include "runtime/call_scope.hpp"
#include "runtime/runtime_access.hpp"
#include "tenferro/runtime/backend.hpp"
#include "tenferro/runtime/runtime.hpp"
#include "tenferro/runtime/stats.hpp"

namespace tenferro {

namespace {
std::atomic<std::uint64_t> g_backend_constructions{0};
// A plain pointer: set and restored by RuntimeCallScope around an eager call whose caller
// holds the runtime alive, so it never dangles while set.
thread_local EagerRuntime* t_calling_runtime = nullptr;
}  // namespace

RuntimeCallScope::RuntimeCallScope(EagerRuntime& runtime) noexcept : previous_(t_calling_runtime) {
  t_calling_runtime = &runtime;
}
RuntimeCallScope::~RuntimeCallScope() {
  t_calling_runtime = previous_;
}
EagerRuntime* RuntimeCallScope::current() noexcept {
  return t_calling_runtime;
}

Backend::Backend() {
  g_backend_constructions.fetch_add(1, std::memory_order_relaxed);
  if (EagerRuntime* caller = t_calling_runtime)
    runtime_internal::RuntimeAccess::count_backend_construction_in_call(*caller);
}

std::uint64_t process_backend_constructions() noexcept {
  return g_backend_constructions.load(std::memory_order_relaxed);
}

}  // namespace tenferro
