// Racing the cold path: several threads calling an eager op on one fresh runtime publish one
// snapshot and never crash. Run under ThreadSanitizer by scripts/test.sh (-R Concurren).
#include <gtest/gtest.h>

#include <barrier>
#include <thread>

#include "support/test_device_backend.hpp"
#include "support/test_family.hpp"
#include "tenferro/tenferro.hpp"

namespace tenferro {
namespace {

void race(const std::shared_ptr<EagerRuntime>& rt, int threads, int calls) {
  const EagerTensor x = rt->upload(Tensor::from_col_major<double>({2}, {1.0, 2.0}));
  std::barrier start(threads);
  std::atomic<int> wrong{0};
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t) {
    pool.emplace_back([&] {
      start.arrive_and_wait();
      for (int i = 0; i < calls; ++i) {
        auto out = apply_eager_with_targeted_extension_session(testing::ScaleOp(), std::span(&x, 1),
                                                               testing::target_factory);
        if (out[0].download().to_vector<double>() != std::vector<double>{2.0, 4.0}) ++wrong;
      }
    });
  }
  for (auto& th : pool) th.join();
  EXPECT_EQ(wrong.load(), 0);
}

TEST(DispatchConcurrency, TwoThreadsRacingTheColdPathPublishOnce) {
  for (int round = 0; round < 20; ++round) {
    auto rt = EagerRuntime::cpu();
    race(rt, 2, 1);
    EXPECT_EQ(rt->stats().epoch, 1u);
    EXPECT_EQ(rt->stats().module_installs, 1u);
  }
}

TEST(DispatchConcurrency, EightThreadsThousandCallsEachOnCpu) {
  auto rt = EagerRuntime::cpu();
  race(rt, 8, 1000);
  const RuntimeStats s = rt->stats();
  EXPECT_EQ(s.epoch, 1u);
  EXPECT_EQ(s.module_installs, 1u);
  EXPECT_GE(s.ensure_fast_path_hits, 8000u - 8u);
  EXPECT_EQ(s.kernel_launches_for("tenferro.test.scale.v1@cpu"), 8000u);
}

TEST(DispatchConcurrency, EightThreadsOnASerializingDeviceRuntime) {
  auto rt = testing::make_test_device_runtime();
  race(rt, 8, 200);
  EXPECT_EQ(rt->stats().epoch, 1u);
  EXPECT_EQ(rt->stats().kernel_launches_for("tenferro.test.scale.v1@cuda"), 1600u);
}

// The process-wide CPU kernel counter is kept per thread (a locked add per kernel on one shared
// counter was a cache line every thread running small ops fought over): its reads must still
// sum every launch, of threads running and of threads gone.
TEST(DispatchConcurrency, ProcessCpuKernelCounterSumsLiveAndExitedThreads) {
  auto rt = EagerRuntime::cpu();
  const EagerTensor x = rt->upload(Tensor::from_col_major<double>({3}, {1.0, 2.0, 3.0}));
  std::uint64_t before = process_cpu_kernel_launches();
  (void)prims::add(x, x);
  const std::uint64_t per_add = process_cpu_kernel_launches() - before;
  ASSERT_GE(per_add, 1u);

  constexpr int kThreads = 4, kCalls = 250;
  std::barrier done(kThreads + 1), release(kThreads + 1);
  std::vector<std::thread> pool;
  before = process_cpu_kernel_launches();
  for (int t = 0; t < kThreads; ++t) {
    pool.emplace_back([&] {
      for (int i = 0; i < kCalls; ++i) (void)prims::add(x, x);
      done.arrive_and_wait();     // counted, still running
      release.arrive_and_wait();  // then gone
    });
  }
  done.arrive_and_wait();
  const std::uint64_t expected = per_add * kThreads * kCalls;
  EXPECT_EQ(process_cpu_kernel_launches() - before, expected) << "while the threads run";
  release.arrive_and_wait();
  for (auto& th : pool) th.join();
  EXPECT_EQ(process_cpu_kernel_launches() - before, expected) << "after the threads exited";
}

// A CPU buffer builds its exact-size host storage on the first host view (CpuBuffer's
// call_once): threads racing that first view of one tensor all get the same storage, of the
// tensor's size, over its data.
TEST(DispatchConcurrency, HostViewsOfOneTensorRacingTheirFirstAgree) {
  auto rt = EagerRuntime::cpu();
  std::vector<double> values(2048);
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = static_cast<double>(i);
  for (int round = 0; round < 20; ++round) {
    const EagerTensor x = rt->upload(Tensor::from_col_major<double>({2048}, values));
    std::barrier start(8);
    std::atomic<int> wrong{0};
    std::vector<std::thread> pool;
    std::vector<const HostStorage*> seen(8, nullptr);
    for (int t = 0; t < 8; ++t) {
      pool.emplace_back([&, t] {
        start.arrive_and_wait();
        const Tensor view = x.host_view();
        seen[static_cast<std::size_t>(t)] = view.storage().get();
        if (view.storage()->size_bytes() != 2048 * sizeof(double)) ++wrong;
        if (view.data<double>()[2047] != 2047.0) ++wrong;
      });
    }
    for (auto& th : pool) th.join();
    EXPECT_EQ(wrong.load(), 0);
    for (const HostStorage* s : seen) EXPECT_EQ(s, seen[0]);
  }
}

TEST(DispatchConcurrency, CacheStoreUnderContention) {
  ExtensionCacheStore store(CacheLimits{16, 1 << 20});
  std::vector<std::thread> pool;
  for (int t = 0; t < 8; ++t) {
    pool.emplace_back([&, t] {
      for (int i = 0; i < 500; ++i) {
        const auto key = CacheKey::of("fam", "plan", std::to_string((i + t) % 32));
        auto v = store.get_or_create<int>(key, [&] { return std::make_shared<int>((i + t) % 32); });
        ASSERT_EQ(*v, (i + t) % 32);
      }
    });
  }
  for (auto& th : pool) th.join();
  EXPECT_LE(store.stats().entries, 16u);
}

}  // namespace
}  // namespace tenferro
