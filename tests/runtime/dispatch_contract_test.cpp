// The dispatch contract of DESIGN §2, proven with a test-only family and a device-like test
// backend: each step's error comes before the next step runs, and modules follow the target.
#include <gtest/gtest.h>

#include "backends/cpu/cpu_backend.hpp"
#include "runtime/extension_snapshot.hpp"
#include "support/test_device_backend.hpp"
#include "support/test_family.hpp"
#include "tenferro/tenferro.hpp"

namespace tenferro {
namespace {

using testing::counters;
using testing::ScaleOp;

class DispatchContract : public ::testing::Test {
 protected:
  void SetUp() override { counters().reset(); }
  static EagerTensor vec(const std::shared_ptr<EagerRuntime>& rt, std::vector<double> v) {
    return rt->upload(Tensor::from_col_major<double>({static_cast<std::int64_t>(v.size())}, v));
  }
};

TEST_F(DispatchContract, CpuRuntimeRunsTheCpuModule) {
  auto rt = EagerRuntime::cpu();
  EagerTensor x = vec(rt, {1, 2, 3});
  auto out = apply_eager_with_targeted_extension_session(ScaleOp(), std::span(&x, 1),
                                                         testing::target_factory);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].runtime(), rt);
  EXPECT_EQ(out[0].placement(), rt->backend().placement());
  EXPECT_EQ(out[0].download().to_vector<double>(), (std::vector<double>{2, 4, 6}));
  EXPECT_EQ(counters().cpu_kernel_runs, 1u);
  EXPECT_EQ(counters().device_kernel_runs, 0u);
  EXPECT_EQ(rt->stats().kernel_launches_for("tenferro.test.scale.v1@cpu"), 1u);
}

TEST_F(DispatchContract, FactoryReceivesExactlyTheRuntimeTarget) {
  std::vector<EagerExtensionTarget> seen;
  auto recording = [&](const EagerExtensionTarget& t) {
    seen.push_back(t);
    return testing::target_factory(t);
  };
  auto cpu = EagerRuntime::cpu();
  auto dev = testing::make_test_device_runtime();
  EagerTensor x = vec(cpu, {1});
  EagerTensor y = vec(dev, {1});
  apply_eager_with_targeted_extension_session(ScaleOp(), std::span(&x, 1), recording);
  apply_eager_with_targeted_extension_session(ScaleOp(), std::span(&y, 1), recording);
  ASSERT_EQ(seen.size(), 2u);
  EXPECT_EQ(seen[0], (EagerExtensionTarget{EngineId("tenferro.cpu.v1"), BackendKind::Cpu}));
  EXPECT_EQ(seen[1],
            (EagerExtensionTarget{EngineId("tenferro.testdevice.d0.v1"), BackendKind::Cuda}));
  EXPECT_EQ(seen[0], cpu->extension_target());
  EXPECT_EQ(seen[1], dev->extension_target());
}

TEST_F(DispatchContract, DeviceRuntimeRunsTheDeviceModuleAndKeepsResidency) {
  auto dev = testing::make_test_device_runtime();
  EagerTensor x = vec(dev, {1, 2});
  const auto cpu_kernels = process_cpu_kernel_launches();
  const auto before = dev->stats();
  auto out = apply_eager_with_targeted_extension_session(ScaleOp(), std::span(&x, 1),
                                                         testing::target_factory);
  const auto after = dev->stats();
  EXPECT_EQ(process_cpu_kernel_launches(), cpu_kernels);
  EXPECT_EQ(counters().device_kernel_runs, 1u);
  EXPECT_EQ(counters().cpu_kernel_runs, 0u);
  EXPECT_EQ(after.uploads, before.uploads);  // no transfer inside the eager call
  EXPECT_EQ(after.downloads, before.downloads);
  EXPECT_EQ(out[0].placement().memory, MemoryKind::Device);
  EXPECT_EQ(out[0].placement(), dev->backend().placement());
  // The host cannot touch device memory; the explicit download works.
  try {
    (void)out[0].host_view();
    FAIL() << "host_view of a device value must throw";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::HostAccess);
    EXPECT_NE(std::string(e.what()).find("download()"), std::string::npos);
  }
  EXPECT_EQ(out[0].download().to_vector<double>(), (std::vector<double>{2, 4}));
}

