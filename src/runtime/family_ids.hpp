// Dense, process-wide ids for op-family names, so that per-family state (launch counters) is
// an array index instead of a string-keyed map under a lock. An id is assigned the first time a
// family is seen and never changes; lookups after that take no lock.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace tenferro::runtime_internal {

// Families one process may name (the built-in ones, test families, user extensions).
inline constexpr std::size_t kMaxFamilies = 64;

// The id of `family` (assigned on first use). Throws RuntimeState past kMaxFamilies names.
std::uint32_t family_id(std::string_view family);
// How many ids exist now, and the name behind one of them.
std::uint32_t family_count() noexcept;
std::string_view family_name(std::uint32_t id) noexcept;

}  // namespace tenferro::runtime_internal
