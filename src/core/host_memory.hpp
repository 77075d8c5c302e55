// Host allocation limits. An allocation larger than this process can ever be given is refused
// with a typed ResourceError BEFORE the allocator is called: under AddressSanitizer a huge
// request aborts the process instead of throwing std::bad_alloc, and without it an overcommitted
// request may succeed and get the process killed when its pages are first touched.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "tenferro/core/error.hpp"

namespace tenferro::host_memory {

// The most bytes one allocation may ask for: physical memory + swap, capped by RLIMIT_AS,
// RLIMIT_DATA, the cgroup (v2) memory.max, and AddressSanitizer's largest allocation.
std::uint64_t allocation_limit();

// Throws ResourceError(phase, op) when `bytes` exceeds allocation_limit(). Requests under
// 1 MiB are never refused (and cost no system call).
void check_allocation(std::uint64_t bytes, std::string_view op,
                      ErrorPhase phase = ErrorPhase::Execute);
// The same for `count` elements of `element_size` bytes (overflow counts as too large).
void check_allocation(std::uint64_t count, std::size_t element_size, std::string_view op,
                      ErrorPhase phase = ErrorPhase::Execute);

// "68719476736 bytes (64.0 GiB)".
std::string describe_bytes(std::uint64_t bytes);

}  // namespace tenferro::host_memory