TEST_F(DispatchContract, MixedRuntimesFailBeforeTheFactoryAndBeforeAnyInstall) {
  auto a = EagerRuntime::cpu();
  auto b = EagerRuntime::cpu();
  EagerTensor in[] = {vec(a, {1}), vec(b, {1})};
  try {
    apply_eager_with_targeted_extension_session(ScaleOp(2), in, testing::target_factory);
    FAIL() << "expected ContextMismatch";
  } catch (const ContextMismatchError& e) {
    EXPECT_EQ(e.kind(), ErrorKind::ContextMismatch);
    EXPECT_EQ(e.argument_index(), 1u);
    EXPECT_EQ(e.expected_runtime(), a->id());
    EXPECT_EQ(e.actual_runtime(), b->id());
    EXPECT_EQ(e.op(), "test.scale");
  }
  EXPECT_EQ(counters().factory_calls, 0u);
  EXPECT_EQ(a->stats().epoch, 0u);
  EXPECT_EQ(b->stats().epoch, 0u);
  EXPECT_EQ(a->stats().module_installs, 0u);
}

TEST_F(DispatchContract, CpuAndDeviceOperandsMixedFailWithContextMismatch) {
  auto cpu = EagerRuntime::cpu();
  auto dev = testing::make_test_device_runtime();
  EagerTensor in[] = {vec(dev, {1}), vec(cpu, {1})};
  EXPECT_THROW(apply_eager_with_targeted_extension_session(ScaleOp(2), in, testing::target_factory),
               ContextMismatchError);
  EXPECT_EQ(counters().factory_calls, 0u);
}

TEST_F(DispatchContract, ArityMismatchAndEmptyInputsAreRejectedFirst) {
  auto rt = EagerRuntime::cpu();
  EagerTensor x = vec(rt, {1});
  EXPECT_THROW(apply_eager_with_targeted_extension_session(ScaleOp(2), std::span(&x, 1),
                                                           testing::target_factory),
               Error);
  EXPECT_THROW(apply_eager_with_targeted_extension_session(
                   ScaleOp(1), std::span<const EagerTensor>(), testing::target_factory),
               Error);
  EagerTensor empty;
  EXPECT_THROW(apply_eager_with_targeted_extension_session(ScaleOp(1), std::span(&empty, 1),
                                                           testing::target_factory),
               ContextMismatchError);
  EXPECT_EQ(counters().factory_calls, 0u);
}

TEST_F(DispatchContract, MissingEngineIsReportedBeforeIngressAndFactory) {
  auto rt = testing::make_test_device_runtime(BackendKind::Cuda, nullptr);
  EagerTensor x = vec(rt, {1});
  try {
    apply_eager_with_targeted_extension_session(ScaleOp(), std::span(&x, 1),
                                                testing::target_factory);
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::MissingEngine);
    EXPECT_EQ(e.phase(), ErrorPhase::Target);
  }
  EXPECT_EQ(counters().factory_calls, 0u);
  EXPECT_THROW(rt->extension_target(), Error);
}

