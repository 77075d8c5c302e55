#include "runtime/family_ids.hpp"

#include <array>
#include <atomic>
#include <mutex>
#include <string>

#include "tenferro/core/error.hpp"

namespace tenferro::runtime_internal {
namespace {

// Names are written once, before count_ publishes them (release), and never change, so a
// reader that loads count_ (acquire) may read names_[0, count) without a lock.
struct FamilyNames {
  std::array<std::string, kMaxFamilies> names;
  std::atomic<std::uint32_t> count{0};
  std::mutex add_mutex;
};

FamilyNames& registry() {
  static FamilyNames r;
  return r;
}

}  // namespace

std::uint32_t family_id(std::string_view family) {
  FamilyNames& r = registry();
  std::uint32_t n = r.count.load(std::memory_order_acquire);
  for (std::uint32_t i = 0; i < n; ++i) {
    if (r.names[i] == family) return i;
  }
  std::lock_guard lock(r.add_mutex);
  n = r.count.load(std::memory_order_acquire);
  for (std::uint32_t i = 0; i < n; ++i) {
    if (r.names[i] == family) return i;
  }
  if (n == kMaxFamilies) {
    throw_error(ErrorKind::RuntimeState, ErrorPhase::Execute, std::string(family),
                "more than " + std::to_string(kMaxFamilies) + " op families in one process");
  }
  r.names[n] = std::string(family);
  r.count.store(n + 1, std::memory_order_release);
  return n;
}

std::uint32_t family_count() noexcept {
  return registry().count.load(std::memory_order_acquire);
}

std::string_view family_name(std::uint32_t id) noexcept {
  return id < family_count() ? std::string_view(registry().names[id]) : std::string_view();
}

}  // namespace tenferro::runtime_internal
