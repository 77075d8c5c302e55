#include "runtime/family_modules.hpp"

namespace tenferro::runtime_internal {

FamilyModules::FamilyModules(std::string family,
                             std::array<FamilyBackend, kBackendKindCount> backends)
    : family_(std::move(family)), backends_(std::move(backends)) {}

std::string FamilyModules::module_id(std::string_view family, const EngineId& engine) {
  return std::string(family) + "/" + engine.str();
}

bool FamilyModules::implements(BackendKind kind) const noexcept {
  return static_cast<bool>(backends_[static_cast<std::size_t>(kind)].executor);
}

void FamilyModules::require(const EagerExtensionTarget& target) const {
  const FamilyBackend& b = backends_[static_cast<std::size_t>(target.backend_kind)];
  if (!b.executor) throw_unsupported_target(family_, target, b.missing);
}

ModulePtr FamilyModules::module_for(const EagerExtensionTarget& target) const {
  require(target);
  const FamilyBackend& b = backends_[static_cast<std::size_t>(target.backend_kind)];
  return cache_.get_or_build(target, [&] {
    auto module = std::make_shared<ExtensionModule>(module_id(family_, target.engine_id));
    module->register_executor(family_, target.engine_id, b.executor);
    return ModulePtr(std::move(module));
  });
}

}  // namespace tenferro::runtime_internal
