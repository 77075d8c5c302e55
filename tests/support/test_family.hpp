// A test-only op family ("tenferro.test.scale.v1": y = 2 * x0 + x1 + ... over F64 inputs)
// with one executor per backend, module factories that count their calls, and a kernel that
// throws if it ever runs, so the contract tests can prove what ran and what did not.
#pragma once

#include <atomic>
#include <cstdint>
#include <span>
#include <string_view>

#include "tenferro/runtime/extension.hpp"

namespace tenferro::testing {

inline constexpr std::string_view kTestFamily = "tenferro.test.scale.v1";

class ScaleOp final : public ExtensionOp {
 public:
  explicit ScaleOp(std::size_t arity = 1) : arity_(arity) {}
  std::string_view family() const noexcept override { return kTestFamily; }
  std::string_view name() const noexcept override { return "test.scale"; }
  std::size_t arity() const noexcept override { return arity_; }
  std::uint64_t payload_hash() const noexcept override { return arity_; }
  bool payload_equals(const ExtensionOp& other) const noexcept override;
  std::vector<TensorMeta> infer_outputs(std::span<const TensorMeta> inputs) const override;

 private:
  std::size_t arity_;
};

struct Counters {
  std::atomic<std::uint64_t> factory_calls{0};
  std::atomic<std::uint64_t> cpu_kernel_runs{0};
  std::atomic<std::uint64_t> device_kernel_runs{0};
  void reset() {
    factory_calls = 0;
    cpu_kernel_runs = 0;
    device_kernel_runs = 0;
  }
};
Counters& counters();

// Fresh (uncached) modules, as a factory that builds on every call would return.
ModulePtr make_cpu_scale_module(const EngineId& engine);
ModulePtr make_device_scale_module(const EngineId& engine);
// A module whose executor throws if it is ever called.
ModulePtr make_forbidden_module(const EngineId& engine);

// The correct factory: switches on the target's backend kind. Cpu -> CPU module for that
// engine; Cuda (the test device claims Cuda) -> device module; WebGpu -> typed Unsupported.
ModulePtr target_factory(const EagerExtensionTarget& target);
// The same through a process-wide ModuleCache keyed by target.
ModulePtr cached_target_factory(const EagerExtensionTarget& target);
// The bug the specification fixes: always the CPU module, whatever the target.
ModulePtr cpu_hardcoded_factory(const EagerExtensionTarget& target);

}  // namespace tenferro::testing
