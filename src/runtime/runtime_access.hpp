// What the library itself does to a runtime and users do not: feed its counters and take the
// dense-slot ensure of the built-in families. Kept out of include/tenferro so the public API
// reads RuntimeStats but cannot write it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "tenferro/runtime/runtime.hpp"

namespace tenferro::runtime_internal {

struct RuntimeAccess {
  static void count_upload(EagerRuntime& rt, std::size_t bytes) noexcept { rt.count_upload(bytes); }
  static void count_download(EagerRuntime& rt, std::size_t bytes) noexcept {
    rt.count_download(bytes);
  }
  static void count_status_read(EagerRuntime& rt, std::size_t bytes) noexcept {
    rt.count_status_read(bytes);
  }
  static void count_scalar_read(EagerRuntime& rt, std::size_t bytes) noexcept {
    rt.count_scalar_read(bytes);
  }
  static void count_scalar_write(EagerRuntime& rt, std::size_t bytes) noexcept {
    rt.count_scalar_write(bytes);
  }
  static void count_kernel_launch(EagerRuntime& rt, std::uint32_t family_id,
                                  std::uint64_t count = 1) noexcept {
    rt.count_kernel_launch(family_id, count);
  }
  static void count_numerical_retry(EagerRuntime& rt) noexcept { rt.count_numerical_retry(); }
  static void count_backend_construction_in_call(EagerRuntime& rt) noexcept {
    rt.count_backend_construction_in_call();
  }
  // The runtime's target (its direct engine and backend kind), or nullptr without an engine.
  static const EagerExtensionTarget* target(const EagerRuntime& rt) noexcept {
    return rt.target_ ? &*rt.target_ : nullptr;
  }
  static const ExtensionExecutor& ensure_family(EagerRuntime& rt, const ModulePtr& module,
                                                std::uint32_t family_id, std::string_view family,
                                                const EngineId& engine) {
    return rt.ensure_family(module, family_id, family, engine);
  }
  static const ExtensionModule* installed_family_module(const EagerRuntime& rt,
                                                        std::uint32_t family_id) noexcept {
    return rt.installed_family_module(family_id);
  }
  static void count_ensure_fast_path_hit(EagerRuntime& rt) noexcept {
    rt.count_ensure_fast_path_hit();
  }
  static void begin_snapshot_read(const EagerRuntime& rt) noexcept { rt.begin_snapshot_read(); }
  static void end_snapshot_read(const EagerRuntime& rt) noexcept { rt.end_snapshot_read(); }
};

// An eager call's read of the runtime's snapshot, from its ensure to the end of its executor:
// a snapshot replaced meanwhile is kept until the last such scope of the runtime ends.
class SnapshotReadScope {
 public:
  explicit SnapshotReadScope(const EagerRuntime& rt) noexcept : rt_(rt) {
    RuntimeAccess::begin_snapshot_read(rt_);
  }
  ~SnapshotReadScope() { RuntimeAccess::end_snapshot_read(rt_); }
  SnapshotReadScope(const SnapshotReadScope&) = delete;
  SnapshotReadScope& operator=(const SnapshotReadScope&) = delete;

 private:
  const EagerRuntime& rt_;
};

}  // namespace tenferro::runtime_internal
