// The extension vocabulary of the dispatch contract (DESIGN §1-§2): targets, ops, modules,
// executors, module factories and the process-wide module cache.
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "tenferro/runtime/eager_tensor.hpp"
#include "tenferro/runtime/placement.hpp"

// The public API: exported from the shared library (the rest of it is hidden).
#pragma GCC visibility push(default)

namespace tenferro {

class ExtensionCacheStore;

// What a module factory gets: the runtime's engine and backend kind, derived from the
// runtime's backend (never from tensor placement or build options).
struct EagerExtensionTarget {
  EngineId engine_id;
  BackendKind backend_kind;
  friend bool operator==(const EagerExtensionTarget&, const EagerExtensionTarget&) = default;
};

// The semantic description of one call: no caches, handles or streams inside.
class ExtensionOp {
 public:
  virtual ~ExtensionOp() = default;
  virtual std::string_view family() const noexcept = 0;  // e.g. "tenferro.einsum.v1"
  virtual std::string_view name() const noexcept = 0;    // for errors, e.g. "einsum"
  virtual std::size_t arity() const noexcept = 0;        // number of inputs this call takes
  virtual std::uint64_t payload_hash() const noexcept = 0;
  virtual bool payload_equals(const ExtensionOp& other) const noexcept = 0;
  virtual std::vector<TensorMeta> infer_outputs(std::span<const TensorMeta> inputs) const = 0;
};

// What an executor sees while it runs inside the runtime's backend session.
class ExecutionContext {
 public:
  ExecutionContext(const std::shared_ptr<EagerRuntime>& runtime, std::string_view family);
  // With the family's dense id already resolved (the dispatcher's warm path).
  ExecutionContext(const std::shared_ptr<EagerRuntime>& runtime, std::string_view family,
                   std::uint32_t family_id) noexcept
      : runtime_(runtime), family_(family), family_id_(family_id) {}
  EagerRuntime& runtime() const noexcept { return *runtime_; }
  const std::shared_ptr<EagerRuntime>& runtime_ptr() const noexcept { return runtime_; }
  Backend& backend() const noexcept;
  // The backend as its concrete type; throws RuntimeState if it is another type.
  template <class B>
  B& backend_as() const {
    if (auto* b = dynamic_cast<B*>(&backend())) return *b;
    throw_backend_type_mismatch();
  }
  ExtensionCacheStore& caches() const noexcept;
  std::string_view family() const noexcept { return family_; }
  // Counts executor/kernel launches under "family@backend" in RuntimeStats (lock-free).
  void record_kernel_launch(std::uint64_t count = 1) const noexcept;
  // A fresh compact output of this runtime (contents unspecified).
  EagerTensor allocate(DType dtype, Shape shape) const;

 private:
  [[noreturn]] void throw_backend_type_mismatch() const;
  const std::shared_ptr<EagerRuntime>& runtime_;
  std::string_view family_;
  std::uint32_t family_id_;
};

using ExtensionExecutor = std::function<std::vector<EagerTensor>(
    const ExecutionContext&, const ExtensionOp&, std::span<const EagerTensor>)>;

// Registration metadata only: a module id and, per (family, engine), the executor to run.
// No backend, allocation, stream or mutable cache.
class ExtensionModule {
 public:
  struct Registration {
    std::string family;
    EngineId engine;
    ExtensionExecutor executor;
  };
  explicit ExtensionModule(std::string id);
  ExtensionModule& register_executor(std::string family, EngineId engine,
                                     ExtensionExecutor executor);
  const std::string& id() const noexcept { return id_; }
  const std::vector<Registration>& registrations() const noexcept { return registrations_; }
  const Registration* find(std::string_view family, const EngineId& engine) const noexcept;

