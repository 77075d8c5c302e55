// Many threads on one runtime: every prims call must give exactly the single-threaded result
// (the kernels are deterministic and share no scratch between calls). Run under TSan by the
// sanitizer build's test command like every other area. Every runtime kind.
#include <gtest/gtest.h>

#include <atomic>
#include <thread>
#include <vector>

#include "prims/prims_reference.hpp"
#include "prims/prims_runtimes.hpp"
#include "tenferro/prims.hpp"

namespace tenferro::prims_test {
namespace {

class PrimsThreads : public PrimsRuntimeTest {};
TENFERRO_PRIMS_ON_ALL_RUNTIMES(PrimsThreads);

TEST_P(PrimsThreads, ConcurrentCallsOnOneRuntimeAreExact) {
  constexpr int kThreads = 8, kRounds = 10;
  const DType d = DType::C32;  // on every runtime kind
  std::vector<EagerTensor> xs, ys;
  std::vector<Ref> want;
  // The expected value of each thread's chain, computed on this runtime before any thread runs.
  const auto chain = [](const EagerTensor& x, const EagerTensor& y, std::uint64_t seed) {
    const EagerTensor r = prims::random_uniform(x.runtime(), x.dtype(), x.shape(), seed);
    const EagerTensor t = prims::axpby(2.0, x, C(0.0, -1.0), y) * r;
    return prims::sum(prims::transpose(t), prims::Axes{0}) + prims::norm(t);
  };
  for (int i = 0; i < kThreads; ++i) {
    xs.push_back(up(random_ref(d, {37, 29}, 200 + static_cast<unsigned>(i))));
    ys.push_back(up(random_ref(d, {29}, 300 + static_cast<unsigned>(i))));
    want.push_back(down(chain(xs.back(), ys.back(), static_cast<std::uint64_t>(i))));
  }
  std::atomic<int> mismatches{0}, errors{0};
  std::vector<Ref> last(kThreads);
  std::vector<std::thread> pool;
  for (int i = 0; i < kThreads; ++i) {
    pool.emplace_back([&, i] {
      try {
        for (int round = 0; round < kRounds; ++round) {
          const EagerTensor got =
              chain(xs[static_cast<std::size_t>(i)], ys[static_cast<std::size_t>(i)],
                    static_cast<std::uint64_t>(i));
          Ref r = down(got);
          if (!identical(r, want[static_cast<std::size_t>(i)])) ++mismatches;
          last[static_cast<std::size_t>(i)] = std::move(r);
        }
      } catch (const std::exception&) {
        ++errors;
      }
    });
  }
  for (std::thread& t : pool) t.join();
  EXPECT_EQ(errors.load(), 0);
  EXPECT_EQ(mismatches.load(), 0) << "of " << kThreads * kRounds << " concurrent chains";
  for (int i = 0; i < kThreads; ++i) {
    EXPECT_TRUE(identical(last[static_cast<std::size_t>(i)], want[static_cast<std::size_t>(i)]))
        << "thread " << i;
  }
}

}  // namespace
}  // namespace tenferro::prims_test
