// The modules of one op family, derived from what the family registers per backend kind: the
// executor that runs it there, or the reason it has none. Every family's module factory is one
// of these (no per-family caches or factory switches): one module per (kind, engine), built
// once for the process, with the uniform id "<family>/<engine id>"; a kind without an executor
// is a typed Unsupported error from the factory, before execution.
#pragma once

#include <array>
#include <string>
#include <string_view>

#include "tenferro/runtime/extension.hpp"

namespace tenferro::runtime_internal {

// What one family does on one backend kind.
struct FamilyBackend {
  ExtensionExecutor executor;  // empty: the family does not run on this kind in this build
  std::string missing;         // when empty: why, and what to do instead (for the error)
};

class FamilyModules {
 public:
  // Indexed by BackendKind (Cpu, Cuda, WebGpu).
  FamilyModules(std::string family, std::array<FamilyBackend, kBackendKindCount> backends);
  FamilyModules(const FamilyModules&) = delete;
  FamilyModules& operator=(const FamilyModules&) = delete;

  // The module for the target's engine, or Unsupported (phase Module) when the family has no
  // executor for the target's backend kind.
  ModulePtr module_for(const EagerExtensionTarget& target) const;
  // module_for's refusal alone (Unsupported for a target this family has no executor for),
  // building nothing.
  void require(const EagerExtensionTarget& target) const;
  // Whether `module` is one of the modules built here (for any engine): a runtime's slot of
  // the family holds the module built for its own engine, so this answers the warm call's
  // "is the installed module ours" with pointer compares.
  bool built(const ExtensionModule* module) const noexcept { return cache_.holds(module); }
  bool implements(BackendKind kind) const noexcept;
  const std::string& family() const noexcept { return family_; }

  static std::string module_id(std::string_view family, const EngineId& engine);

 private:
  std::string family_;
  std::array<FamilyBackend, kBackendKindCount> backends_;
  mutable ModuleCache cache_;  // keyed by (BackendKind, EngineId)
};

}  // namespace tenferro::runtime_internal
