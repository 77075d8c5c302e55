#include "ops/prims/registration.hpp"

#include <array>
#include <string>

#include "runtime/dispatch_internal.hpp"
#include "runtime/family_ids.hpp"
#include "runtime/family_modules.hpp"
#include "tenferro/config.hpp"
#include "tenferro/prims.hpp"

namespace tenferro::prims_internal {
namespace {

std::string_view backend_note(BackendKind kind) {
  switch (kind) {
    case BackendKind::Cpu:
      return "";
    case BackendKind::Cuda:
      return "not compiled in";
    case BackendKind::WebGpu:
      return "not compiled in";
  }
  return "";
}

const std::vector<const PrimsKernels*>& kernel_sets() {
  static const std::vector<const PrimsKernels*> sets = [] {
    std::vector<const PrimsKernels*> v{&cpu_prims_kernels()};
    // (WebGPU and CUDA kernel sets are added here, each under its build option.)
#if TENFERRO_HAS_WEBGPU
    v.push_back(&webgpu_prims_kernels());
#endif
#if TENFERRO_HAS_CUDA
    v.push_back(&cuda_prims_kernels());
#endif
    return v;
  }();
  return sets;
}

bool runs(const PrimsKernels& k, PrimKind kind, DType dtype) noexcept {
  return (k.runs[static_cast<std::size_t>(kind)] & info(kind).dtypes & dtype_bit(dtype)) != 0;
}

}  // namespace

std::span<const PrimsKernels* const> registered_kernel_sets() {
  return kernel_sets();
}

const PrimsKernels* kernels_for(BackendKind backend) noexcept {
  for (const PrimsKernels* k : kernel_sets()) {
    if (k->backend == backend) return k;
  }
  return nullptr;
}

void check_admitted(const PrimsOp& op, BackendKind backend) {
  const PrimsKernels* k = kernels_for(backend);
  const DType in = op.admission_dtype();
  const bool ok = k != nullptr && runs(*k, op.kind(), in) &&
                  (op.kind() != PrimKind::Cast || runs(*k, op.kind(), op.payload().out.dtype));
  if (ok) return;
  // The admission table says the same thing in the words every family uses.
  prims_family::admission_table().check(op.name(), backend, in);
  throw_error(ErrorKind::Unsupported, ErrorPhase::Module, std::string(op.name()),
              std::string(backend_kind_name(backend)) + " cannot cast " +
                  std::string(dtype_name(in)) + " to " +
                  std::string(dtype_name(op.payload().out.dtype)) +
                  " (it has no kernel for the target dtype)");
}

ModulePtr prims_module_for(const EagerExtensionTarget& target) {
  static const runtime_internal::FamilyModules modules = [] {
    std::array<runtime_internal::FamilyBackend, 3> backends;
    for (BackendKind kind : {BackendKind::Cpu, BackendKind::Cuda, BackendKind::WebGpu}) {
      auto& b = backends[static_cast<std::size_t>(kind)];
      if (const PrimsKernels* kernels = kernels_for(kind)) {
        b.executor = [kernels](const ExecutionContext& ctx, const ExtensionOp& op,
                               std::span<const EagerTensor> inputs) {
          return execute(*kernels, ctx, op, inputs);
        };
      } else {
        b.missing = "this build has no prims kernels for this backend";
      }
    }
    return runtime_internal::FamilyModules(std::string(prims_family::kFamily), std::move(backends));
  }();
  return modules.module_for(target);
}

namespace {
// The family's dense id, resolved once (the warm path indexes the runtime's slot with it).
std::uint32_t prims_family_id() {
  static const std::uint32_t id = runtime_internal::family_id(prims_family::kFamily);
  return id;
}
}  // namespace

EagerTensor run(const PrimsOp& op, std::span<const EagerTensor> inputs) {
  const auto factory = [&op](const EagerExtensionTarget& target) {
    check_admitted(op, target.backend_kind);
    return prims_module_for(target);
  };
  return std::move(runtime_internal::dispatch(op, inputs, factory, prims_family_id()).at(0));
}

EagerTensor run_on(const std::shared_ptr<EagerRuntime>& runtime, const PrimsOp& op) {
  const auto factory = [&op](const EagerExtensionTarget& target) {
    check_admitted(op, target.backend_kind);
    return prims_module_for(target);
  };
  return std::move(
      runtime_internal::dispatch_on_runtime(runtime, op, {}, factory, prims_family_id()).at(0));
}

}  // namespace tenferro::prims_internal

namespace tenferro::prims_family {

const AdmissionTable& admission_table() {
  using namespace prims_internal;
  static const AdmissionTable table = [] {
    std::vector<std::string> names;
    for (const PrimInfo& p : kPrimInfo) names.emplace_back(p.name);
    AdmissionTable t(std::string(kFamily), std::move(names));
    std::array<bool, 3> present{};
    for (const PrimsKernels* k : kernel_sets()) {
      present[static_cast<std::size_t>(k->backend)] = true;
      for (const PrimInfo& p : kPrimInfo) {
        for (DType d : kAllDTypes) {
          if (runs(*k, p.kind, d)) t.admit(p.name, k->backend, {d});
        }
      }
    }
    for (BackendKind b : {BackendKind::Cpu, BackendKind::Cuda, BackendKind::WebGpu}) {
      if (!present[static_cast<std::size_t>(b)]) t.note(b, std::string(backend_note(b)));
    }
#if TENFERRO_HAS_WEBGPU
    t.note(BackendKind::WebGpu, "WGSL has no f64: F32/C32 only");
#endif
    return t;
  }();
  return table;
}

}  // namespace tenferro::prims_family