TEST_F(DispatchContract, HostValueInADeviceRuntimeHasNoIngress) {
  auto dev = testing::make_test_device_runtime();
  // A host buffer wrapped as a value of the device runtime: same runtime, wrong memory.
  auto host_buffer = std::make_shared<CpuBuffer>(
      Placement{MemoryKind::Host, BackendKind::Cpu, 0, 12345}, std::make_shared<HostStorage>(8));
  EagerTensor host_value(dev, host_buffer, TensorLayout{DType::F64, {1}, {1}, 0});
  EagerTensor in[] = {vec(dev, {1}), host_value};
  try {
    apply_eager_with_targeted_extension_session(ScaleOp(2), in, testing::target_factory);
    FAIL();
  } catch (const NoInputIngressError& e) {
    EXPECT_EQ(e.kind(), ErrorKind::NoInputIngress);
    EXPECT_EQ(e.input_index(), 1u);
    EXPECT_EQ(e.placement().memory, MemoryKind::Host);
    EXPECT_NE(std::string(e.what()).find("input 1"), std::string::npos);
  }
  EXPECT_EQ(counters().factory_calls, 0u);
  EXPECT_EQ(dev->stats().epoch, 0u);
}

TEST_F(DispatchContract, AnotherDeviceRuntimesBufferHasNoIngress) {
  auto dev = testing::make_test_device_runtime();
  auto other = testing::make_test_device_runtime();
  EagerTensor foreign = vec(other, {1});
  // Re-bind the other runtime's buffer to `dev`: its allocation domain is not dev's.
  EagerTensor smuggled(dev, foreign.buffer(), foreign.layout());
  try {
    apply_eager_with_targeted_extension_session(ScaleOp(), std::span(&smuggled, 1),
                                                testing::target_factory);
    FAIL();
  } catch (const NoInputIngressError& e) {
    EXPECT_EQ(e.input_index(), 0u);
    EXPECT_EQ(e.placement().allocation_domain, other->backend().placement().allocation_domain);
  }
  EXPECT_EQ(counters().factory_calls, 0u);
  // An explicit download refuses it too: it would read another runtime's memory through dev's
  // backend (a WebGPU buffer smuggled into a CPU runtime was a segfault).
  try {
    (void)smuggled.download();
    FAIL() << "downloaded another runtime's buffer";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::NoInputIngress) << e.what();
  }
  EXPECT_EQ(dev->stats().downloads, 0u);
}

// Downloads count the bytes read from the backend: a strided view's whole span, a broadcast
// view's one stored element (they counted the view's logical size).
TEST_F(DispatchContract, DownloadsCountTheBytesRead) {
  auto rt = EagerRuntime::cpu();
  const EagerTensor x = rt->upload(Tensor::zeros(DType::F64, {16}));
  const auto read = [&](TensorLayout layout) {
    const std::uint64_t before = rt->stats().download_bytes;
    (void)EagerTensor(rt, x.buffer(), std::move(layout)).download();
    return rt->stats().download_bytes - before;
  };
  EXPECT_EQ(read(TensorLayout{DType::F64, {2}, {15}, 0}), 16u * 8u);  // x[::15]: the span
  EXPECT_EQ(read(TensorLayout{DType::F64, {1000}, {0}, 3}), 8u);      // one element, broadcast
  EXPECT_EQ(read(TensorLayout{DType::F64, {4}, {1}, 2}), 4u * 8u);    // compact: its size
}

TEST_F(DispatchContract, FactoryErrorsReachTheCallerUnchangedColdAndWarm) {
  auto rt = EagerRuntime::cpu();
  EagerTensor x = vec(rt, {1});
  struct FactoryFailure : std::runtime_error {
    using std::runtime_error::runtime_error;
  };
  auto failing_plain = [](const EagerExtensionTarget&) -> ModulePtr {
    throw FactoryFailure("plain failure");
  };
  auto failing_typed = [](const EagerExtensionTarget& t) -> ModulePtr {
    throw_unsupported_target(testing::kTestFamily, t, "typed failure");
  };
  // Cold path (nothing installed yet).
  EXPECT_THROW(
      apply_eager_with_targeted_extension_session(ScaleOp(), std::span(&x, 1), failing_plain),
      FactoryFailure);
  try {
    apply_eager_with_targeted_extension_session(ScaleOp(), std::span(&x, 1), failing_typed);
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Unsupported);
    EXPECT_NE(std::string(e.what()).find("typed failure"), std::string::npos);
  }
  EXPECT_EQ(rt->stats().epoch, 0u);
  // Warm path (the module is installed); the factory still runs first and its error wins.
  apply_eager_with_targeted_extension_session(ScaleOp(), std::span(&x, 1), testing::target_factory);
  const auto epoch = rt->stats().epoch;
  try {
    apply_eager_with_targeted_extension_session(ScaleOp(), std::span(&x, 1), failing_plain);
    FAIL();
  } catch (const FactoryFailure& e) {
    EXPECT_STREQ(e.what(), "plain failure");
  }
  EXPECT_EQ(rt->stats().epoch, epoch);
}

