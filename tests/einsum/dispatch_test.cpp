// Einsum's place in the dispatch contract: the direct binary-dot path, the N-ary path through
// apply_eager_with_targeted_extension_session, the plan cache, module installs, the factory's
// target switch, the admission table and the typed errors.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <thread>

#include "backends/cpu/cpu_backend.hpp"
#include "ops/einsum/registration.hpp"
#include "support/einsum_reference.hpp"
#include "support/random_einsum.hpp"
#include "tenferro/config.hpp"
#include "tenferro/core/npy.hpp"
#include "tenferro/einsum.hpp"
#include "tenferro/runtime/errors.hpp"
#include "tenferro/runtime/runtime.hpp"

namespace tenferro {
namespace {

using testing::random_tensor;

std::vector<EagerTensor> operands(const std::shared_ptr<EagerRuntime>& rt, DType dtype,
                                  const std::vector<Shape>& shapes, std::uint64_t seed = 1) {
  std::mt19937_64 rng(seed);
  std::vector<EagerTensor> out;
  for (const auto& s : shapes) out.push_back(rt->upload(random_tensor(rng, dtype, s)));
  return out;
}

std::uint64_t einsum_launches(const std::shared_ptr<EagerRuntime>& rt) {
  return rt->stats().kernel_launches_for(std::string(einsum_family::kFamily) + "@" +
                                         std::string(backend_kind_name(rt->backend_kind())));
}

CacheStats plan_cache(const std::shared_ptr<EagerRuntime>& rt) {
  return rt->caches().stats({std::string(einsum_family::kFamily), "plan"});
}

TEST(EinsumDirectPath, NaturalGemmOrderIsOneGemmWithoutModuleInstall) {
  auto rt = EagerRuntime::cpu();
  for (const char* subs : {"ij,jk->ik", "ij,jk", "ij,kj->ik", "ji,jk->ik", "ij,jk->ki"}) {
    const bool b_transposed = std::strcmp(subs, "ij,kj->ik") == 0;
    const bool a_transposed = std::strcmp(subs, "ji,jk->ik") == 0;
    const auto ops = operands(
        rt, DType::F64,
        {a_transposed ? Shape{4, 3} : Shape{3, 4}, b_transposed ? Shape{5, 4} : Shape{4, 5}});
    const auto before = process_cpu_kernel_launches();
    einsum(subs, ops);
    EXPECT_EQ(process_cpu_kernel_launches() - before, 1u) << subs << ": exactly one GEMM";
  }
  // Batched with column-major trailing batch, and a transposed view of a compact operand.
  const auto batched = operands(rt, DType::C32, {{3, 4, 2}, {4, 5, 2}});
  auto before = process_cpu_kernel_launches();
  einsum("ijb,jkb->ikb", batched);
  EXPECT_EQ(process_cpu_kernel_launches() - before, 1u) << "one batched GEMM launch";
  const auto plain = operands(rt, DType::F32, {{4, 3}, {4, 5}});
  const std::int64_t swap[] = {1, 0};
  const std::vector<EagerTensor> viewed{plain[0].permute(swap), plain[1]};
  before = process_cpu_kernel_launches();
  einsum("ij,jk->ik", viewed);
  EXPECT_EQ(process_cpu_kernel_launches() - before, 1u) << "a transposed view needs no copy";
  EXPECT_EQ(rt->stats().module_installs, 0u);
  EXPECT_EQ(einsum_launches(rt), 7u) << "one launch counted per call";
}

TEST(EinsumDirectPath, BatchFirstColumnMajorIsNotDirect) {
  auto rt = EagerRuntime::cpu();
  einsum("bij,bjk->bik", operands(rt, DType::F64, {{2, 3, 4}, {2, 4, 5}}));
  EXPECT_EQ(rt->stats().module_installs, 1u);
}

TEST(EinsumDirectPath, AgreesBitwiseWithTheNaryPath) {
  auto direct_rt = EagerRuntime::cpu();
  auto nary_rt = EagerRuntime::cpu();
  EinsumOptions no_direct;
  no_direct.allow_direct_binary = false;
  for (DType dtype : kAllDTypes) {
    const auto a = operands(direct_rt, dtype, {{6, 7}, {7, 5}}, 3);
    const auto b = operands(nary_rt, dtype, {{6, 7}, {7, 5}}, 3);
    const Tensor d = einsum("ij,jk->ik", a).download();
    const Tensor n = einsum("ij,jk->ik", b, no_direct).download();
    visit_dtype(dtype, [&](auto zero) {
      using T = decltype(zero);
      EXPECT_EQ(d.to_vector<T>(), n.to_vector<T>()) << dtype_name(dtype);
    });
  }
  EXPECT_EQ(direct_rt->stats().module_installs, 0u);
  EXPECT_EQ(nary_rt->stats().module_installs, 1u);
}

TEST(EinsumPlanCache, RepeatHitsAndNewShapesMiss) {
  auto rt = EagerRuntime::cpu();
  const auto ops = operands(rt, DType::F64, {{2, 3}, {3, 4}, {4, 2}});
  einsum("ij,jk,kl->il", ops);
  const CacheStats first = plan_cache(rt);
  EXPECT_EQ(first.misses, 1u);
  EXPECT_EQ(first.entries, 1u);
  for (int i = 0; i < 5; ++i) einsum("ij,jk,kl->il", ops);
  const CacheStats repeated = plan_cache(rt);
  EXPECT_EQ(repeated.hits, first.hits + 5);
  EXPECT_EQ(repeated.misses, 1u);
  einsum("ij,jk,kl->il", operands(rt, DType::F64, {{2, 3}, {3, 4}, {4, 3}}));
  einsum("ij,jk,kl->il", operands(rt, DType::F32, {{2, 3}, {3, 4}, {4, 2}}));
  EinsumOptions greedy;
  greedy.strategy = PathStrategy::Greedy;
  einsum("ij,jk,kl->il", ops, greedy);
  EXPECT_EQ(plan_cache(rt).misses, 4u) << "shape, dtype and options are part of the key";
  EXPECT_EQ(plan_cache(rt).entries, 4u);
}

TEST(EinsumPlanCache, LongKeysHitAndStayExact) {
  // A 24-operand ring: its key (subscripts, 24 shapes) is longer than the key buffer's inline
  // part, so it is built on the heap. Repeats hit; one changed extent in the middle misses.
  auto rt = EagerRuntime::cpu();
  constexpr int kOperands = 24;
  std::string subscripts;
  std::vector<Shape> shapes;
  for (int i = 0; i < kOperands; ++i) {
    if (i) subscripts += ',';
    subscripts += static_cast<char>('a' + i);
    subscripts += static_cast<char>('a' + (i + 1) % kOperands);
    shapes.push_back({2, 2});
  }
  subscripts += "->";
  const auto ops = operands(rt, DType::F64, shapes);
  const double first = einsum(subscripts, ops).download().to_vector<double>().at(0);
  const double again = einsum(subscripts, ops).download().to_vector<double>().at(0);
  EXPECT_EQ(first, again);
  EXPECT_EQ(plan_cache(rt).misses, 1u);
  EXPECT_EQ(plan_cache(rt).hits, 1u);
  shapes[kOperands / 2] = {2, 3};
  shapes[kOperands / 2 + 1] = {3, 2};
  einsum(subscripts, operands(rt, DType::F64, shapes));
  EXPECT_EQ(plan_cache(rt).misses, 2u) << "an extent deep inside a long key is still compared";
  // Integer labels with the same structure are another notation, hence another key.
  EinsumLabels labels;
  for (int i = 0; i < 3; ++i) labels.inputs.push_back({i, (i + 1) % 3});
  const auto three = operands(rt, DType::F64, {{2, 2}, {2, 2}, {2, 2}});
  einsum(labels, three);
  einsum(labels, three);
  EXPECT_EQ(plan_cache(rt).misses, 3u);
  EXPECT_EQ(plan_cache(rt).hits, 2u);
}

TEST(EinsumModule, RepeatedCallsInstallOnce) {
  auto rt = EagerRuntime::cpu();
  const auto ops = operands(rt, DType::C64, {{2, 3, 4}, {2, 4, 5}});
  einsum("bij,bjk->bik", ops);
  const RuntimeStats after_first = rt->stats();
  EXPECT_EQ(after_first.module_installs, 1u);
  const auto* snapshot = rt->snapshot();
  for (int i = 0; i < 100; ++i) einsum("bij,bjk->bik", ops);
  const RuntimeStats after = rt->stats();
  EXPECT_EQ(after.module_installs, 1u);
  EXPECT_EQ(after.epoch, after_first.epoch);
  EXPECT_EQ(rt->snapshot(), snapshot);
  EXPECT_GE(after.ensure_fast_path_hits, after_first.ensure_fast_path_hits + 100);
  EXPECT_EQ(einsum_launches(rt), 101u);
}

// Several threads share one runtime's plan cache and intermediate-buffer pool; every result
// must equal the single-threaded one.
TEST(EinsumThreads, ConcurrentCallsOnOneRuntimeAgree) {
  auto rt = EagerRuntime::cpu();
  const char* exprs[] = {"ab,bc,cd->ad", "abc,bcd->da", "ij,jk->ik", "ii,ij->j"};
  const std::vector<std::vector<Shape>> shapes = {
      {{5, 6}, {6, 7}, {7, 4}}, {{4, 5, 6}, {5, 6, 3}}, {{8, 9}, {9, 7}}, {{6, 6}, {6, 3}}};
  std::vector<std::vector<EagerTensor>> ops;
  std::vector<std::vector<double>> want;
  for (std::size_t e = 0; e < 4; ++e) {
    ops.push_back(operands(rt, DType::F64, shapes[e], e + 1));
    want.push_back(einsum(exprs[e], ops[e]).download().to_vector<double>());
  }
  std::atomic<int> mismatches{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&, t] {
      for (int i = 0; i < 200; ++i) {
        const std::size_t e = static_cast<std::size_t>((t + i) % 4);
        if (einsum(exprs[e], ops[e]).download().to_vector<double>() != want[e]) ++mismatches;
      }
    });
  for (auto& th : threads) th.join();
  EXPECT_EQ(mismatches.load(), 0);
  EXPECT_LE(rt->stats().module_installs, 1u);
}

TEST(EinsumErrors, MixedDTypesNameTheOperand) {
  auto rt = EagerRuntime::cpu();
  const std::vector<EagerTensor> ops{operands(rt, DType::F32, {{2, 3}})[0],
                                     operands(rt, DType::F64, {{3, 4}})[0]};
  try {
    einsum("ij,jk->ik", ops);
    FAIL() << "mixed dtypes must be refused";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Validation);
    EXPECT_NE(e.message().find("operand 1"), std::string::npos) << e.message();
  }
}

