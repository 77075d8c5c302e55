// State behind a lock that a forked child can inherit locked. fork() copies only the calling
// thread: a lock another thread held at that moment stays held in the child by a thread that
// does not exist there, so the child hangs in its first call that takes it (a runtime's cache
// while another thread ran einsums: 12 of 100 children), and the state it guards may be
// half-changed. An object holding such state keeps a ForkReset; in the child, single-threaded
// right after the fork, each registered reset runs. The convention for a reset: a lock that
// try_lock takes was free, so the state stands (unlock it again); one that was held is made
// anew, and its state abandoned (leaked, never destroyed: it may be inconsistent) for an empty
// one. Caches lose their contents, never their correctness.
#pragma once

#include <functional>
#include <mutex>
#include <new>

namespace tenferro::core {

class ForkReset {
 public:
  // Registers `reset_in_child` until destruction. It runs in a forked child, with the
  // registry's lock held: it must not make or destroy a ForkReset (that would deadlock), nor
  // throw, nor allocate beyond what it abandons.
  explicit ForkReset(std::function<void()> reset_in_child);
  ~ForkReset();
  ForkReset(const ForkReset&) = delete;
  ForkReset& operator=(const ForkReset&) = delete;

 private:
  friend struct ForkResetRegistry;
  std::function<void()> reset_;
  ForkReset* prev_ = nullptr;
  ForkReset* next_ = nullptr;
};

// A reset's first step: whether `m` (a std::mutex, a SpinLock) was held at the fork, in which
// case it is made anew (unlocked) and the state it guarded must be abandoned; a free lock stays
// as it was.
template <class Lock>
bool remake_if_held(Lock& m) {
  if (m.try_lock()) {
    m.unlock();
    return false;
  }
  new (&m) Lock;
  return true;
}

}  // namespace tenferro::core
