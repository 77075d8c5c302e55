#include "ops/linalg/cpu/svd_fault_injection.hpp"

#include <atomic>

namespace tenferro::linalg_cpu {
namespace {

std::atomic<int> gesdd_failures{0};
std::atomic<int> gesvd_failures{0};

bool take(std::atomic<int>& counter) noexcept {
  int left = counter.load(std::memory_order_relaxed);
  while (left > 0) {
    if (counter.compare_exchange_weak(left, left - 1, std::memory_order_relaxed)) return true;
  }
  return false;
}

}  // namespace

void inject_gesdd_failures_for_testing(int count) noexcept {
  gesdd_failures.store(count);
}
void inject_gesvd_failures_for_testing(int count) noexcept {
  gesvd_failures.store(count);
}
bool take_injected_gesdd_failure() noexcept {
  return take(gesdd_failures);
}
bool take_injected_gesvd_failure() noexcept {
  return take(gesvd_failures);
}

}  // namespace tenferro::linalg_cpu
