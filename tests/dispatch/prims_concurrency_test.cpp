// Prims from several threads on one CPU runtime (its sessions do not serialize, and large
// kernels split over host threads themselves): every thread gets the numbers a lone thread
// gets, and the launch counter sees every kernel. Runs under ThreadSanitizer in the test
// command.
#include <gtest/gtest.h>

#include <cstdlib>
#include <thread>
#include <vector>

#include "tenferro/tenferro.hpp"

namespace tenferro {
namespace {

// 300 x 300 = 90 000 elements: above the size at which CPU prims kernels use host threads.
EagerTensor pipeline(const std::shared_ptr<EagerRuntime>& rt, std::uint64_t seed) {
  const EagerTensor x = prims::random_normal(rt, DType::F64, {300, 300}, seed);
  const EagerTensor y = prims::axpby(2.0, x, -1.0, prims::square(x));  // 2x - x^2
  const EagerTensor t = prims::transpose(y);                           // strided operand
  return prims::sum(prims::maximum(t, y), prims::Axes{0});
}

TEST(PrimsConcurrency, ThreadsOnOneRuntimeGetTheLoneThreadsNumbers) {
  // The test command pins OpenBLAS (and so tenferro's own kernels) to one thread; this test
  // wants the kernels' own host-thread split too. CTest runs each test in its own process, and
  // the thread budget is read once, at the first kernel, so this holds for the whole test.
  setenv("TENFERRO_NUM_THREADS", "3", 1);
  auto rt = EagerRuntime::cpu();
  constexpr int kThreads = 4, kRounds = 6;
  std::vector<std::vector<double>> expected;
  for (int t = 0; t < kThreads; ++t) {
    expected.push_back(pipeline(rt, static_cast<std::uint64_t>(t)).download().to_vector<double>());
  }
  const auto launches_before = rt->stats().kernel_launches_for("tenferro.prims.v1@cpu");
  std::vector<int> mismatches(kThreads, 0);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int r = 0; r < kRounds; ++r) {
        const auto got = pipeline(rt, static_cast<std::uint64_t>(t)).download().to_vector<double>();
        if (got != expected[static_cast<std::size_t>(t)]) ++mismatches[static_cast<std::size_t>(t)];
      }
    });
  }
  for (std::thread& th : threads) th.join();
  for (int t = 0; t < kThreads; ++t)
    EXPECT_EQ(mismatches[static_cast<std::size_t>(t)], 0) << "thread " << t;
  // random_normal, square, axpby, maximum, sum: five kernels per pipeline.
  EXPECT_EQ(rt->stats().kernel_launches_for("tenferro.prims.v1@cpu") - launches_before,
            static_cast<std::uint64_t>(5 * kThreads * kRounds));
}

}  // namespace
}  // namespace tenferro
