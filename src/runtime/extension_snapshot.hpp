// One published, immutable state of a runtime's installed modules. Besides the full list of
// (module id, family, engine) registrations it holds one dense slot per family id for the
// runtime's own engine, resolved at install, so a warm call finds its executor by index.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "runtime/family_ids.hpp"
#include "tenferro/runtime/extension.hpp"

namespace tenferro {

class ExtensionSnapshot {
 public:
  struct Entry {
    std::string module_id;
    std::string family;
    EngineId engine;
    const ExtensionExecutor* executor;  // points into `modules`
  };
  // The registration of one family for the runtime's engine (empty: none installed).
  struct Slot {
    const ExtensionModule* module = nullptr;
    const ExtensionExecutor* executor = nullptr;
  };
  std::uint64_t epoch() const noexcept { return epoch_; }
  const std::vector<Entry>& entries() const noexcept { return entries_; }
  // The registered executor for (module id, family, engine), or nullptr.
  const ExtensionExecutor* find(std::string_view module_id, std::string_view family,
                                const EngineId& engine) const noexcept;
  const Slot& slot(std::uint32_t family_id) const noexcept { return slots_[family_id]; }

 private:
  friend class EagerRuntime;
  std::uint64_t epoch_ = 0;
  std::vector<Entry> entries_;
  std::vector<ModulePtr> modules_;  // keeps the executors alive
  std::array<Slot, runtime_internal::kMaxFamilies> slots_{};
};

}  // namespace tenferro
