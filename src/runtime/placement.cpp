#include "tenferro/runtime/placement.hpp"

#include <atomic>

#include "tenferro/core/error.hpp"

namespace tenferro {

std::string_view backend_kind_name(BackendKind k) {
#define TENFERRO_BACKEND_NAME(kind, name) name,
  static constexpr std::string_view kNames[] = {TENFERRO_BACKEND_KINDS(TENFERRO_BACKEND_NAME)};
#undef TENFERRO_BACKEND_NAME
  const auto i = static_cast<std::size_t>(k);
  return i < kBackendKindCount ? kNames[i] : "?";
}

bool parse_backend_kind(std::string_view text, BackendKind& out) {
  for (BackendKind k : kAllBackendKinds) {
    if (backend_kind_name(k) == text) {
      out = k;
      return true;
    }
  }
  return false;
}

std::string_view memory_kind_name(MemoryKind k) {
  return k == MemoryKind::Host ? "host" : "device";
}

bool EngineId::is_valid(std::string_view text) noexcept {
  int components = 0;
  std::size_t i = 0;
  while (true) {
    // One component: a lower-case letter, then lower-case letters, digits or '_'.
    if (i >= text.size() || text[i] < 'a' || text[i] > 'z') return false;
    while (i < text.size() && ((text[i] >= 'a' && text[i] <= 'z') ||
                               (text[i] >= '0' && text[i] <= '9') || text[i] == '_')) {
      ++i;
    }
    ++components;
    if (i == text.size()) return components >= 2;
    if (text[i] != '.') return false;
    ++i;
  }
}

EngineId::EngineId(std::string_view text)
    : text_(text), hash_(std::hash<std::string_view>{}(text)) {
  if (!is_valid(text)) {
    throw_error(ErrorKind::Validation, ErrorPhase::Input, "engine_id",
                "malformed engine id '" + std::string(text) +
                    "': expected >= 2 dot-separated lower-case components like 'tenferro.cpu.v1'");
  }
}

std::string Placement::to_string() const {
  return std::string(memory_kind_name(memory)) + "/" + std::string(backend_kind_name(backend)) +
         ":" + std::to_string(device_ordinal) + " (domain " + std::to_string(allocation_domain) +
         ")";
}

std::uint64_t next_allocation_domain() noexcept {
  static std::atomic<std::uint64_t> next{1};
  return next.fetch_add(1, std::memory_order_relaxed);
}

}  // namespace tenferro
