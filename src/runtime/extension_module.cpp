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
  for (const Slot* s = head_.load(); s != nullptr;) {
    const Slot* next = s->next;
    delete s;
    s = next;
  }
}

const ModuleCache::Slot* ModuleCache::lookup(const EagerExtensionTarget& target) const noexcept {
  for (const Slot* s = head_.load(std::memory_order_acquire); s != nullptr; s = s->next) {
    if (s->target == target) return s;
  }
  return nullptr;
}

ModulePtr ModuleCache::find(const EagerExtensionTarget& target) const noexcept {
  const Slot* s = lookup(target);
  return s ? s->module : nullptr;
}

bool ModuleCache::holds(const ExtensionModule* module) const noexcept {
  if (module == nullptr) return false;
  for (const Slot* s = head_.load(std::memory_order_acquire); s != nullptr; s = s->next) {
    if (s->module.get() == module) return true;
  }
  return false;
}

std::size_t ModuleCache::size() const noexcept {
  return size_.load(std::memory_order_acquire);
}

ModulePtr ModuleCache::insert(const EagerExtensionTarget& target, ModulePtr module) {
  std::lock_guard lock(mutex_);
  if (const Slot* built = lookup(target)) return built->module;  // another thread built it first
  const Slot* head = head_.load(std::memory_order_relaxed);
  const Slot* slot = new Slot{target, std::move(module), head};
  head_.store(slot, std::memory_order_release);
  size_.fetch_add(1, std::memory_order_release);
  return slot->module;
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
