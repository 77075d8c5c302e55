// The FFT family on the dispatch contract: typed errors, the target-matching factory, the
// admission table, module installation, plan caching and kernel-launch accounting.
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "dft_reference.hpp"
#include "ops/fft/registration.hpp"
#include "support/test_device_backend.hpp"
#include "tenferro/config.hpp"
#include "tenferro/runtime/errors.hpp"

namespace {

using namespace fft_test;
using tenferro::BackendKind;
using tenferro::EagerExtensionTarget;
using tenferro::EagerRuntime;
using tenferro::EngineId;
using tenferro::ErrorKind;

void expect_error(ErrorKind kind, const std::function<void()>& call, const std::string& what) {
  try {
    call();
    ADD_FAILURE() << what << ": no error";
  } catch (const tenferro::Error& e) {
    EXPECT_EQ(e.kind(), kind) << what << ": " << e.what();
  }
}

TEST(FftDispatch, DeviceTargetsGetTheirOwnModuleOrUnsupportedBeforeExecution) {
  const EagerExtensionTarget cuda{EngineId("tenferro.cuda.d0.v1"), BackendKind::Cuda};
  const EagerExtensionTarget webgpu{EngineId("tenferro.webgpu.d0.v1"), BackendKind::WebGpu};
#if TENFERRO_HAS_CUDA
  // The CUDA arm: the cuFFT module for the CUDA target's own engine, never the CPU module.
  const auto cuda_module = tenferro::fft_internal::fft_module_for(cuda);
  ASSERT_NE(cuda_module, nullptr);
  EXPECT_EQ(cuda_module->id(), "tenferro.fft.v1/tenferro.cuda.d0.v1");
  EXPECT_NE(cuda_module->find(tenferro::fft_family::kFamily, cuda.engine_id), nullptr);
  const std::vector<EagerExtensionTarget> refused{webgpu};
#else
  const std::vector<EagerExtensionTarget> refused{cuda, webgpu};
#endif
  for (const auto& target : refused) {
    expect_error(
        ErrorKind::Unsupported, [&] { (void)tenferro::fft_internal::fft_module_for(target); },
        std::string(tenferro::backend_kind_name(target.backend_kind)));
  }
  for (const char* op : {"fft", "irfftn"}) {
    EXPECT_EQ(tenferro::fft_family::admission_table().admits(op, BackendKind::Cuda, DType::C64),
              TENFERRO_HAS_CUDA != 0);
    EXPECT_FALSE(
        tenferro::fft_family::admission_table().admits(op, BackendKind::WebGpu, DType::C32));
  }
}

TEST(FftDispatch, DeviceRuntimesGetTheirOwnTargetAndAnUnsupportedErrorBeforeAnythingRuns) {
  // (With CUDA compiled in, a Cuda-kind runtime gets the cuFFT module: tests/cuda covers it.)
  for (BackendKind kind : {BackendKind::Cuda, BackendKind::WebGpu}) {
    if (kind == BackendKind::Cuda && TENFERRO_HAS_CUDA) continue;
    auto rt = tenferro::testing::make_test_device_runtime(kind, "tenferro.testdevice.d0.v1");
    const auto x = rt->upload(random_tensor(DType::C32, Shape{8, 2}, 9));
    const auto cpu_launches = tenferro::process_cpu_kernel_launches();
    try {
      (void)tenferro::fft::fft(x);
      ADD_FAILURE() << "fft ran on a " << tenferro::backend_kind_name(kind) << " runtime";
    } catch (const tenferro::Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::Unsupported) << e.what();
      // The factory saw the runtime's own engine, not the CPU's.
      EXPECT_NE(std::string(e.what()).find("tenferro.testdevice.d0.v1"), std::string::npos)
          << e.what();
    }
    EXPECT_EQ(tenferro::process_cpu_kernel_launches(), cpu_launches);  // no CPU fallback
    EXPECT_EQ(rt->stats().module_installs, 0u);
    EXPECT_EQ(rt->stats().kernel_launches_for(std::string("tenferro.fft.v1@") +
                                              std::string(tenferro::backend_kind_name(kind))),
              0u);
  }
}

