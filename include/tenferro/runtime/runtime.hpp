// EagerRuntime: owns exactly one backend for its whole life, an opaque identity, the
// installed extension modules (a versioned immutable snapshot), the runtime-owned caches and
// the statistics. Always held by std::shared_ptr.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string_view>
#include <vector>

#include "tenferro/runtime/backend.hpp"
#include "tenferro/runtime/cache_store.hpp"
#include "tenferro/runtime/eager_tensor.hpp"
#include "tenferro/runtime/extension.hpp"
#include "tenferro/runtime/stats.hpp"

// The public API: exported from the shared library (the rest of it is hidden).
#pragma GCC visibility push(default)

namespace tenferro {

struct RuntimeOptions {
  CacheLimits cache_limits;
};

// One published, immutable state of the installed modules (defined in the library: its layout
// is the runtime's business, not the API's).
class ExtensionSnapshot;

namespace runtime_internal {
struct RuntimeAccess;  // the library's own access to counters and the dense-slot ensure
}  // namespace runtime_internal

class EagerRuntime : public std::enable_shared_from_this<EagerRuntime> {
 public:
  // The default CPU runtime (a new runtime with its own CpuBackend on every call).
  static std::shared_ptr<EagerRuntime> cpu(RuntimeOptions options = {});
  // A WebGPU runtime (adapter 0). Unsupported when not compiled in; Backend when no adapter.
  static std::shared_ptr<EagerRuntime> webgpu(RuntimeOptions options = {});
  // A CUDA runtime on `device`. Unsupported when not compiled in; Backend when no device.
  static std::shared_ptr<EagerRuntime> cuda(int device = 0, RuntimeOptions options = {});
  // A runtime of `kind` on its default device: the one switch over backends that builds
  // runtimes (the CLI and the benchmarks call it). Errors as the factories above.
  static std::shared_ptr<EagerRuntime> of(BackendKind kind, RuntimeOptions options = {});
  // A runtime around a backend built by the caller (advanced use and tests).
  static std::shared_ptr<EagerRuntime> with_backend(std::unique_ptr<Backend> backend,
                                                    RuntimeOptions options = {});
  ~EagerRuntime();
  EagerRuntime(const EagerRuntime&) = delete;
  EagerRuntime& operator=(const EagerRuntime&) = delete;

  std::uint64_t id() const noexcept { return id_; }  // opaque, unique in the process
  BackendKind backend_kind() const noexcept { return backend_->kind(); }
  // The direct engine id; throws MissingEngine when the backend has none.
  const EngineId& engine_id() const;
  // {engine id, backend kind} for module factories; throws MissingEngine.
  EagerExtensionTarget extension_target() const;
  Backend& backend() const noexcept { return *backend_; }
  void synchronize();

  // Explicit transfer into this runtime (a copy; counted in stats).
  EagerTensor upload(const Tensor& host);
  // A fresh compact value of this runtime (contents unspecified).
  EagerTensor empty(DType dtype, Shape shape);

  RuntimeStats stats() const;
  ExtensionCacheStore& caches() noexcept { return caches_; }

  // Control plane. Warm path: one atomic load of the snapshot and a read-only lookup (no lock,
  // no copy, no allocation); `module` is then ignored. Cold path: under the install mutex,
  // validate that `module` registers (family, engine) (else MissingExtensionEngine, snapshot
  // untouched), publish a new snapshot and bump the epoch, once even under races.
  // Returns the executor registered in the current snapshot.
  const ExtensionExecutor& ensure_extension_module_for_engine(const ModulePtr& module,
                                                              std::string_view family,
                                                              const EngineId& engine);
  // Installs (or replaces, by module id) a module unconditionally; bumps the epoch.
  void install_extension_module(const ModulePtr& module);
  // The current snapshot (an opaque identity for callers outside the library; it changes
  // exactly when a module is installed). A replaced snapshot is freed once no eager call of this
  // runtime is running, so outside a call the pointer is valid until the next install.
  const ExtensionSnapshot* snapshot() const noexcept {
    return snapshot_.load(std::memory_order_seq_cst);
  }

