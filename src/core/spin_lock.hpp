// A lock for critical sections of a few dozen instructions that every eager call enters (the
// CPU block cache's take and give-back). Why not std::mutex: in a process with more than one
// thread (every runtime with worker threads), a mutex costs two locked instructions per section,
// the lock's compare-and-swap and the unlock's exchange, at about 8 ns each on the CI machine;
// this lock costs one exchange and a plain store. While the process has one thread (glibc's
// __libc_single_threaded, which libstdc++'s shared_ptr reads for the same reason) it costs
// neither, as glibc's mutex does not: nothing can contend, and a thread is only created outside
// the sections. A waiter spins on a plain load with a pause for a short while, then yields its
// time slice: the holder may have been descheduled on an oversubscribed machine.
#pragma once

#include <sys/single_threaded.h>

#include <atomic>
#include <thread>

namespace tenferro::core {

// One step of a spin-wait: the pause hint (fewer pipeline flushes when the awaited store
// lands, and the sibling hyperthread gets the core meanwhile).
inline void cpu_relax() noexcept {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}

class SpinLock {
 public:
  void lock() noexcept {
    if (__libc_single_threaded) {
      held_.store(true, std::memory_order_relaxed);
      return;
    }
    while (held_.exchange(true, std::memory_order_acquire)) wait_until_free();
  }
  bool try_lock() noexcept {
    if (__libc_single_threaded) {
      if (held_.load(std::memory_order_relaxed)) return false;
      held_.store(true, std::memory_order_relaxed);
      return true;
    }
    return !held_.load(std::memory_order_relaxed) &&
           !held_.exchange(true, std::memory_order_acquire);
  }
  void unlock() noexcept { held_.store(false, std::memory_order_release); }

 private:
  void wait_until_free() noexcept {
    for (int spins = 0; held_.load(std::memory_order_relaxed); ++spins) {
      if (spins < 64) {
        cpu_relax();
      } else {
        std::this_thread::yield();
      }
    }
  }
  std::atomic<bool> held_{false};
};

}  // namespace tenferro::core
