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

#include "ops/einsum/registration.hpp"
#include "ops/fft/registration.hpp"
#include "ops/linalg/registration.hpp"
#include "support/registration_walk.hpp"
#include "support/test_device_backend.hpp"
#include "tenferro/config.hpp"
#include "tenferro/einsum.hpp"
#include "tenferro/runtime/runtime.hpp"

namespace tenferro {
namespace {

using runtime_internal::RegistrationTable;

using testing::families;
using testing::Family;

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
    const std::vector<std::string> failures = testing::walk_registration_tables(rt);
    for (const std::string& f : failures) ADD_FAILURE() << f;
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
