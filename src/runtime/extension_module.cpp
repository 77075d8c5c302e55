#include "tenferro/core/error.hpp"
#include "tenferro/runtime/extension.hpp"

namespace tenferro {

ExtensionModule::ExtensionModule(std::string id) : id_(std::move(id)) {
  if (id_.empty()) throw_validation("extension_module", "module id must not be empty");
}

ExtensionModule& ExtensionModule::register_executor(std::string family, EngineId engine,
                                                    ExtensionExecutor executor) {
  if (!executor) throw_validation("extension_module", "executor for '" + family + "' is empty");
  if (find(family, engine) != nullptr) {
    throw_validation("extension_module",
                     "module '" + id_ + "' registers (" + family + ", " + engine.str() + ") twice");
  }
  registrations_.push_back(Registration{std::move(family), std::move(engine), std::move(executor)});
  return *this;
}

const ExtensionModule::Registration* ExtensionModule::find(std::string_view family,
                                                           const EngineId& engine) const noexcept {
  for (const Registration& r : registrations_) {
    if (r.engine == engine && r.family == family) return &r;
  }
  return nullptr;
}

ModuleCache::~ModuleCache() {
  delete slots_.load();
}

ModulePtr ModuleCache::find(const EagerExtensionTarget& target) const noexcept {
  const std::vector<Slot>* slots = slots_.load(std::memory_order_acquire);
  if (slots == nullptr) return nullptr;
  for (const Slot& s : *slots) {
    if (s.target == target) return s.module;
  }
  return nullptr;
}

const ExtensionModule* ModuleCache::find_raw(const EagerExtensionTarget& target) const noexcept {
  const std::vector<Slot>* slots = slots_.load(std::memory_order_acquire);
  if (slots == nullptr) return nullptr;
  for (const Slot& s : *slots) {
    if (s.target == target) return s.module.get();
  }
  return nullptr;
}

std::size_t ModuleCache::size() const noexcept {
  const std::vector<Slot>* slots = slots_.load(std::memory_order_acquire);
  return slots ? slots->size() : 0;
}

ModulePtr ModuleCache::insert(const EagerExtensionTarget& target, ModulePtr module) {
  std::lock_guard lock(mutex_);
  const std::vector<Slot>* current = slots_.load(std::memory_order_acquire);
  if (current) {
    for (const Slot& s : *current) {
      if (s.target == target) return s.module;  // another thread built it first
    }
  }
  auto next = std::make_unique<std::vector<Slot>>(current ? *current : std::vector<Slot>{});
  next->push_back(Slot{target, std::move(module)});
  ModulePtr result = next->back().module;
  // Readers may still hold the old vector: retire it instead of freeing it.
  if (current) retired_.emplace_back(current);
  slots_.store(next.release(), std::memory_order_release);
  return result;
}

void throw_unsupported_target(std::string_view family, const EagerExtensionTarget& target,
                              std::string_view why) {
  throw_error(ErrorKind::Unsupported, ErrorPhase::Module, std::string(family),
              "no " + std::string(family) + " implementation for the " +
                  std::string(backend_kind_name(target.backend_kind)) + " engine '" +
                  target.engine_id.str() + "': " + std::string(why) +
                  ". Nothing was executed and no data was moved");
}

}  // namespace tenferro