 private:
  friend struct runtime_internal::RuntimeAccess;
  EagerRuntime(std::unique_ptr<Backend> backend, RuntimeOptions options);
  void publish_locked(std::unique_ptr<ExtensionSnapshot> next);
  // Snapshot readers: every eager call from its ensure to the end of its executor (dispatch_on),
  // and the library's own reads outside one. The last reader out frees the retired snapshots.
  void begin_snapshot_read() const noexcept;
  void end_snapshot_read() const noexcept;
  void reclaim_retired_locked() const noexcept;  // with install_mutex_ held
  // The warm path of the built-in families: the snapshot's dense slot of `family_id` (resolved
  // at install) answers with one pointer compare; anything else takes the ensure above.
  const ExtensionExecutor& ensure_family(const ModulePtr& module, std::uint32_t family_id,
                                         std::string_view family, const EngineId& engine);
  // The warm path of a registration table: the module in the snapshot's slot of `family_id`
  // (nullptr before the first install), which the table recognises as one of its own with a
  // pointer compare; the table then counts the hit and indexes its kernel itself.
  const ExtensionModule* installed_family_module(std::uint32_t family_id) const noexcept;
  void count_ensure_fast_path_hit() noexcept;

  // Counters the backends, executors and caches feed (through runtime_internal::RuntimeAccess).
  void count_upload(std::size_t bytes) noexcept;
  void count_download(std::size_t bytes) noexcept;
  void count_status_read(std::size_t bytes) noexcept;
  void count_scalar_read(std::size_t bytes) noexcept;
  void count_scalar_write(std::size_t bytes) noexcept;
  void count_kernel_launch(std::uint32_t family_id, std::uint64_t count) noexcept;
  void count_numerical_retry() noexcept;
  void count_backend_construction_in_call() noexcept;

  std::uint64_t id_;
  std::unique_ptr<Backend> backend_;
  // The backend's target, built once (a backend's engine never changes), so a call does not
  // copy the engine id; empty when the backend has no direct engine.
  std::optional<EagerExtensionTarget> target_;
  ExtensionCacheStore caches_;

  std::atomic<const ExtensionSnapshot*> snapshot_{nullptr};
  mutable std::mutex install_mutex_;
  std::unique_ptr<const ExtensionSnapshot> current_;  // owns *snapshot_
  // Replaced snapshots a running call may still read (its executor may belong to a module only
  // they hold), freed when the reader count falls to zero. seq_cst on the count and on
  // snapshot_ makes that safe: a reader counted after the check loads the newer snapshot.
  mutable std::vector<std::unique_ptr<const ExtensionSnapshot>> retired_;
  mutable std::atomic<bool> has_retired_{false};
  mutable std::atomic<std::uint32_t> snapshot_readers_{0};

  std::atomic<std::uint64_t> module_installs_{0};
  std::atomic<std::uint64_t> ensure_fast_path_hits_{0};
  std::atomic<std::uint64_t> uploads_{0}, upload_bytes_{0}, downloads_{0}, download_bytes_{0};
  std::atomic<std::uint64_t> status_reads_{0}, status_read_bytes_{0};
  std::atomic<std::uint64_t> scalar_reads_{0}, scalar_read_bytes_{0};
  std::atomic<std::uint64_t> scalar_writes_{0}, scalar_write_bytes_{0};
  std::atomic<std::uint64_t> numerical_retries_{0};
  std::atomic<std::uint64_t> backend_constructions_in_calls_{0};
  // Kernel launches by dense family id (runtime_internal::family_id): one lock-free counter
  // per slot, indexed without a lookup.
  std::array<std::atomic<std::uint64_t>, 64> kernel_launches_{};
};

}  // namespace tenferro

#pragma GCC visibility pop
