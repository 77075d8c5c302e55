// Dispatch: linalg calls go through the targeted extension session (one install per runtime
// over repeated calls, one executor launch per call, workspaces in the runtime's cache), mixed
// runtimes fail with ContextMismatch before anything runs, and the factory refuses targets
// without an implementation with a typed Unsupported error.
#include "linalg_test_util.hpp"
#include "ops/linalg/registration.hpp"
#include "runtime/dispatch_internal.hpp"
#include "tenferro/config.hpp"

namespace {

using namespace linalg_test;
namespace la = tenferro::linalg;
using tenferro::BackendKind;
using tenferro::EagerExtensionTarget;
using tenferro::EngineId;

const std::string kLaunchKey = "tenferro.linalg.v1@cpu";

TEST(LinalgDispatch, InstallsOnceOverRepeatedCalls) {
  auto rt = tenferro::EagerRuntime::cpu();
  const EagerTensor a = rt->upload(random_tensor(DType::F64, {8, 8, 2}, 1));
  const auto before = rt->stats();
  la::qr(a);
  const auto first = rt->stats();
  EXPECT_EQ(first.module_installs, before.module_installs + 1);
  EXPECT_EQ(first.epoch, before.epoch + 1);
  for (int i = 0; i < 10; ++i) {
    la::qr(a);
    la::svd(a);
    la::eigh(a);
    la::det(a);
  }
  const auto after = rt->stats();
  EXPECT_EQ(after.module_installs, first.module_installs) << "one install for the whole family";
  EXPECT_EQ(after.epoch, first.epoch);
  EXPECT_GE(after.ensure_fast_path_hits, first.ensure_fast_path_hits + 40);
  EXPECT_EQ(after.kernel_launches_for(kLaunchKey), first.kernel_launches_for(kLaunchKey) + 40);
}

TEST(LinalgDispatch, WorkspacesLiveInTheRuntimeCache) {
  auto rt = tenferro::EagerRuntime::cpu();
  const EagerTensor a = rt->upload(random_tensor(DType::C64, {6, 4, 3}, 2));
  const tenferro::CacheSelector linalg{std::string(tenferro::linalg_family::kFamily), "workspace"};
  la::svd(a);
  const auto first = rt->caches().stats(linalg);
  EXPECT_EQ(first.entries, 1u);
  EXPECT_EQ(first.misses, 1u);
  la::svd(a);
  la::svd(a);
  const auto again = rt->caches().stats(linalg);
  EXPECT_EQ(again.entries, 1u) << "one workspace per shape";
  EXPECT_EQ(again.hits, first.hits + 2);
  la::svd(rt->upload(random_tensor(DType::C64, {5, 4, 3}, 3)));
  EXPECT_EQ(rt->caches().stats(linalg).entries, 2u) << "a new shape queries once more";
  auto other = tenferro::EagerRuntime::cpu();
  EXPECT_EQ(other->caches().stats(linalg).entries, 0u) << "caches are per runtime";
}

TEST(LinalgDispatch, MixedRuntimesAreContextMismatch) {
  auto rt1 = tenferro::EagerRuntime::cpu();
  auto rt2 = tenferro::EagerRuntime::cpu();
  const EagerTensor a = rt1->upload(random_tensor(DType::F64, {3, 3}, 1));
  const EagerTensor b = rt2->upload(random_tensor(DType::F64, {3, 2}, 2));
  const auto launches = tenferro::process_cpu_kernel_launches();
  for (auto call : {std::function<void()>([&] { la::solve(a, b); }),
                    std::function<void()>([&] { la::triangular_solve(a, b); }),
                    std::function<void()>([&] { la::lstsq(a, b); })}) {
    const tenferro::Error e = expect_error(call, tenferro::ErrorKind::ContextMismatch);
    EXPECT_EQ(e.phase(), tenferro::ErrorPhase::Input);
  }
  // Even with mismatched shapes the runtime check comes first.
  const EagerTensor bad_shape = rt2->upload(random_tensor(DType::F64, {7, 2}, 3));
  expect_error([&] { la::solve(a, bad_shape); }, tenferro::ErrorKind::ContextMismatch);
  EXPECT_EQ(rt1->stats().module_installs, 0u);
  EXPECT_EQ(rt2->stats().module_installs, 0u);
  EXPECT_EQ(tenferro::process_cpu_kernel_launches(), launches);
}

// An op built by hand, not by a public function (which validates and marks it), dispatched
// with a malformed input: the row kernel gives the public function's Validation error before
// any kernel runs, and a well-formed input still runs.
TEST(LinalgDispatch, AnUnvalidatedOpIsCheckedByTheRowKernel) {
  using tenferro::linalg_internal::LinalgKind;
  using tenferro::linalg_internal::LinalgOp;
  auto rt = tenferro::EagerRuntime::cpu();
  const EagerTensor vector = rt->upload(random_tensor(DType::F64, {4}, 1));
  const EagerTensor matrix = rt->upload(random_tensor(DType::F64, {4, 3}, 2));
  const auto run = [&](const EagerTensor& x) {
    const LinalgOp op(LinalgKind::Qr);
    EXPECT_FALSE(op.validated());
    const EagerTensor inputs[] = {x};
    return tenferro::runtime_internal::dispatch_table(
        rt, op, inputs, tenferro::linalg_internal::registration_table(),
        {static_cast<std::uint32_t>(LinalgKind::Qr), DType::F64});
  };
  const auto launches = tenferro::process_cpu_kernel_launches();
  const std::string public_message =
      expect_error([&] { la::qr(vector); }, tenferro::ErrorKind::Validation).what();
  const tenferro::Error e = expect_error([&] { run(vector); }, tenferro::ErrorKind::Validation);
  EXPECT_EQ(std::string(e.what()), public_message);
  EXPECT_EQ(tenferro::process_cpu_kernel_launches(), launches) << "refused before any kernel";
  const std::vector<EagerTensor> qr = run(matrix);
  ASSERT_EQ(qr.size(), 2u);
  EXPECT_EQ(qr[0].shape(), (tenferro::Shape{4, 3}));
  EXPECT_EQ(qr[1].shape(), (tenferro::Shape{3, 3}));
}

TEST(LinalgDispatch, FactoryMatchesTheTarget) {
  using tenferro::linalg_internal::linalg_module_for;
  const EagerExtensionTarget cpu{EngineId("tenferro.cpu.v1"), BackendKind::Cpu};
  const EagerExtensionTarget other_cpu{EngineId("tenferro.cpu.test.v1"), BackendKind::Cpu};
  const auto m1 = linalg_module_for(cpu);
  EXPECT_EQ(m1, linalg_module_for(cpu)) << "built once per (backend kind, engine)";
  const auto m2 = linalg_module_for(other_cpu);
  EXPECT_NE(m1, m2) << "two engines never share a module";
  EXPECT_NE(m1->find(tenferro::linalg_family::kFamily, cpu.engine_id), nullptr);
  EXPECT_EQ(m1->find(tenferro::linalg_family::kFamily, other_cpu.engine_id), nullptr);
  EXPECT_NE(m2->find(tenferro::linalg_family::kFamily, other_cpu.engine_id), nullptr);

  const EagerExtensionTarget cuda{EngineId("tenferro.cuda.d0.v1"), BackendKind::Cuda};
  const EagerExtensionTarget webgpu{EngineId("tenferro.webgpu.d0.v1"), BackendKind::WebGpu};
#if TENFERRO_HAS_CUDA
  // The CUDA arm: the CUDA target's own module, never the CPU one.
  const auto m3 = linalg_module_for(cuda);
  EXPECT_NE(m3, m1);
  EXPECT_NE(m3->find(tenferro::linalg_family::kFamily, cuda.engine_id), nullptr);
  EXPECT_EQ(m3->find(tenferro::linalg_family::kFamily, cpu.engine_id), nullptr);
  std::vector<EagerExtensionTarget> refused{webgpu};
#else
  std::vector<EagerExtensionTarget> refused{cuda, webgpu};
#endif
  for (const EagerExtensionTarget& t : refused) {
    const tenferro::Error e =
        expect_error([&] { linalg_module_for(t); }, tenferro::ErrorKind::Unsupported);
    EXPECT_NE(std::string(e.what()).find("linalg"), std::string::npos) << e.what();
  }
}

TEST(LinalgDispatch, AdmissionTable) {
  const tenferro::AdmissionTable& t = tenferro::linalg_family::admission_table();
  EXPECT_EQ(t.family(), "tenferro.linalg.v1");
  EXPECT_EQ(t.ops().size(), 12u);
  for (const std::string& op : t.ops())
    for (DType d : tenferro::kAllDTypes) {
      EXPECT_TRUE(t.admits(op, BackendKind::Cpu, d)) << op;
      EXPECT_FALSE(t.admits(op, BackendKind::WebGpu, d)) << op;
      // What ops/linalg/cuda implements.
      const bool cuda_op = op != "eig";
      EXPECT_EQ(t.admits(op, BackendKind::Cuda, d), TENFERRO_HAS_CUDA && cuda_op) << op;
    }
}

TEST(LinalgDispatch, OutputsStayInTheRuntime) {
  auto rt = tenferro::EagerRuntime::cpu();
  const EagerTensor a = rt->upload(random_tensor(DType::F32, {4, 4}, 1));
  const auto before = rt->stats();
  const la::SvdResult r = la::svd(a);
  for (const EagerTensor* t : {&r.u, &r.s, &r.vh, &r.discarded_weight}) {
    EXPECT_EQ(t->runtime(), rt);
    EXPECT_EQ(t->placement(), rt->backend().placement());
  }
  EXPECT_EQ(rt->stats().uploads, before.uploads) << "no transfer";
  EXPECT_EQ(rt->stats().downloads, before.downloads) << "no transfer";
}

}  // namespace