TEST(EinsumErrors, MixedRuntimesAreContextMismatchBeforeAnything) {
  auto rt1 = EagerRuntime::cpu();
  auto rt2 = EagerRuntime::cpu();
  for (bool direct : {true, false}) {
    EinsumOptions options;
    options.allow_direct_binary = direct;
    const std::vector<EagerTensor> ops{operands(rt1, DType::F64, {{2, 3}})[0],
                                       operands(rt2, DType::F64, {{3, 4}})[0]};
    const auto before = process_cpu_kernel_launches();
    try {
      einsum("ij,jk->ik", ops, options);
      FAIL() << "mixed runtimes must be refused";
    } catch (const ContextMismatchError& e) {
      EXPECT_EQ(e.kind(), ErrorKind::ContextMismatch);
      EXPECT_EQ(e.argument_index(), 1u);
    }
    EXPECT_EQ(process_cpu_kernel_launches(), before);
  }
  EXPECT_EQ(rt1->stats().module_installs, 0u);
  EXPECT_EQ(rt2->stats().module_installs, 0u);
  EXPECT_EQ(plan_cache(rt1).misses, 0u) << "no plan is built before the runtime check";
}

TEST(EinsumErrors, BadInputIsValidation) {
  auto rt = EagerRuntime::cpu();
  const auto ops = operands(rt, DType::F64, {{2, 3}, {3, 4}});
  for (const char* subs : {"ij,jk,kl->il", "ij,j#->ik", "ij,jk->ii->", "ij,ik->jk"}) {
    try {
      einsum(subs, ops);
      ADD_FAILURE() << subs << " must be refused";
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::Validation) << subs << ": " << e.what();
    }
  }
  try {
    einsum("ij", std::span<const EagerTensor>{});
    ADD_FAILURE() << "no operands must be refused";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Validation);
  }
}