TEST(FftDispatch, EmptyHandleIsAContextMismatch) {
  // The family is unary, so two runtimes can never meet in one call; an input bound to no
  // runtime is the mismatch the contract reports for it.
  expect_error(
      ErrorKind::ContextMismatch, [] { (void)tenferro::fft::fft(tenferro::EagerTensor{}); },
      "fft of an empty handle");
  expect_error(
      ErrorKind::ContextMismatch, [] { (void)tenferro::fft::irfftn(tenferro::EagerTensor{}); },
      "irfftn of an empty handle");
}

#if TENFERRO_HAS_FFTW

TEST(FftDispatch, CpuTargetGetsTheFftwModuleRegisteredForItsOwnEngine) {
  const EagerExtensionTarget a{EngineId("tenferro.cpu.v1"), BackendKind::Cpu};
  const EagerExtensionTarget b{EngineId("tenferro.cpuother.v1"), BackendKind::Cpu};
  const auto ma = tenferro::fft_internal::fft_module_for(a);
  const auto mb = tenferro::fft_internal::fft_module_for(b);
  ASSERT_NE(ma, nullptr);
  ASSERT_NE(mb, nullptr);
  EXPECT_NE(ma, mb);  // two engines never share a module
  EXPECT_NE(ma->find(tenferro::fft_family::kFamily, a.engine_id), nullptr);
  EXPECT_EQ(ma->find(tenferro::fft_family::kFamily, b.engine_id), nullptr);
  EXPECT_NE(mb->find(tenferro::fft_family::kFamily, b.engine_id), nullptr);
  EXPECT_EQ(tenferro::fft_internal::fft_module_for(a), ma);  // cached per target
}

TEST(FftDispatch, AdmissionTableAdmitsEveryCpuInputDtypeExceptComplexForRfft) {
  const auto& t = tenferro::fft_family::admission_table();
  for (DType d : {DType::F32, DType::F64, DType::C32, DType::C64}) {
    for (const char* op : {"fft", "ifft", "irfft", "fftn", "ifftn", "irfftn"}) {
      EXPECT_TRUE(t.admits(op, BackendKind::Cpu, d)) << op;
    }
    EXPECT_EQ(t.admits("rfft", BackendKind::Cpu, d), !tenferro::is_complex(d));
    EXPECT_EQ(t.admits("rfftn", BackendKind::Cpu, d), !tenferro::is_complex(d));
  }
}

TEST(FftDispatch, ArgumentErrorsAreValidationErrorsAndRunNothing) {
  auto rt = EagerRuntime::cpu();
  const auto x = rt->upload(random_tensor(DType::F64, Shape{4, 3}, 1));
  const auto z = rt->upload(random_tensor(DType::C64, Shape{4, 3}, 2));
  const auto one = rt->upload(random_tensor(DType::C64, Shape{1, 3}, 3));
  const auto empty_axis = rt->upload(tenferro::Tensor::zeros(DType::C64, Shape{0, 3}));
  using V = std::vector<std::int64_t>;
  namespace f = tenferro::fft;
  const auto launches = rt->stats().kernel_launches_for("tenferro.fft.v1@cpu");
  const auto cpu_launches = tenferro::process_cpu_kernel_launches();
  const std::vector<std::pair<std::string, std::function<void()>>> calls = {
      {"n = 0", [&] { (void)f::fft(x, 0); }},
      {"n = -1", [&] { (void)f::ifft(x, -1); }},
      {"rfft n = 0", [&] { (void)f::rfft(x, 0); }},
      {"axis 2 of rank 2", [&] { (void)f::fft(x, std::nullopt, 2); }},
      {"axis -3 of rank 2", [&] { (void)f::irfft(z, std::nullopt, -3); }},
      {"rfft of complex", [&] { (void)f::rfft(z); }},
      {"rfftn of complex", [&] { (void)f::rfftn(z); }},
      {"irfft of 1 bin (n = 0)", [&] { (void)f::irfft(one, std::nullopt, 0); }},
      {"fft of an empty axis", [&] { (void)f::fft(empty_axis, std::nullopt, 0); }},
      {"repeated axes",
       [&] {
         (void)f::fftn(x, std::nullopt, V{0, 0});
       }},
      {"repeated axes (negative)",
       [&] {
         (void)f::fftn(x, std::nullopt, V{1, -1});
       }},
      {"s/axes length mismatch",
       [&] {
         (void)f::fftn(x, V{4, 3}, V{0});
       }},
      {"s longer than rank",
       [&] {
         (void)f::ifftn(x, V{4, 3, 2});
       }},
      {"s entry 0",
       [&] {
         (void)f::rfftn(x, V{4, 0});
       }},
      {"empty axes", [&] { (void)f::fftn(x, std::nullopt, V{}); }},
      {"axes out of range",
       [&] {
         (void)f::irfftn(z, std::nullopt, V{0, 5});
       }},
  };
  for (const auto& [what, call] : calls) expect_error(ErrorKind::Validation, call, what);
  EXPECT_EQ(rt->stats().kernel_launches_for("tenferro.fft.v1@cpu"), launches);
  EXPECT_EQ(tenferro::process_cpu_kernel_launches(), cpu_launches);
}

