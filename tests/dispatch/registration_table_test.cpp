// Hardware-independent: walks each family's registration table for every backend compiled into
// this build and asks the code, not a copy of the table:
//   - the public admission answer (what `tenferro info` prints) is exactly "a row has a kernel";
//   - every admitted (op, dtype) resolves, through the module the factory builds, to a kernel:
//     the module's executor runs past the table (any outcome but the table's Unsupported
//     refusal; on a device-like test runtime the kernel then fails to find a real device);
//   - every refused (op, dtype) is refused by the factory, before anything is installed;
//   - a row without a kernel, or two rows claiming one cell, cannot be registered.
#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "ops/einsum/einsum_op.hpp"
#include "ops/einsum/expression.hpp"
#include "ops/einsum/path.hpp"
#include "ops/einsum/program.hpp"
#include "ops/einsum/registration.hpp"
#include "ops/fft/fft_op.hpp"
#include "ops/fft/registration.hpp"
#include "ops/linalg/linalg_op.hpp"
#include "ops/linalg/registration.hpp"
#include "support/test_device_backend.hpp"
#include "tenferro/config.hpp"
#include "tenferro/einsum.hpp"
#include "tenferro/runtime/runtime.hpp"

namespace tenferro {
namespace {

using runtime_internal::RegistrationTable;

struct Family {
  std::string name;
  const RegistrationTable* table;
  // An op of this family for op index `op`, keyed by `dtype`.
  std::function<std::shared_ptr<const ExtensionOp>(std::uint32_t op, DType dtype)> make_op;
};

std::shared_ptr<const ExtensionOp> einsum_op(std::uint32_t, DType dtype) {
  using namespace einsum_internal;
  const std::vector<Shape> shapes(2, Shape{3, 3});
  const std::vector<std::int64_t> ranks(2, 2);
  EinsumExpression expr = parse_subscripts("ij,jk->ik", ranks);
  std::vector<std::int64_t> sizes = label_sizes(expr, shapes);
  EinsumPath path = plan_path(expr, sizes, EinsumOptions{});
  return std::make_shared<EinsumOp>(std::make_shared<const EinsumPlan>(
      build_plan(std::move(expr), std::move(sizes), std::move(path), dtype, shapes)));
}

std::vector<Family> families() {
  return {
      {"einsum", &einsum_internal::registration_table(), &einsum_op},
      {"linalg", &linalg_internal::registration_table(),
       [](std::uint32_t op, DType) -> std::shared_ptr<const ExtensionOp> {
         return std::make_shared<linalg_internal::LinalgOp>(
             static_cast<linalg_internal::LinalgKind>(op));
       }},
      {"fft", &fft_internal::registration_table(),
       [](std::uint32_t op, DType) -> std::shared_ptr<const ExtensionOp> {
         fft_internal::FftRequest request;
         request.kind = static_cast<fft_internal::FftOpKind>(op);
         return std::make_shared<fft_internal::FftOp>(request);
       }},
  };
}

// The backend kinds this build compiles in, each with a runtime whose target is that kind:
// the real CPU runtime, and for device kinds a device-like test runtime (no GPU needed).
std::vector<std::shared_ptr<EagerRuntime>> compiled_runtimes() {
  std::vector<std::shared_ptr<EagerRuntime>> out{EagerRuntime::cpu()};
  if (TENFERRO_HAS_CUDA)
    out.push_back(testing::make_test_device_runtime(BackendKind::Cuda, "tenferro.cuda.d0.v1"));
  if (TENFERRO_HAS_WEBGPU) {
    out.push_back(testing::make_test_device_runtime(BackendKind::WebGpu, "tenferro.webgpu.d0.v1"));
  }
  return out;
}

// What the executor of `module` does with `op`: "" when it got past the table (whatever the
// kernel then did), else the table's refusal.
std::string run_past_table(const ModulePtr& module, const std::shared_ptr<EagerRuntime>& rt,
                           const ExtensionOp& op, DType dtype) {
  const ExtensionModule::Registration* r = module->find(op.family(), rt->engine_id());
  if (r == nullptr) return "the module registers no executor for the runtime's engine";
  std::vector<EagerTensor> inputs;
  for (std::size_t i = 0; i < op.arity(); ++i)
    inputs.push_back(rt->upload(Tensor::zeros(dtype, {3, 3})));
  try {
    const ExecutionContext ctx(rt, op.family());
    (void)r->executor(ctx, op, inputs);
  } catch (const Error& e) {
    if (e.kind() == ErrorKind::Unsupported && e.phase() == ErrorPhase::Module) return e.what();
  } catch (...) {  // the kernel ran and failed in its own way: it was found
  }
  return "";
}

TEST(RegistrationTable, AdmissionIsExactlyTheRowsWithKernels) {
  for (const Family& f : families()) {
    const RegistrationTable& t = *f.table;
    const AdmissionTable& admission = t.admission();
    EXPECT_EQ(admission.ops(), t.ops()) << f.name;
    for (std::uint32_t op = 0; op < t.ops().size(); ++op) {
      for (BackendKind b : {BackendKind::Cpu, BackendKind::Cuda, BackendKind::WebGpu}) {
        for (DType d : kAllDTypes) {
          bool in_a_row = false;
          for (const auto& row : t.rows()) {
            in_a_row = in_a_row || (row.op == op && row.backend == b &&
                                    (row.dtypes & runtime_internal::dtypes({d})) != 0);
          }
          const bool has_kernel = t.kernel(op, b, d) != nullptr;
          EXPECT_EQ(in_a_row, has_kernel) << f.name << " " << t.ops()[op];
          EXPECT_EQ(admission.admits(t.ops()[op], b, d), has_kernel)
              << f.name << " " << t.ops()[op] << " " << backend_kind_name(b) << " "
              << dtype_name(d);
        }
      }
    }
  }
}

TEST(RegistrationTable, EveryAdmittedOpResolvesToAKernelOnEveryCompiledBackend) {
  for (const auto& rt : compiled_runtimes()) {
    const EagerExtensionTarget target = rt->extension_target();
    for (const Family& f : families()) {
      const RegistrationTable& t = *f.table;
      for (std::uint32_t op = 0; op < t.ops().size(); ++op) {
        for (DType d : kAllDTypes) {
          const std::string what = f.name + " " + t.ops()[op] + " " +
                                   std::string(backend_kind_name(target.backend_kind)) + " " +
                                   std::string(dtype_name(d));
          const auto call = f.make_op(op, d);
          if (t.admits(op, target.backend_kind, d)) {
            const ModulePtr module = t.module_for(target, {op, d});
            ASSERT_NE(module, nullptr) << what;
            EXPECT_EQ(run_past_table(module, rt, *call, d), "") << what;
          } else {
            try {
              (void)t.module_for(target, {op, d});
              ADD_FAILURE() << what << ": refused by the table but the factory gave a module";
            } catch (const Error& e) {
              EXPECT_EQ(e.kind(), ErrorKind::Unsupported) << what;
              EXPECT_EQ(e.phase(), ErrorPhase::Module) << what;
            }
            // And the executor, reached around the factory, refuses it from the same table.
            if (t.runs_on(target.backend_kind)) {
              EXPECT_NE(run_past_table(t.module_for(target), rt, *call, d), "") << what;
            }
          }
        }
      }
    }
  }
}

// DESIGN §2: linalg and FFT admit no WebGPU op; einsum admits WebGPU for F32/C32 only, and
// every family runs every op on the CPU (FFT: with FFTW).
TEST(RegistrationTable, BackendsClaimWhatTheDesignSays) {
  const RegistrationTable& einsum = einsum_internal::registration_table();
  for (DType d : kAllDTypes) {
    EXPECT_TRUE(einsum.admits(0, BackendKind::Cpu, d));
    EXPECT_EQ(einsum.admits(0, BackendKind::WebGpu, d),
              TENFERRO_HAS_WEBGPU && (d == DType::F32 || d == DType::C32));
    EXPECT_EQ(einsum.admits(0, BackendKind::Cuda, d), TENFERRO_HAS_CUDA != 0);
  }
  EXPECT_FALSE(linalg_internal::registration_table().runs_on(BackendKind::WebGpu));
  EXPECT_FALSE(fft_internal::registration_table().runs_on(BackendKind::WebGpu));
  EXPECT_TRUE(linalg_internal::registration_table().runs_on(BackendKind::Cpu));
  EXPECT_EQ(fft_internal::registration_table().runs_on(BackendKind::Cpu), TENFERRO_HAS_FFTW != 0);
}

std::vector<EagerTensor> some_kernel(const ExecutionContext&, const ExtensionOp&,
                                     std::span<const EagerTensor>) {
  return {};
}

runtime_internal::OpKey some_key(const ExtensionOp&, std::span<const EagerTensor>) {
  return {0, DType::F32};
}

runtime_internal::FamilyInfo test_info() {
  runtime_internal::FamilyInfo info;
  info.family = "tenferro.test.registration.v1";
  info.ops = {"a", "b"};
  info.key_of = &some_key;
  return info;
}

TEST(RegistrationTable, ARowWithoutAKernelCannotBeRegistered) {
  using runtime_internal::Registration;
  const auto f32 = runtime_internal::dtypes({DType::F32});
  auto build = [&](std::vector<Registration> rows) {
    try {
      const RegistrationTable table(test_info(), std::move(rows));
      return ErrorKind::Validation;  // built: no error (Validation is never thrown here)
    } catch (const Error& e) {
      return e.kind();
    }
  };
  EXPECT_EQ(build({{0, BackendKind::Cpu, f32, &some_kernel}}), ErrorKind::Validation);
  EXPECT_EQ(build({{0, BackendKind::Cpu, f32, nullptr}}), ErrorKind::RuntimeState);
  EXPECT_EQ(build({{2, BackendKind::Cpu, f32, &some_kernel}}), ErrorKind::RuntimeState);
  EXPECT_EQ(
      build({{1, BackendKind::Cpu, f32, &some_kernel}, {1, BackendKind::Cpu, f32, &some_kernel}}),
      ErrorKind::RuntimeState);
}

}  // namespace
}  // namespace tenferro