// ---- The factory's target switch, on a device-like test backend ------------------------

class DeviceBuffer final : public Buffer {
 public:
  DeviceBuffer(Placement p, std::size_t bytes) : Buffer(p, bytes), bytes_(bytes) {}
  std::vector<std::byte> bytes_;
};

// Presents itself as a device of `kind` (device memory, its own allocation domain); its
// buffers are not host-visible, so a CPU kernel that touched them would fail.
class DeviceLikeBackend final : public Backend {
 public:
  explicit DeviceLikeBackend(BackendKind kind)
      : kind_(kind), engine_("tenferro.einsumtestdev.d0.v1") {
    placement_ = {MemoryKind::Device, kind, 0, next_allocation_domain()};
  }
  BackendKind kind() const noexcept override { return kind_; }
  const EngineId* direct_engine() const noexcept override { return &engine_; }
  const Placement& placement() const noexcept override { return placement_; }
  std::string description() const override { return "einsum test device"; }
  std::shared_ptr<Buffer> allocate(std::size_t bytes) override {
    return std::make_shared<DeviceBuffer>(placement_, bytes);
  }
  void write(Buffer& dst, std::size_t off, std::span<const std::byte> src) override {
    std::memcpy(static_cast<DeviceBuffer&>(dst).bytes_.data() + off, src.data(), src.size());
  }
  void read(const Buffer& src, std::size_t off, std::span<std::byte> dst) override {
    std::memcpy(dst.data(), static_cast<const DeviceBuffer&>(src).bytes_.data() + off, dst.size());
  }