TEST_F(DispatchContract, RepeatedCallsWithFreshModulesInstallOnce) {
  auto rt = EagerRuntime::cpu();
  EagerTensor x = vec(rt, {1, 2});
  apply_eager_with_targeted_extension_session(ScaleOp(), std::span(&x, 1), testing::target_factory);
  const RuntimeStats first = rt->stats();
  const ExtensionSnapshot* snapshot = rt->snapshot();
  EXPECT_EQ(first.epoch, 1u);
  EXPECT_EQ(first.module_installs, 1u);
  for (int i = 0; i < 50; ++i) {
    // target_factory builds a fresh module object every call; it must be ignored.
    apply_eager_with_targeted_extension_session(ScaleOp(), std::span(&x, 1),
                                                testing::target_factory);
  }
  const RuntimeStats later = rt->stats();
  EXPECT_EQ(later.epoch, 1u);
  EXPECT_EQ(later.module_installs, 1u);
  EXPECT_EQ(later.ensure_fast_path_hits, first.ensure_fast_path_hits + 50);
  EXPECT_EQ(rt->snapshot(), snapshot);
  EXPECT_EQ(counters().factory_calls, 51u);
  EXPECT_EQ(counters().cpu_kernel_runs, 51u);
}

TEST_F(DispatchContract, ModuleWithoutTheEngineIsMissingExtensionEngineAndLeavesSnapshot) {
  auto rt = EagerRuntime::cpu();
  EagerTensor x = vec(rt, {1});
  apply_eager_with_targeted_extension_session(ScaleOp(), std::span(&x, 1), testing::target_factory);
  const ExtensionSnapshot* before = rt->snapshot();
  auto wrong_engine = [](const EagerExtensionTarget&) {
    return testing::make_forbidden_module(EngineId("tenferro.other.v1"));
  };
  try {
    apply_eager_with_targeted_extension_session(ScaleOp(), std::span(&x, 1), wrong_engine);
    FAIL();
  } catch (const MissingExtensionEngineError& e) {
    EXPECT_EQ(e.kind(), ErrorKind::MissingExtensionEngine);
    EXPECT_EQ(e.module(), "tenferro.test.forbidden");
    EXPECT_EQ(e.family(), "tenferro.test.scale.v1");
    EXPECT_EQ(e.engine(), "tenferro.cpu.v1");
  }
  EXPECT_EQ(rt->snapshot(), before);
  EXPECT_EQ(rt->stats().epoch, 1u);
}

TEST_F(DispatchContract, UnsupportedTargetFailsBeforeExecutionWithNothingRun) {
  // The test device claims WebGpu, for which the test family has no executor.
  auto dev = testing::make_test_device_runtime(BackendKind::WebGpu, "tenferro.testdevice.d0.v1");
  EagerTensor x = vec(dev, {1});
  const auto cpu_kernels = process_cpu_kernel_launches();
  auto guarded = [](const EagerExtensionTarget& t) -> ModulePtr {
    if (t.backend_kind == BackendKind::WebGpu) {
      throw_unsupported_target(testing::kTestFamily, t, "no WebGPU executor");
    }
    return testing::make_forbidden_module(t.engine_id);
  };
  try {
    apply_eager_with_targeted_extension_session(ScaleOp(), std::span(&x, 1), guarded);
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Unsupported);
    EXPECT_EQ(e.phase(), ErrorPhase::Module);
  }
  EXPECT_EQ(process_cpu_kernel_launches(), cpu_kernels);
  EXPECT_EQ(counters().cpu_kernel_runs + counters().device_kernel_runs, 0u);
  EXPECT_EQ(dev->stats().epoch, 0u);
}

