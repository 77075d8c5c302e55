// Polls EinsumOptions::interrupt from a planner's inner loop. A call costs a counter increment;
// every kStride calls it reads the clock, and the hook runs at most once per kInterval per
// poller, so a hook that takes a lock (Python's takes the GIL to check for signals) adds
// nothing measurable while a Ctrl-C still reaches the caller within a few milliseconds of work.
// Whatever the hook throws passes through the planners unchanged (they hold no lock and no
// half-built state that outlives the exception).
#pragma once

#include <chrono>
#include <functional>

namespace tenferro::einsum_internal {

class InterruptPoll {
 public:
  static constexpr unsigned kStride = 16;
  static constexpr std::chrono::milliseconds kInterval{5};

  explicit InterruptPoll(const std::function<void()>* hook)
      : hook_(hook != nullptr && *hook ? hook : nullptr) {}

  // In a loop whose iterations are cheap (a heap pop, a DP subset).
  void operator()() {
    if (hook_ == nullptr || (++count_ % kStride) != 0) return;
    now();
  }
  // Between units of work that each take long enough to read the clock every time.
  void now() {
    if (hook_ == nullptr) return;
    const auto t = std::chrono::steady_clock::now();
    if (t - last_ < kInterval) return;
    last_ = t;
    (*hook_)();
  }

 private:
  const std::function<void()>* hook_;
  unsigned count_ = 0;
  std::chrono::steady_clock::time_point last_{};  // the epoch: the first check calls the hook
};

}  // namespace tenferro::einsum_internal