 private:
  BackendKind kind_;
  EngineId engine_;
  Placement placement_;
};

TEST(EinsumFactory, DeviceTargetsWithoutKernelsAreUnsupportedBeforeExecution) {
  std::vector<BackendKind> kinds;
#if !TENFERRO_HAS_CUDA
  kinds.push_back(BackendKind::Cuda);
#endif
#if !TENFERRO_HAS_WEBGPU
  kinds.push_back(BackendKind::WebGpu);
#endif
  if (kinds.empty()) GTEST_SKIP() << "every device backend kind has einsum kernels in this build";
  for (BackendKind kind : kinds) {
    auto rt = EagerRuntime::with_backend(std::make_unique<DeviceLikeBackend>(kind));
    const auto ops = operands(rt, DType::F32, {{2, 3}, {3, 4}});
    for (bool direct : {true, false}) {
      EinsumOptions options;
      options.allow_direct_binary = direct;
      const auto before = process_cpu_kernel_launches();
      try {
        einsum("ij,jk->ik", ops, options);
        ADD_FAILURE() << backend_kind_name(kind) << ": must be refused";
      } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::Unsupported) << e.what();
      }
      EXPECT_EQ(process_cpu_kernel_launches(), before) << "no CPU kernel may run";
    }
    EXPECT_EQ(rt->stats().module_installs, 0u);
  }
}

TEST(EinsumFactory, CpuModuleMatchesTheTargetEngine) {
  const EngineId cpu("tenferro.cpu.v1"), other("tenferro.othercpu.v1");
  const ModulePtr m1 = einsum_internal::einsum_module_for({cpu, BackendKind::Cpu});
  const ModulePtr m2 = einsum_internal::einsum_module_for({other, BackendKind::Cpu});
  ASSERT_TRUE(m1 && m2);
  EXPECT_NE(m1.get(), m2.get()) << "two engines never share a module";
  // Module ids name the family and the engine, so two engines' modules never share an id.
  EXPECT_EQ(m1->id(), "tenferro.einsum.v1/tenferro.cpu.v1");
  EXPECT_EQ(m2->id(), "tenferro.einsum.v1/tenferro.othercpu.v1");
  EXPECT_NE(m1->find(einsum_family::kFamily, cpu), nullptr);
  EXPECT_EQ(m1->find(einsum_family::kFamily, other), nullptr);
  EXPECT_NE(m2->find(einsum_family::kFamily, other), nullptr);
  EXPECT_EQ(einsum_internal::einsum_module_for({cpu, BackendKind::Cpu}).get(), m1.get())
      << "cached per (backend kind, engine)";
  // The runtime's own target gets its own engine's module.
  auto rt = EagerRuntime::cpu();
  const ModulePtr m3 = einsum_internal::einsum_module_for(rt->extension_target());
  EXPECT_NE(m3->find(einsum_family::kFamily, rt->engine_id()), nullptr);
}

