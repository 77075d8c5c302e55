// A forked child inherits every lock another thread held at the fork, held by a thread it does
// not have. A runtime's cache store locked that way hung the child's first call (12 of 100
// children of a process whose other thread ran einsums, an adversarial review's finding): the
// child now starts with an empty store and a fresh lock. The lock is held here on purpose, by
// a thread stuck in an evicted value's destructor (which runs under it), so the test does not
// depend on timing.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <future>
#include <memory>
#include <thread>
#include <utility>

#include "tenferro/runtime/cache_store.hpp"

namespace tenferro {
namespace {

// A cached value whose destructor waits until `release` is set: evicting it keeps the store's
// lock held for as long as the test wants.
struct StuckOnDestruction {
  // A constructor (not aggregate initialisation): make_shared's parenthesised aggregate form is
  // C++20's, which clang 14 (the sanitizer builds) does not have.
  StuckOnDestruction(std::promise<void>* e, std::shared_future<void> r)
      : entered(e), release(std::move(r)) {}
  std::promise<void>* entered;
  std::shared_future<void> release;
  ~StuckOnDestruction() {
    if (entered == nullptr) return;
    entered->set_value();
    release.wait();
  }
};

TEST(CacheStoreFork, AChildForkedWhileAnotherThreadHoldsTheStoreStartsWithAnEmptyStore) {
  ExtensionCacheStore store(CacheLimits{1, std::size_t{1} << 20});
  std::promise<void> entered, release;
  const std::shared_future<void> released = release.get_future().share();
  // Made in place: a temporary's destructor would wait here.
  store.insert(CacheKey::of("test", "stuck", "a"),
               std::make_shared<StuckOnDestruction>(&entered, released), 1);
  // Inserting a second entry evicts the first under the lock, whose destructor then waits.
  std::thread holder(
      [&] { store.insert(CacheKey::of("test", "other", "b"), std::make_shared<int>(1), 1); });
  entered.get_future().wait();

  const pid_t pid = fork();
  if (pid == 0) {
    alarm(10);  // a hang ends the child by SIGALRM
    const bool empty = store.find<int>(CacheKey::of("test", "other", "b")) == nullptr &&
                       store.stats().entries == 0;
    store.insert(CacheKey::of("test", "child", "c"), std::make_shared<int>(2), 1);
    const bool works = store.find<int>(CacheKey::of("test", "child", "c")) != nullptr;
    _exit(empty && works ? 0 : 1);
  }
  ASSERT_GT(pid, 0);
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  release.set_value();
  holder.join();
  EXPECT_FALSE(WIFSIGNALED(status))
      << "the child hung on the store's lock (signal " << WTERMSIG(status) << ")";
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0)
      << "the child's store was not empty, or did not work";
  // The parent's store is untouched: the entry the holder inserted is there.
  EXPECT_NE(store.find<int>(CacheKey::of("test", "other", "b")), nullptr);
}

}  // namespace
}  // namespace tenferro