// The regression the specification was written for: a factory that ignores the target and
// hands out the CPU module must never run on a device runtime.
TEST_F(DispatchContract, CpuHardcodedFactoryNeverRunsOnADeviceRuntime) {
  auto dev = testing::make_test_device_runtime();
  EagerTensor x = vec(dev, {1});
  const auto cpu_kernels = process_cpu_kernel_launches();
  EXPECT_THROW(apply_eager_with_targeted_extension_session(ScaleOp(), std::span(&x, 1),
                                                           testing::cpu_hardcoded_factory),
               MissingExtensionEngineError);
  EXPECT_EQ(counters().cpu_kernel_runs, 0u);
  EXPECT_EQ(process_cpu_kernel_launches(), cpu_kernels);
  // The target-based factory runs the device executor on the same runtime.
  auto out = apply_eager_with_targeted_extension_session(ScaleOp(), std::span(&x, 1),
                                                         testing::target_factory);
  EXPECT_EQ(counters().device_kernel_runs, 1u);
  EXPECT_EQ(out[0].placement().memory, MemoryKind::Device);
}

TEST_F(DispatchContract, ModuleCacheNeverSharesAModuleAcrossEngines) {
  auto d0 = testing::make_test_device_runtime(BackendKind::Cuda, "tenferro.testdevice.d0.v1");
  auto d1 = testing::make_test_device_runtime(BackendKind::Cuda, "tenferro.testdevice.d1.v1");
  const ModulePtr m0 = testing::cached_target_factory(d0->extension_target());
  const ModulePtr m1 = testing::cached_target_factory(d1->extension_target());
  EXPECT_NE(m0.get(), m1.get());
  EXPECT_NE(m0->find(testing::kTestFamily, d0->engine_id()), nullptr);
  EXPECT_EQ(m0->find(testing::kTestFamily, d1->engine_id()), nullptr);
  EXPECT_NE(m1->find(testing::kTestFamily, d1->engine_id()), nullptr);
  EXPECT_EQ(testing::cached_target_factory(d0->extension_target()).get(), m0.get());
  // Both runtimes run on their own engine through the cached factory.
  EagerTensor x0 = vec(d0, {1});
  EagerTensor x1 = vec(d1, {3});
  EXPECT_EQ(apply_eager_with_targeted_extension_session(ScaleOp(), std::span(&x0, 1),
                                                        testing::cached_target_factory)[0]
                .download()
                .to_vector<double>()[0],
            2.0);
  EXPECT_EQ(apply_eager_with_targeted_extension_session(ScaleOp(), std::span(&x1, 1),
                                                        testing::cached_target_factory)[0]
                .download()
                .to_vector<double>()[0],
            6.0);
}

TEST_F(DispatchContract, InstallExtensionModuleReplacesByModuleId) {
  auto rt = EagerRuntime::cpu();
  rt->install_extension_module(testing::make_forbidden_module(rt->engine_id()));
  EXPECT_EQ(rt->stats().epoch, 1u);
  EagerTensor x = vec(rt, {1});
  // The forbidden module is installed but under another module id: the scale module installs.
  auto out = apply_eager_with_targeted_extension_session(ScaleOp(), std::span(&x, 1),
                                                         testing::target_factory);
  EXPECT_EQ(rt->stats().epoch, 2u);
  rt->install_extension_module(testing::make_cpu_scale_module(rt->engine_id()));
  EXPECT_EQ(rt->stats().epoch, 3u);
  EXPECT_EQ(rt->snapshot()->entries().size(), 2u);  // forbidden + (replaced) scale
}

}  // namespace
}  // namespace tenferro