TEST(EinsumAdmission, TableMatchesTheBuild) {
  const AdmissionTable& t = einsum_family::admission_table();
  EXPECT_EQ(t.family(), einsum_family::kFamily);
  for (DType d : kAllDTypes) {
    EXPECT_TRUE(t.admits("einsum", BackendKind::Cpu, d));
    EXPECT_EQ(t.admits("einsum", BackendKind::Cuda, d), TENFERRO_HAS_CUDA != 0);
  }
  EXPECT_EQ(t.admits("einsum", BackendKind::WebGpu, DType::F32), TENFERRO_HAS_WEBGPU != 0);
  EXPECT_EQ(t.admits("einsum", BackendKind::WebGpu, DType::C32), TENFERRO_HAS_WEBGPU != 0);
  EXPECT_FALSE(t.admits("einsum", BackendKind::WebGpu, DType::F64));
  EXPECT_FALSE(t.admits("einsum", BackendKind::WebGpu, DType::C64));
}

// ---- The command ----------------------------------------------------------------------

std::string read_file(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(EinsumCommand, RepeatsInstallOnceAndWriteTheResult) {
  const char* env = std::getenv("TENFERRO_CLI");
  const std::string cli = env ? env : TENFERRO_BINARY_DIR "/src/cli/tenferro";
  if (!std::filesystem::exists(cli)) GTEST_SKIP() << "the tenferro command is not built: " << cli;
  const auto dir = std::filesystem::path(::testing::TempDir()) / "einsum_cli";
  std::filesystem::create_directories(dir);
  std::mt19937_64 rng(11);
  const std::vector<Tensor> hosts{random_tensor(rng, DType::F64, {2, 3}),
                                  random_tensor(rng, DType::F64, {3, 4}),
                                  random_tensor(rng, DType::F64, {4, 5})};
  for (std::size_t i = 0; i < hosts.size(); ++i)
    npy::save(dir / ("in" + std::to_string(i) + ".npy"), hosts[i]);
  const std::string command =
      "'" + cli + "' --stats einsum 'ij,jk,kl->il' '" + (dir / "in0.npy").string() + "' '" +
      (dir / "in1.npy").string() + "' '" + (dir / "in2.npy").string() + "' -o '" +
      (dir / "out.npy").string() + "' --path greedy --show-path " + "--repeat 100 > '" +
      (dir / "stdout").string() + "' 2> '" + (dir / "stderr").string() + "'";
  ASSERT_EQ(std::system(command.c_str()), 0) << read_file(dir / "stderr");
  const auto want = testing::reference_einsum("ij,jk,kl->il", hosts);
  const auto agreement = testing::compare_with_reference(npy::load(dir / "out.npy"), want);
  EXPECT_TRUE(agreement.ok) << agreement.detail;
  EXPECT_NE(read_file(dir / "stdout").find("Complete contraction"), std::string::npos);
  const std::string stats = read_file(dir / "stderr");
  EXPECT_NE(stats.find("\"module_installs\": 1,"), std::string::npos) << stats;
  EXPECT_NE(stats.find("\"tenferro.einsum.v1@cpu\": 100"), std::string::npos) << stats;
  // 100 calls built no backend beyond the runtime's own (the counter can move: see
  // Runtime.ABackendBuiltInsideAnEagerCallIsChargedToThatRuntime).
  EXPECT_NE(stats.find("\"backend_constructions\": 1,"), std::string::npos) << stats;
}

}  // namespace
// A runtime whose cache holds less than the einsum workspace pool's 64 MiB: the pool was
// accounted at 64 MiB whatever the bound, so it and the plans evicted each other on every call
// and every einsum planned again (a C++ user's review: 0 hits in 60 lookups at 32 MiB). The pool
// keeps a quarter of a smaller bound; the plan of a repeated call is found.
TEST(EinsumPlanCache, ACacheSmallerThanTheWorkspacePoolKeepsItsPlans) {
  RuntimeOptions options;
  options.cache_limits.max_bytes = std::size_t{32} << 20;
  auto rt = EagerRuntime::cpu(options);
  std::mt19937_64 rng(40);
  std::vector<EagerTensor> ring;
  for (int i = 0; i < 6; ++i) ring.push_back(rt->upload(random_tensor(rng, DType::F64, {3, 3})));
  const CacheSelector plans{std::string(einsum_family::kFamily), "plan"};
  for (int call = 0; call < 5; ++call)
    (void)einsum("ab,bc,cd,de,ef,fg->ag", std::span<const EagerTensor>(ring));
  const CacheStats s = rt->caches().stats(plans);
  EXPECT_EQ(s.misses, 1u) << "planned again after the first call";
  EXPECT_GE(s.hits, 4u);
  EXPECT_LE(rt->caches().stats().bytes, options.cache_limits.max_bytes);
}

}  // namespace tenferro
