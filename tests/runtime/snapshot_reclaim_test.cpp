// Replaced extension snapshots are freed once no eager call of the runtime can still read them
// (RuntimeStats::retained_snapshots), and never while one can: an executor that outlives the
// replacement of its own module keeps running on what it captured (AddressSanitizer sees a use
// after free otherwise). The concurrency case runs under ThreadSanitizer too (-R Concurren).
#include <gtest/gtest.h>

#include <atomic>
#include <barrier>
#include <string>
#include <thread>
#include <vector>

#include "backends/cpu/cpu_backend.hpp"
#include "support/test_family.hpp"
#include "tenferro/tenferro.hpp"

namespace tenferro {
namespace {

constexpr const char* kModuleId = "tenferro.test.reclaim";

EagerTensor vec(const std::shared_ptr<EagerRuntime>& rt, std::vector<double> v) {
  const auto n = static_cast<std::int64_t>(v.size());
  return rt->upload(Tensor::from_col_major<double>({n}, std::move(v)));
}

std::vector<double> values(const EagerTensor& t) {
  return t.download().to_vector<double>();
}

// A module of the test family whose executor adds `offset` (held in the executor's own state,
// which dies with the module) to 2 x; `during` runs in the middle of the executor.
ModulePtr offset_module(const EngineId& engine, std::vector<double> offset,
                        std::function<void(EagerRuntime&)> during = {}) {
  auto m = std::make_shared<ExtensionModule>(kModuleId);
  m->register_executor(std::string(testing::kTestFamily), engine,
                       [offset = std::move(offset), during = std::move(during)](
                           const ExecutionContext& ctx, const ExtensionOp&,
                           std::span<const EagerTensor> inputs) -> std::vector<EagerTensor> {
                         if (during) during(*ctx.runtime_ptr());
                         Tensor x = host_tensor_of(inputs[0]).contiguous();
                         Tensor y = Tensor::zeros(DType::F64, x.shape());
                         for (std::int64_t i = 0; i < x.numel(); ++i)
                           y.data<double>()[i] =
                               2 * x.data<double>()[i] + offset[static_cast<std::size_t>(i)];
                         return {adopt_host_tensor(ctx.runtime_ptr(), std::move(y))};
                       });
  return m;
}

TEST(SnapshotReclaim, InstallsOutsideACallFreeTheOldSnapshotAtOnce) {
  auto rt = EagerRuntime::cpu();
  EXPECT_EQ(rt->stats().retained_snapshots, 0u);
  for (int i = 1; i <= 50; ++i) {
    rt->install_extension_module(offset_module(rt->engine_id(), {double(i)}));
    const RuntimeStats s = rt->stats();
    EXPECT_EQ(s.epoch, static_cast<std::uint64_t>(i));
    EXPECT_EQ(s.retained_snapshots, 1u);
  }
  // The last install is the one that runs.
  const EagerTensor x = vec(rt, {1.0});
  const auto installed = [](const EagerExtensionTarget& target) {
    return offset_module(target.engine_id, {-1000.0});  // same id: the installed one answers
  };
  EXPECT_EQ(values(apply_eager_with_targeted_extension_session(testing::ScaleOp(), std::span(&x, 1),
                                                               installed)[0]),
            std::vector<double>{52.0});
}

TEST(SnapshotReclaim, ACallThatOutlivesItsModulesReplacementKeepsItsSnapshot) {
  auto rt = EagerRuntime::cpu();
  std::uint64_t retained_inside = 0;
  // The factory builds a fresh module per call, so once installed the module is held by the
  // runtime's snapshot alone; its executor replaces it (same id) and then reads its own state.
  const auto factory = [&](const EagerExtensionTarget& target) {
    return offset_module(target.engine_id, {10.0, 20.0}, [&](EagerRuntime& runtime) {
      runtime.install_extension_module(offset_module(runtime.engine_id(), {0.5, 0.5}));
      retained_inside = runtime.stats().retained_snapshots;
    });
  };
  const EagerTensor x = vec(rt, {1.0, 2.0});
  EXPECT_EQ(values(apply_eager_with_targeted_extension_session(testing::ScaleOp(), std::span(&x, 1),
                                                               factory)[0]),
            (std::vector<double>{12.0, 24.0}));
  EXPECT_EQ(retained_inside, 2u) << "the running call's snapshot was freed under it";
  EXPECT_EQ(rt->stats().retained_snapshots, 1u) << "freed when the call ended";
  // The replacement answers the next call (the factory's module has the same id).
  EXPECT_EQ(values(apply_eager_with_targeted_extension_session(testing::ScaleOp(), std::span(&x, 1),
                                                               factory)[0]),
            (std::vector<double>{2.5, 4.5}));
}

TEST(SnapshotReclaimConcurrency, InstallsWhileOtherThreadsCall) {
  auto rt = EagerRuntime::cpu();
  const EagerTensor x = vec(rt, {1.0, 2.0});
  constexpr int kCallers = 2, kCalls = 200, kInstalls = 100;
  std::barrier start(kCallers + 1);
  std::atomic<int> wrong{0};
  std::vector<std::thread> pool;
  for (int t = 0; t < kCallers; ++t) {
    pool.emplace_back([&] {
      start.arrive_and_wait();
      for (int i = 0; i < kCalls; ++i) {
        // Whichever module is installed when the call resolves runs: every one adds 0 or 1.
        const auto out = values(apply_eager_with_targeted_extension_session(
            testing::ScaleOp(), std::span(&x, 1), [](const EagerExtensionTarget& target) {
              return offset_module(target.engine_id, {0.0, 0.0});
            })[0]);
        const bool plain = out == std::vector<double>{2.0, 4.0};
        const bool offset = out == std::vector<double>{3.0, 5.0};
        if (!plain && !offset) ++wrong;
      }
    });
  }
  pool.emplace_back([&] {
    start.arrive_and_wait();
    for (int i = 0; i < kInstalls; ++i)
      rt->install_extension_module(offset_module(rt->engine_id(), {1.0, 1.0}));
  });
  for (auto& th : pool) th.join();
  EXPECT_EQ(wrong.load(), 0);
  EXPECT_EQ(rt->stats().retained_snapshots, 1u);
}

}  // namespace
}  // namespace tenferro
