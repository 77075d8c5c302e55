#include "support/test_family.hpp"

#include "backends/cpu/cpu_backend.hpp"
#include "support/test_device_backend.hpp"
#include "tenferro/runtime/runtime.hpp"

namespace tenferro::testing {

bool ScaleOp::payload_equals(const ExtensionOp& other) const noexcept {
  auto* o = dynamic_cast<const ScaleOp*>(&other);
  return o != nullptr && o->arity_ == arity_;
}

std::vector<TensorMeta> ScaleOp::infer_outputs(std::span<const TensorMeta> inputs) const {
  for (const TensorMeta& m : inputs) {
    if (m.dtype != DType::F64 || m.shape != inputs[0].shape) {
      throw_validation("test.scale", "inputs must be F64 of one shape");
    }
  }
  return {inputs[0]};
}

Counters& counters() {
  static Counters c;
  return c;
}

namespace {

std::vector<TensorMeta> metas(std::span<const EagerTensor> inputs) {
  std::vector<TensorMeta> m;
  for (const EagerTensor& t : inputs) m.push_back(t.meta());
  return m;
}

std::vector<EagerTensor> run_cpu(const ExecutionContext& ctx, const ExtensionOp& op,
                                 std::span<const EagerTensor> inputs) {
  const TensorMeta out_meta = op.infer_outputs(metas(inputs))[0];
  counters().cpu_kernel_runs.fetch_add(1);
  count_cpu_kernel_launch();
  ctx.record_kernel_launch();
  Tensor out = Tensor::zeros(out_meta.dtype, out_meta.shape);
  std::vector<Tensor> in;
  for (const EagerTensor& t : inputs) in.push_back(host_tensor_of(t).contiguous());
  double* y = out.data<double>();
  for (std::int64_t i = 0; i < out.numel(); ++i) {
    double acc = 2 * in[0].data<double>()[i];
    for (std::size_t k = 1; k < in.size(); ++k) acc += in[k].data<double>()[i];
    y[i] = acc;
  }
  return {adopt_host_tensor(ctx.runtime_ptr(), std::move(out))};
}

std::vector<EagerTensor> run_device(const ExecutionContext& ctx, const ExtensionOp& op,
                                    std::span<const EagerTensor> inputs) {
  const TensorMeta out_meta = op.infer_outputs(metas(inputs))[0];
  ctx.backend_as<TestDeviceBackend>();  // a device kernel only runs on its own device
  counters().device_kernel_runs.fetch_add(1);
  ctx.record_kernel_launch();
  EagerTensor out = ctx.allocate(out_meta.dtype, out_meta.shape);
  auto* y = reinterpret_cast<double*>(static_cast<TestDeviceBuffer&>(*out.buffer()).device_bytes());
  for (std::int64_t i = 0; i < out.numel(); ++i) {
    double acc = 0;
    for (std::size_t k = 0; k < inputs.size(); ++k) {
      auto& b = static_cast<TestDeviceBuffer&>(*inputs[k].buffer());
      const double x =
          reinterpret_cast<const double*>(b.device_bytes())[inputs[k].layout().offset + i];
      acc += (k == 0 ? 2 : 1) * x;
    }
    y[i] = acc;
  }
  return {out};
}

}  // namespace

ModulePtr make_cpu_scale_module(const EngineId& engine) {
  auto m = std::make_shared<ExtensionModule>("tenferro.test.scale.cpu");
  m->register_executor(std::string(kTestFamily), engine, run_cpu);
  return m;
}

ModulePtr make_device_scale_module(const EngineId& engine) {
  auto m = std::make_shared<ExtensionModule>("tenferro.test.scale.device");
  m->register_executor(std::string(kTestFamily), engine, run_device);
  return m;
}

ModulePtr make_forbidden_module(const EngineId& engine) {
  auto m = std::make_shared<ExtensionModule>("tenferro.test.forbidden");
  m->register_executor(std::string(kTestFamily), engine,
                       [](const ExecutionContext&, const ExtensionOp&,
                          std::span<const EagerTensor>) -> std::vector<EagerTensor> {
                         throw std::logic_error("a kernel that must not run was executed");
                       });
  return m;
}

namespace {
// The switch over the target's backend kind that every correct factory makes.
ModulePtr module_for(const EagerExtensionTarget& target) {
  switch (target.backend_kind) {
    case BackendKind::Cpu:
      return make_cpu_scale_module(target.engine_id);
    case BackendKind::Cuda:
      return make_device_scale_module(target.engine_id);
    case BackendKind::WebGpu:
      break;
  }
  throw_unsupported_target(kTestFamily, target, "the test family has no WebGPU executor");
}
}  // namespace

ModulePtr target_factory(const EagerExtensionTarget& target) {
  counters().factory_calls.fetch_add(1);
  return module_for(target);
}

ModulePtr cached_target_factory(const EagerExtensionTarget& target) {
  static ModuleCache cache;
  counters().factory_calls.fetch_add(1);
  return cache.get_or_build(target, [&] { return module_for(target); });
}

ModulePtr cpu_hardcoded_factory(const EagerExtensionTarget&) {
  counters().factory_calls.fetch_add(1);
  return make_cpu_scale_module(CpuBackend::engine());
}

}  // namespace tenferro::testing
