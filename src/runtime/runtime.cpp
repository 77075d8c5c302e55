#include "tenferro/runtime/runtime.hpp"

#include <atomic>

#include "backends/cpu/cpu_backend.hpp"
#include "runtime/extension_snapshot.hpp"
#include "runtime/family_ids.hpp"
#include "runtime/registration_table.hpp"
#include "tenferro/config.hpp"
#include "tenferro/runtime/errors.hpp"
#if TENFERRO_HAS_WEBGPU
#include "backends/webgpu/webgpu_backend.hpp"
#endif
#if TENFERRO_HAS_CUDA
#include "backends/cuda/cuda_backend.hpp"
#endif

namespace tenferro {

namespace {
std::uint64_t next_runtime_id() noexcept {
  static std::atomic<std::uint64_t> next{1};
  return next.fetch_add(1, std::memory_order_relaxed);
}
}  // namespace

const ExtensionExecutor* ExtensionSnapshot::find(std::string_view module_id,
                                                 std::string_view family,
                                                 const EngineId& engine) const noexcept {
  for (const Entry& e : entries_) {
    if (e.engine == engine && e.family == family && e.module_id == module_id) return e.executor;
  }
  return nullptr;
}

EagerRuntime::EagerRuntime(std::unique_ptr<Backend> backend, RuntimeOptions options)
    : id_(next_runtime_id()), backend_(std::move(backend)), caches_(options.cache_limits) {
  if (const EngineId* engine = backend_->direct_engine())
    target_.emplace(EagerExtensionTarget{*engine, backend_->kind()});
}

EagerRuntime::~EagerRuntime() = default;

std::shared_ptr<EagerRuntime> EagerRuntime::with_backend(std::unique_ptr<Backend> backend,
                                                         RuntimeOptions options) {
  if (!backend) {
    throw_error(ErrorKind::RuntimeState, ErrorPhase::Runtime, "runtime", "no backend given");
  }
  return std::shared_ptr<EagerRuntime>(new EagerRuntime(std::move(backend), options));
}

std::shared_ptr<EagerRuntime> EagerRuntime::cpu(RuntimeOptions options) {
  return with_backend(std::make_unique<CpuBackend>(), options);
}

std::shared_ptr<EagerRuntime> EagerRuntime::webgpu(RuntimeOptions options) {
#if TENFERRO_HAS_WEBGPU
  return with_backend(make_webgpu_backend(), options);
#else
  (void)options;
  throw_error(
      ErrorKind::Unsupported, ErrorPhase::Runtime, "runtime.webgpu",
      "this build of tenferro has no WebGPU backend (configure with -DTENFERRO_WITH_WEBGPU=ON)");
#endif
}

std::shared_ptr<EagerRuntime> EagerRuntime::cuda(int device, RuntimeOptions options) {
#if TENFERRO_HAS_CUDA
  return with_backend(make_cuda_backend(device), options);
#else
  (void)device;
  (void)options;
  throw_error(
      ErrorKind::Unsupported, ErrorPhase::Runtime, "runtime.cuda",
      "this build of tenferro has no CUDA backend (configure with -DTENFERRO_WITH_CUDA=ON)");
#endif
}

namespace runtime_internal {
bool backend_compiled_in(BackendKind kind) noexcept {
  switch (kind) {
    case BackendKind::Cpu:
      return true;
    case BackendKind::Cuda:
      return TENFERRO_HAS_CUDA != 0;
    case BackendKind::WebGpu:
      return TENFERRO_HAS_WEBGPU != 0;
  }
  return false;
}
}  // namespace runtime_internal

std::shared_ptr<EagerRuntime> EagerRuntime::of(BackendKind kind, RuntimeOptions options) {
  switch (kind) {
    case BackendKind::Cpu:
      return cpu(options);
    case BackendKind::Cuda:
      return cuda(0, options);
    case BackendKind::WebGpu:
      return webgpu(options);
  }
  throw_error(ErrorKind::Validation, ErrorPhase::Runtime, "runtime", "unknown backend kind");
}

const EngineId& EagerRuntime::engine_id() const {
  const EngineId* engine = backend_->direct_engine();
  if (engine == nullptr) {
    throw_error(ErrorKind::MissingEngine, ErrorPhase::Target, "runtime",
                "runtime " + std::to_string(id_) + " has no direct engine");
  }
  return *engine;
}

EagerExtensionTarget EagerRuntime::extension_target() const {
  return EagerExtensionTarget{engine_id(), backend_->kind()};
}

void EagerRuntime::synchronize() {
  backend_->synchronize();
}

EagerTensor EagerRuntime::upload(const Tensor& host) {
  const Tensor compact = host.contiguous();
  const std::size_t bytes = compact.nbytes();
  std::shared_ptr<Buffer> buffer = backend_->allocate(bytes);
  if (bytes > 0) backend_->write(*buffer, 0, std::span<const std::byte>(compact.raw_data(), bytes));
  count_upload(bytes);
  return EagerTensor(shared_from_this(), std::move(buffer),
                     TensorLayout{compact.dtype(), compact.shape(), compact.strides(), 0});
}

EagerTensor EagerRuntime::empty(DType dtype, Shape shape) {
  return EagerTensor::fresh(shared_from_this(), *backend_, dtype, std::move(shape));
}

RuntimeStats EagerRuntime::stats() const {
  RuntimeStats s;
  begin_snapshot_read();
  const ExtensionSnapshot* snap = snapshot();
  s.epoch = snap ? snap->epoch() : 0;
  end_snapshot_read();
  {
    std::lock_guard lock(install_mutex_);
    s.retained_snapshots = (current_ ? 1 : 0) + retired_.size();
  }
  s.module_installs = module_installs_.load();
  s.ensure_fast_path_hits = ensure_fast_path_hits_.load();
  const CacheStats cache = caches_.stats();
  s.cache_hits = cache.hits;
  s.cache_misses = cache.misses;
  s.cache_entries = cache.entries;
  s.cache_bytes = cache.bytes;
  s.uploads = uploads_.load();
  s.upload_bytes = upload_bytes_.load();
  s.downloads = downloads_.load();
  s.download_bytes = download_bytes_.load();
  s.status_reads = status_reads_.load();
  s.status_read_bytes = status_read_bytes_.load();
  s.scalar_reads = scalar_reads_.load();
  s.scalar_read_bytes = scalar_read_bytes_.load();
  s.scalar_writes = scalar_writes_.load();
  s.scalar_write_bytes = scalar_write_bytes_.load();
  s.backend_constructions = 1 + backend_constructions_in_calls_.load();
  s.numerical_retries = numerical_retries_.load();
  const std::string suffix = "@" + std::string(backend_kind_name(backend_->kind()));
  const std::uint32_t families = runtime_internal::family_count();
  for (std::uint32_t id = 0; id < families; ++id) {
    const std::uint64_t n = kernel_launches_[id].load(std::memory_order_relaxed);
    if (n != 0) s.kernel_launches[std::string(runtime_internal::family_name(id)) + suffix] = n;
  }
  return s;
}

const ExtensionExecutor& EagerRuntime::ensure_family(const ModulePtr& module,
                                                     std::uint32_t family_id,
                                                     std::string_view family,
                                                     const EngineId& engine) {
  // Warm path: one acquire load, one index, one pointer compare (the family tables hand out
  // the same module object for an engine every call). A factory that builds a fresh module
  // object per call is matched by its id instead; every other case is the general ensure.
  if (const ExtensionSnapshot* snap = snapshot()) {
    const ExtensionSnapshot::Slot& slot = snap->slot(family_id);
    if (slot.module != nullptr &&
        (slot.module == module.get() || slot.module->id() == module->id())) {
      ensure_fast_path_hits_.fetch_add(1, std::memory_order_relaxed);
      return *slot.executor;
    }
  }
  return ensure_extension_module_for_engine(module, family, engine);
}

const ExtensionModule* EagerRuntime::installed_family_module(
    std::uint32_t family_id) const noexcept {
  const ExtensionSnapshot* snap = snapshot();
  return snap == nullptr ? nullptr : snap->slot(family_id).module;
}

void EagerRuntime::count_ensure_fast_path_hit() noexcept {
  ensure_fast_path_hits_.fetch_add(1, std::memory_order_relaxed);
}

const ExtensionExecutor& EagerRuntime::ensure_extension_module_for_engine(const ModulePtr& module,
                                                                          std::string_view family,
                                                                          const EngineId& engine) {
  // Warm path: one load and a read-only scan; the offered module is ignored. Counted as a
  // reader for the scan (a caller outside an eager call is not counted otherwise).
  begin_snapshot_read();
  if (const ExtensionSnapshot* snap = snapshot()) {
    if (const ExtensionExecutor* executor = snap->find(module->id(), family, engine)) {
      ensure_fast_path_hits_.fetch_add(1, std::memory_order_relaxed);
      end_snapshot_read();
      return *executor;
    }
  }
  end_snapshot_read();
  // Cold path.
  std::lock_guard lock(install_mutex_);
  if (const ExtensionSnapshot* snap = snapshot()) {
    // Another thread may have published while we waited for the lock.
    if (const ExtensionExecutor* executor = snap->find(module->id(), family, engine))
      return *executor;
  }
  if (module->find(family, engine) == nullptr) {
    throw MissingExtensionEngineError(std::string(family), module->id(), std::string(family),
                                      engine.str());
  }
  auto next = std::make_unique<ExtensionSnapshot>();
  if (const ExtensionSnapshot* current = snapshot()) {
    for (const ModulePtr& m : current->modules_) {
      if (m->id() != module->id()) next->modules_.push_back(m);
    }
  }
  next->modules_.push_back(module);
  publish_locked(std::move(next));
  return *snapshot()->find(module->id(), family, engine);
}

void EagerRuntime::install_extension_module(const ModulePtr& module) {
  if (!module) throw_error(ErrorKind::RuntimeState, ErrorPhase::Install, "install", "null module");
  std::lock_guard lock(install_mutex_);
  auto next = std::make_unique<ExtensionSnapshot>();
  if (const ExtensionSnapshot* current = snapshot()) {
    for (const ModulePtr& m : current->modules_) {
      if (m->id() != module->id()) next->modules_.push_back(m);  // replace by module id
    }
  }
  next->modules_.push_back(module);
  publish_locked(std::move(next));
}

void EagerRuntime::publish_locked(std::unique_ptr<ExtensionSnapshot> next) {
  const ExtensionSnapshot* current = snapshot();
  next->epoch_ = (current ? current->epoch_ : 0) + 1;
  // Resolve each family registered for this runtime's engine to its dense slot, once, here;
  // a later module replaces an earlier one's slot.
  const EngineId* own_engine = backend_->direct_engine();
  for (const ModulePtr& m : next->modules_) {
    for (const auto& r : m->registrations()) {
      next->entries_.push_back(ExtensionSnapshot::Entry{m->id(), r.family, r.engine, &r.executor});
      if (own_engine != nullptr && r.engine == *own_engine) {
        next->slots_[runtime_internal::family_id(r.family)] = {m.get(), &r.executor};
      }
    }
  }
  snapshot_.store(next.get(), std::memory_order_seq_cst);
  if (current_) {
    retired_.push_back(std::move(current_));
    has_retired_.store(true, std::memory_order_seq_cst);
  }
  current_ = std::move(next);
  module_installs_.fetch_add(1, std::memory_order_relaxed);
  reclaim_retired_locked();  // an install outside any call frees the old snapshot at once
}

void EagerRuntime::begin_snapshot_read() const noexcept {
  snapshot_readers_.fetch_add(1, std::memory_order_seq_cst);
}

void EagerRuntime::end_snapshot_read() const noexcept {
  if (snapshot_readers_.fetch_sub(1, std::memory_order_seq_cst) != 1) return;
  if (!has_retired_.load(std::memory_order_seq_cst)) return;
  // Rare (only after an install during a call). Never reached with the lock held by this
  // thread: installs release it before their call's read scope ends.
  std::lock_guard lock(install_mutex_);
  reclaim_retired_locked();
}

void EagerRuntime::reclaim_retired_locked() const noexcept {
  // Every retired snapshot was unpublished before it was retired: a reader that starts after
  // this check loads a newer one, and one that started before is still counted.
  if (snapshot_readers_.load(std::memory_order_seq_cst) != 0) return;
  retired_.clear();
  has_retired_.store(false, std::memory_order_seq_cst);
}

void EagerRuntime::count_upload(std::size_t bytes) noexcept {
  uploads_.fetch_add(1, std::memory_order_relaxed);
  upload_bytes_.fetch_add(bytes, std::memory_order_relaxed);
}
void EagerRuntime::count_download(std::size_t bytes) noexcept {
  downloads_.fetch_add(1, std::memory_order_relaxed);
  download_bytes_.fetch_add(bytes, std::memory_order_relaxed);
}
void EagerRuntime::count_backend_construction_in_call() noexcept {
  backend_constructions_in_calls_.fetch_add(1, std::memory_order_relaxed);
}
void EagerRuntime::count_status_read(std::size_t bytes) noexcept {
  status_reads_.fetch_add(1, std::memory_order_relaxed);
  status_read_bytes_.fetch_add(bytes, std::memory_order_relaxed);
}
void EagerRuntime::count_scalar_read(std::size_t bytes) noexcept {
  scalar_reads_.fetch_add(1, std::memory_order_relaxed);
  scalar_read_bytes_.fetch_add(bytes, std::memory_order_relaxed);
}
void EagerRuntime::count_scalar_write(std::size_t bytes) noexcept {
  scalar_writes_.fetch_add(1, std::memory_order_relaxed);
  scalar_write_bytes_.fetch_add(bytes, std::memory_order_relaxed);
}
void EagerRuntime::count_numerical_retry() noexcept {
  numerical_retries_.fetch_add(1, std::memory_order_relaxed);
}
void EagerRuntime::count_kernel_launch(std::uint32_t family_id, std::uint64_t count) noexcept {
  static_assert(std::tuple_size_v<decltype(kernel_launches_)> == runtime_internal::kMaxFamilies,
                "one launch counter per possible family id");
  kernel_launches_[family_id].fetch_add(count, std::memory_order_relaxed);
}

}  // namespace tenferro