// The FFT family's two per-runtime caches: FFTW plans and resolved argument specs.
tenferro::CacheStats fft_cache(const std::shared_ptr<EagerRuntime>& rt, const char* name) {
  return rt->caches().stats({std::string(tenferro::fft_family::kFamily), name});
}

TEST(FftDispatch, RepeatedCallsInstallTheModuleOnceAndHitThePlanCache) {
  auto rt = EagerRuntime::cpu();
  const auto x = rt->upload(random_tensor(DType::C64, Shape{64, 4}, 5));
  (void)tenferro::fft::fft(x, std::nullopt, 0);
  const auto first = rt->stats();
  const tenferro::CacheStats first_plans = fft_cache(rt, "fftw_plan");
  EXPECT_EQ(first.module_installs, 1u);
  EXPECT_EQ(first_plans.misses, 1u);            // one plan made
  EXPECT_EQ(fft_cache(rt, "spec").misses, 1u);  // one argument resolution
  EXPECT_EQ(first.kernel_launches_for("tenferro.fft.v1@cpu"), 1u);
  for (int i = 0; i < 5; ++i) (void)tenferro::fft::fft(x, std::nullopt, 0);
  const auto later = rt->stats();
  EXPECT_EQ(later.module_installs, 1u);
  EXPECT_EQ(later.epoch, first.epoch);
  EXPECT_GE(later.ensure_fast_path_hits, first.ensure_fast_path_hits + 5);
  EXPECT_EQ(fft_cache(rt, "fftw_plan").misses, first_plans.misses);  // no new plan
  EXPECT_EQ(fft_cache(rt, "fftw_plan").hits, first_plans.hits + 5);
  EXPECT_EQ(fft_cache(rt, "spec").hits, 5u) << "a warm call resolves nothing";
  EXPECT_EQ(fft_cache(rt, "spec").entries, 1u);
  EXPECT_EQ(later.kernel_launches_for("tenferro.fft.v1@cpu"), 6u);
  // Another direction is another plan, and another spec.
  (void)tenferro::fft::ifft(x, std::nullopt, 0);
  EXPECT_EQ(fft_cache(rt, "fftw_plan").misses, first_plans.misses + 1);
  EXPECT_EQ(fft_cache(rt, "spec").misses, 2u);
  // The same request on another shape resolves again (the spec is for one shape).
  (void)tenferro::fft::fft(rt->upload(random_tensor(DType::C64, Shape{64, 5}, 5)), std::nullopt, 0);
  EXPECT_EQ(fft_cache(rt, "spec").misses, 3u);
  // Plans live in the runtime: a second runtime plans again.
  auto rt2 = EagerRuntime::cpu();
  (void)tenferro::fft::fft(rt2->upload(random_tensor(DType::C64, Shape{64, 4}, 5)), std::nullopt,
                           0);
  EXPECT_EQ(fft_cache(rt2, "fftw_plan").misses, 1u);
  EXPECT_EQ(fft_cache(rt2, "fftw_plan").hits, 0u);
}

