#include "core/host_memory.hpp"

#include <sys/resource.h>
#include <sys/sysinfo.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <limits>
#include <string>

namespace tenferro::host_memory {
namespace {

constexpr std::uint64_t kUnlimited = std::numeric_limits<std::uint64_t>::max();
constexpr std::uint64_t kAlwaysAllowed = std::uint64_t{1} << 20;

#if defined(__SANITIZE_ADDRESS__)
constexpr bool kAddressSanitizer = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool kAddressSanitizer = true;
#else
constexpr bool kAddressSanitizer = false;
#endif
#else
constexpr bool kAddressSanitizer = false;
#endif
// AddressSanitizer's default max_allocation_size on 64-bit Linux (kMaxAllowedMallocSize):
// larger requests abort the process unless allocator_may_return_null=1.
constexpr std::uint64_t kAsanMaxAllocation = std::uint64_t{1} << 40;

std::uint64_t physical_plus_swap() {
  std::uint64_t total = kUnlimited;
  const long pages = sysconf(_SC_PHYS_PAGES), page_size = sysconf(_SC_PAGESIZE);
  if (pages > 0 && page_size > 0) {
    total = static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page_size);
    struct sysinfo info {};
    if (sysinfo(&info) == 0) total += std::uint64_t{info.totalswap} * info.mem_unit;
  }
  return total;
}

std::uint64_t rlimit_bytes(int resource) {
  struct rlimit limit {};
  if (getrlimit(resource, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY) return kUnlimited;
  return static_cast<std::uint64_t>(limit.rlim_cur);
}

// cgroup v2's limit for this process's group ("max" or a byte count); read once, since a
// container's limit does not change under a running process in practice.
std::uint64_t cgroup_limit() {
  static const std::uint64_t limit = [] {
    std::ifstream in("/sys/fs/cgroup/memory.max");
    std::string text;
    if (!(in >> text) || text == "max") return kUnlimited;
    try {
      return static_cast<std::uint64_t>(std::stoull(text));
    } catch (const std::exception&) {
      return kUnlimited;
    }
  }();
  return limit;
}

}  // namespace

std::uint64_t allocation_limit() {
  std::uint64_t limit = std::min(
      {physical_plus_swap(), rlimit_bytes(RLIMIT_AS), rlimit_bytes(RLIMIT_DATA), cgroup_limit()});
  if (kAddressSanitizer) limit = std::min(limit, kAsanMaxAllocation);
  return limit;
}

std::string describe_bytes(std::uint64_t bytes) {
  char gib[32];
  std::snprintf(gib, sizeof gib, "%.1f GiB", static_cast<double>(bytes) / (1024.0 * 1024 * 1024));
  return std::to_string(bytes) + " bytes (" + gib + ")";
}

void check_allocation(std::uint64_t bytes, std::string_view op, ErrorPhase phase) {
  if (bytes < kAlwaysAllowed) return;
  const std::uint64_t limit = allocation_limit();
  if (bytes <= limit) return;
  throw ResourceError(phase, std::string(op),
                      "cannot allocate " + describe_bytes(bytes) +
                          ": this process can be given at most " + describe_bytes(limit) +
                          " (physical memory + swap, capped by resource and cgroup limits); "
                          "reduce the problem size or split the batch",
                      bytes, limit);
}

void check_allocation(std::uint64_t count, std::size_t element_size, std::string_view op,
                      ErrorPhase phase) {
  std::uint64_t bytes = 0;
  if (__builtin_mul_overflow(count, std::uint64_t{element_size}, &bytes)) {
    throw ResourceError(phase, std::string(op),
                        "cannot allocate " + std::to_string(count) + " elements of " +
                            std::to_string(element_size) + " bytes: the size overflows 64 bits",
                        kUnlimited, allocation_limit());
  }
  check_allocation(bytes, op, phase);
}

}  // namespace tenferro::host_memory