 private:
  std::string id_;
  std::vector<Registration> registrations_;
};

using ModulePtr = std::shared_ptr<const ExtensionModule>;

// A non-owning reference to a callable `ModulePtr(const EagerExtensionTarget&)`: the module
// factory of one family. Cheap to pass per call (no allocation).
class ModuleFactoryRef {
 public:
  using Function = ModulePtr (*)(const EagerExtensionTarget&);
  // A function, a capture-less lambda, or any callable that outlives the call.
  template <class F>
  requires(!std::is_same_v<std::remove_cvref_t<F>, ModuleFactoryRef>) ModuleFactoryRef(F&& f)
  noexcept {  // NOLINT: implicit by design
    if constexpr (std::is_convertible_v<F, Function>) {
      function_ = static_cast<Function>(f);
      call_ = [](const ModuleFactoryRef& self, const EagerExtensionTarget& t) {
        return self.function_(t);
      };
    } else {
      object_ = const_cast<void*>(static_cast<const void*>(std::addressof(f)));
      call_ = [](const ModuleFactoryRef& self, const EagerExtensionTarget& t) -> ModulePtr {
        return (*static_cast<std::remove_reference_t<F>*>(self.object_))(t);
      };
    }
  }
  ModulePtr operator()(const EagerExtensionTarget& target) const { return call_(*this, target); }

 private:
  union {
    void* object_;
    Function function_;
  };
  ModulePtr (*call_)(const ModuleFactoryRef&, const EagerExtensionTarget&);
};

// Process-wide cache of built modules for one family, keyed by (BackendKind, EngineId) so a
// registration is never handed to another engine or device. Reads take no lock.
class ModuleCache {
 public:
  ModuleCache() = default;
  ~ModuleCache();
  ModuleCache(const ModuleCache&) = delete;
  ModuleCache& operator=(const ModuleCache&) = delete;
  template <class Build>
  ModulePtr get_or_build(const EagerExtensionTarget& target, Build&& build) {
    if (ModulePtr hit = find(target)) return hit;
    return insert(target, build());
  }
  ModulePtr find(const EagerExtensionTarget& target) const noexcept;
  // Whether `module` is one this cache built (pointer compares, no reference taken).
  bool holds(const ExtensionModule* module) const noexcept;
  std::size_t size() const noexcept;

 private:
  // Append-only list: a slot is written once, before it is published, and lives as long as the
  // cache, so readers walk it without a lock and no copy is ever retired.
  struct Slot {
    EagerExtensionTarget target;
    ModulePtr module;
    const Slot* next;
  };
  const Slot* lookup(const EagerExtensionTarget& target) const noexcept;
  ModulePtr insert(const EagerExtensionTarget& target, ModulePtr module);
  std::atomic<const Slot*> head_{nullptr};
  std::atomic<std::size_t> size_{0};
  std::mutex mutex_;  // serialises inserts
};

// The dispatch contract (DESIGN §2): inputs -> target -> ingress -> factory -> ensure ->
// execute, in that order. Outputs stay in the inputs' runtime.
std::vector<EagerTensor> apply_eager_with_targeted_extension_session(
    const ExtensionOp& op, std::span<const EagerTensor> inputs, ModuleFactoryRef module_factory);

// The same contract for ops whose runtime is named by the caller rather than taken from the
// inputs (creation ops: zeros, eye, random numbers): `inputs` may be empty, and each one must
// belong to `runtime` (ContextMismatch otherwise). Steps 2-6 are those above.
std::vector<EagerTensor> apply_eager_on_runtime(const std::shared_ptr<EagerRuntime>& runtime,
                                                const ExtensionOp& op,
                                                std::span<const EagerTensor> inputs,
                                                ModuleFactoryRef module_factory);

// Step 1 alone: non-empty, arity, one runtime. Throws ContextMismatch / Validation.
// Returns the shared runtime. Used by the direct paths that bypass the extension machinery.
const std::shared_ptr<EagerRuntime>& require_one_runtime(std::string_view op,
                                                         std::span<const EagerTensor> inputs,
                                                         std::size_t arity);

// A typed Unsupported error for a (family, backend) with no implementation, thrown by
// factories before execution.
[[noreturn]] void throw_unsupported_target(std::string_view family,
                                           const EagerExtensionTarget& target,
                                           std::string_view why);

}  // namespace tenferro

#pragma GCC visibility pop
