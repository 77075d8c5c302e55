// core::SpinLock, the CPU block cache's lock. Here with the backend tests, which the
// ThreadSanitizer run builds, and named so that it runs there (scripts/test.sh): TSan also sees a
// section that the lock fails to exclude.
#include "core/spin_lock.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <mutex>
#include <thread>
#include <vector>

#include "core/fork_reset.hpp"

namespace tenferro::core {
namespace {

// Threads add to two plain counters under the lock, reading one and writing both: any two
// sections that overlap lose an update or break the pair's invariant. Checked to fail with a
// lock() that does not wait for a held lock.
TEST(SpinLockConcurrency, SectionsExcludeEachOther) {
  SpinLock lock;
  std::int64_t count = 0, twice = 0;
  bool pair_broken = false;
  constexpr int kThreads = 4, kSections = 100000;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < kSections; ++i) {
        const std::lock_guard guard(lock);
        if (twice != 2 * count) pair_broken = true;
        const std::int64_t c = count;
        count = c + 1;
        twice = 2 * (c + 1);
      }
    });
  }
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(count, std::int64_t{kThreads} * kSections);
  EXPECT_EQ(twice, 2 * count);
  EXPECT_FALSE(pair_broken);
}

TEST(SpinLockConcurrency, TryLockFailsWhileAnotherThreadHoldsIt) {
  SpinLock lock;
  lock.lock();
  bool taken = true;
  std::thread other([&] { taken = lock.try_lock(); });
  other.join();
  EXPECT_FALSE(taken);
  lock.unlock();
  std::thread again([&] {
    taken = lock.try_lock();
    if (taken) lock.unlock();
  });
  again.join();
  EXPECT_TRUE(taken);
}

// The reset a forked child runs: a lock held at the fork is made anew (free), a free one stays.
TEST(SpinLockConcurrency, RemakeIfHeldFreesAHeldLockAndLeavesAFreeOne) {
  SpinLock held;
  held.lock();
  EXPECT_TRUE(remake_if_held(held));
  EXPECT_TRUE(held.try_lock());
  held.unlock();

  SpinLock free_lock;
  EXPECT_FALSE(remake_if_held(free_lock));
  EXPECT_TRUE(free_lock.try_lock());
  free_lock.unlock();
}

}  // namespace
}  // namespace tenferro::core
