// The op boundary for allocation failures (DESIGN §3): whatever an executor's allocations throw
// -- the ResourceError of a size checked before allocating, std::bad_alloc, or the
// std::length_error of a container asked for more than it can hold -- reaches the caller as a
// ResourceError naming the op, with the original failure as its nested cause. Everything the
// call held is released by unwinding, so the runtime stays usable.
#pragma once

#include <new>
#include <stdexcept>
#include <string_view>

#include "tenferro/core/error.hpp"

namespace tenferro::runtime_internal {

// Call only inside a catch block of one of those three exceptions: throws the ResourceError.
[[noreturn]] void rethrow_allocation_failure(std::string_view op);

template <class F>
decltype(auto) at_op_boundary(std::string_view op, F&& run) {
  try {
    return run();
  } catch (const ResourceError&) {
    rethrow_allocation_failure(op);
  } catch (const std::bad_alloc&) {
    rethrow_allocation_failure(op);
  } catch (const std::length_error&) {
    rethrow_allocation_failure(op);
  }
}

}  // namespace tenferro::runtime_internal
