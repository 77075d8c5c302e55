// Backend kinds, engine ids and placements: where an eager value's bytes live.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

// The public API: exported from the shared library (the rest of it is hidden).
#pragma GCC visibility push(default)

namespace tenferro {

// The one list of backends, X(enumerator, name): the enum, its count, the names and everything
// that walks them derive from it. A new backend is one row here and its folder under
// src/backends/.
#define TENFERRO_BACKEND_KINDS(X) X(Cpu, "cpu") X(Cuda, "cuda") X(WebGpu, "webgpu")

#define TENFERRO_BACKEND_ENUMERATOR(kind, name) kind,
enum class BackendKind : std::uint8_t { TENFERRO_BACKEND_KINDS(TENFERRO_BACKEND_ENUMERATOR) };
#undef TENFERRO_BACKEND_ENUMERATOR
#define TENFERRO_BACKEND_ONE(kind, name) +1
inline constexpr std::size_t kBackendKindCount = 0 TENFERRO_BACKEND_KINDS(TENFERRO_BACKEND_ONE);
#undef TENFERRO_BACKEND_ONE
// Every kind, in enum order (built from the count, so it cannot miss one).
inline constexpr std::array<BackendKind, kBackendKindCount> kAllBackendKinds = [] {
  std::array<BackendKind, kBackendKindCount> all{};
  for (std::size_t i = 0; i < kBackendKindCount; ++i) all[i] = static_cast<BackendKind>(i);
  return all;
}();
std::string_view backend_kind_name(BackendKind k);  // "cpu", "cuda", "webgpu"
bool parse_backend_kind(std::string_view text, BackendKind& out);

// A validated, namespaced id of one execution engine, e.g. "tenferro.cpu.v1" or
// "tenferro.cuda.d0.v1": at least two dot-separated components, each of lower-case
// letters, digits and '_', starting with a letter. Malformed ids are Validation errors.
class EngineId {
 public:
  explicit EngineId(std::string_view text);
  static bool is_valid(std::string_view text) noexcept;
  const std::string& str() const noexcept { return text_; }
  std::size_t hash() const noexcept { return hash_; }
  friend bool operator==(const EngineId& a, const EngineId& b) noexcept {
    return a.hash_ == b.hash_ && a.text_ == b.text_;
  }

 private:
  std::string text_;
  std::size_t hash_;
};

enum class MemoryKind : std::uint8_t { Host, Device };
std::string_view memory_kind_name(MemoryKind k);

// Where the bytes are: memory kind, backend kind, device ordinal and the allocation domain
// (the identity of the owning backend instance; two runtimes never share one).
struct Placement {
  MemoryKind memory = MemoryKind::Host;
  BackendKind backend = BackendKind::Cpu;
  int device_ordinal = 0;
  std::uint64_t allocation_domain = 0;

  friend bool operator==(const Placement&, const Placement&) = default;
  std::string to_string() const;  // "host/cpu:0 (domain 3)"
};

// A fresh allocation-domain identity for a new backend instance.
std::uint64_t next_allocation_domain() noexcept;

}  // namespace tenferro

template <>
struct std::hash<tenferro::EngineId> {
  std::size_t operator()(const tenferro::EngineId& id) const noexcept { return id.hash(); }
};

#pragma GCC visibility pop
