#include "runtime/resource_boundary.hpp"

#include <exception>
#include <string>

#include "core/host_memory.hpp"

namespace tenferro::runtime_internal {

void rethrow_allocation_failure(std::string_view op) {
  try {
    throw;
  } catch (const ResourceError& e) {
    if (e.op() == op) throw;  // already names this op
    std::throw_with_nested(ResourceError(e.phase(), std::string(op), e.message(),
                                         e.requested_bytes(), e.available_bytes()));
  } catch (const std::bad_alloc& e) {
    std::throw_with_nested(ResourceError(
        ErrorPhase::Execute, std::string(op),
        std::string("an allocation failed (") + e.what() + "); this process can be given at most " +
            host_memory::describe_bytes(host_memory::allocation_limit()) +
            "; reduce the problem size or split the batch",
        0, host_memory::allocation_limit()));
  } catch (const std::length_error& e) {
    std::throw_with_nested(ResourceError(
        ErrorPhase::Execute, std::string(op),
        std::string("a buffer larger than any allocation was requested (") + e.what() + ")", 0,
        host_memory::allocation_limit()));
  }
}

}  // namespace tenferro::runtime_internal