TEST(FftDispatch, KernelLaunchesCountEveryFftwExecuteAndStagingCopy) {
  auto rt = EagerRuntime::cpu();
  const auto z = rt->upload(random_tensor(DType::C64, Shape{8, 3}, 6));
  const auto r = rt->upload(random_tensor(DType::F64, Shape{8, 3}, 7));
  auto delta = [](const std::function<void()>& call) {
    const auto before = tenferro::process_cpu_kernel_launches();
    call();
    return tenferro::process_cpu_kernel_launches() - before;
  };
  using V = std::vector<std::int64_t>;
  EXPECT_EQ(delta([&] { (void)tenferro::fft::fft(z, std::nullopt, 0); }), 1u);  // execute
  EXPECT_EQ(delta([&] { (void)tenferro::fft::fft(z, 16, 0); }), 2u);            // pad + execute
  EXPECT_EQ(delta([&] { (void)tenferro::fft::fft(r, std::nullopt, 0); }), 2u);  // promote + execute
  EXPECT_EQ(delta([&] { (void)tenferro::fft::rfft(r, std::nullopt, 0); }), 1u);   // execute
  EXPECT_EQ(delta([&] { (void)tenferro::fft::fftn(z); }), 1u);                    // one rank-2 plan
  EXPECT_EQ(delta([&] { (void)tenferro::fft::irfft(z, std::nullopt, 0); }), 2u);  // stage + c2r
  EXPECT_EQ(delta([&] { (void)tenferro::fft::irfftn(z, std::nullopt, V{1, 0}); }), 3u);  // + c2c
}

TEST(FftDispatch, ConcurrentCallsOnOneRuntimePlanSafely) {
  auto rt = EagerRuntime::cpu();
  std::vector<tenferro::Tensor> hosts;
  for (int i = 0; i < 4; ++i) hosts.push_back(random_tensor(DType::C64, Shape{5 + i, 3}, 10 + i));
  std::vector<std::thread> threads;
  std::vector<double> worst(4, 0.0);
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 10; ++i) {
        const auto& host = hosts[static_cast<std::size_t>((t + i) % 4)];
        const auto y = tenferro::fft::fft(rt->upload(host), std::nullopt, 0).download();
        const Dense want = dft_axis(to_dense(host), 0, host.shape()[0], false);
        const Dense got = to_dense(y);
        for (std::size_t k = 0; k < want.data.size(); ++k) {
          worst[static_cast<std::size_t>(t)] =
              std::max(worst[static_cast<std::size_t>(t)], std::abs(got.data[k] - want.data[k]));
        }
      }
    });
  }
  for (auto& th : threads) th.join();
  for (double w : worst) EXPECT_LE(w, 1e-12 * 8);
  EXPECT_EQ(rt->stats().module_installs, 1u);
  EXPECT_EQ(rt->stats().kernel_launches_for("tenferro.fft.v1@cpu"), 40u);
}

#else  // !TENFERRO_HAS_FFTW

TEST(FftDispatch, WithoutFftwEveryCallIsUnsupportedBeforeExecution) {
  auto rt = EagerRuntime::cpu();
  const auto x = rt->upload(random_tensor(DType::C64, Shape{8, 2}, 1));
  const auto r = rt->upload(random_tensor(DType::F64, Shape{8, 2}, 2));
  const auto cpu_launches = tenferro::process_cpu_kernel_launches();
  namespace f = tenferro::fft;
  expect_error(
      ErrorKind::Unsupported, [&] { (void)f::fft(x); }, "fft");
  expect_error(
      ErrorKind::Unsupported, [&] { (void)f::ifft(x); }, "ifft");
  expect_error(
      ErrorKind::Unsupported, [&] { (void)f::rfft(r); }, "rfft");
  expect_error(
      ErrorKind::Unsupported, [&] { (void)f::irfft(x); }, "irfft");
  expect_error(
      ErrorKind::Unsupported, [&] { (void)f::fftn(x); }, "fftn");
  expect_error(
      ErrorKind::Unsupported, [&] { (void)f::ifftn(x); }, "ifftn");
  expect_error(
      ErrorKind::Unsupported, [&] { (void)f::rfftn(r); }, "rfftn");
  expect_error(
      ErrorKind::Unsupported, [&] { (void)f::irfftn(x); }, "irfftn");
  EXPECT_EQ(tenferro::process_cpu_kernel_launches(), cpu_launches);
  EXPECT_EQ(rt->stats().kernel_launches_for("tenferro.fft.v1@cpu"), 0u);
  EXPECT_FALSE(tenferro::fft_family::admission_table().admits("fft", BackendKind::Cpu, DType::C64));
}

#endif  // TENFERRO_HAS_FFTW

}  // namespace
