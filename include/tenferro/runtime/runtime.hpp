// EagerRuntime: owns exactly one backend for its whole life, an opaque identity, the
// installed extension modules (a versioned immutable snapshot), the runtime-owned caches and
// the statistics. Always held by std::shared_ptr.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string_view>
#include <vector>

#include "tenferro/runtime/backend.hpp"
#include "tenferro/runtime/cache_store.hpp"
#include "tenferro/runtime/eager_tensor.hpp"
#include "tenferro/runtime/extension.hpp"
#include "tenferro/runtime/stats.hpp"

namespace tenferro {

struct RuntimeOptions {
  CacheLimits cache_limits;
};

// One published, immutable state of the installed modules.
class ExtensionSnapshot {
 public:
  struct Entry {
    std::string module_id;
    std::string family;
    EngineId engine;
    const ExtensionExecutor* executor;  // points into `modules`
  };
  std::uint64_t epoch() const noexcept { return epoch_; }
  const std::vector<Entry>& entries() const noexcept { return entries_; }
  // The registered executor for (module id, family, engine), or nullptr.
  const ExtensionExecutor* find(std::string_view module_id, std::string_view family,
                                const EngineId& engine) const noexcept;

 private:
  friend class EagerRuntime;
  std::uint64_t epoch_ = 0;
  std::vector<Entry> entries_;
  std::vector<ModulePtr> modules_;  // keeps the executors alive
};

class EagerRuntime : public std::enable_shared_from_this<EagerRuntime> {
 public:
  // The default CPU runtime (a new runtime with its own CpuBackend on every call).
  static std::shared_ptr<EagerRuntime> cpu(RuntimeOptions options = {});
  // A WebGPU runtime (adapter 0). Unsupported when not compiled in; Backend when no adapter.
  static std::shared_ptr<EagerRuntime> webgpu(RuntimeOptions options = {});
  // A CUDA runtime on `device`. Unsupported when not compiled in; Backend when no device.
  static std::shared_ptr<EagerRuntime> cuda(int device = 0, RuntimeOptions options = {});
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
  const ExtensionSnapshot* snapshot() const noexcept {
    return snapshot_.load(std::memory_order_acquire);
  }

  // Counters the backends, executors and caches feed.
  void count_upload(std::size_t bytes) noexcept;
  void count_download(std::size_t bytes) noexcept;
  void count_status_read(std::size_t bytes) noexcept;
  void count_kernel_launch(std::string_view family, std::uint64_t count = 1);
  void count_numerical_retry() noexcept;
  void count_backend_construction_in_call() noexcept;

 private:
  EagerRuntime(std::unique_ptr<Backend> backend, RuntimeOptions options);
  void publish_locked(std::unique_ptr<ExtensionSnapshot> next);

  std::uint64_t id_;
  std::unique_ptr<Backend> backend_;
  ExtensionCacheStore caches_;

  std::atomic<const ExtensionSnapshot*> snapshot_{nullptr};
  std::mutex install_mutex_;
  // Every published snapshot stays alive for the runtime's life, so a reader's pointer from
  // the warm path never dangles. Publishes are rare (one per family/engine), so this is small.
  std::vector<std::unique_ptr<const ExtensionSnapshot>> published_;

  std::atomic<std::uint64_t> module_installs_{0};
  std::atomic<std::uint64_t> ensure_fast_path_hits_{0};
  std::atomic<std::uint64_t> uploads_{0}, upload_bytes_{0}, downloads_{0}, download_bytes_{0};
  std::atomic<std::uint64_t> status_reads_{0}, status_read_bytes_{0};
  std::atomic<std::uint64_t> numerical_retries_{0};
  std::atomic<std::uint64_t> backend_constructions_in_calls_{0};
  // Kernel launches by dense family id (runtime_internal::family_id): lock-free counters.
  std::array<std::atomic<std::uint64_t>, 64> kernel_launches_{};
};

}  // namespace tenferro
