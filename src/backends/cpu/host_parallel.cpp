#include "backends/cpu/host_parallel.hpp"

#include <algorithm>
#include <cstdlib>
#include <exception>
#include <string>
#include <thread>
#include <vector>

extern "C" __attribute__((weak)) int openblas_get_num_threads(void);

namespace tenferro::cpu_parallel {
namespace {

int requested_threads() {
  const char* value = std::getenv("TENFERRO_NUM_THREADS");
  if (value == nullptr || *value == '\0') return 0;
  char* end = nullptr;
  const long n = std::strtol(value, &end, 10);
  if (*end != '\0' || n < 1 || n > 1024) return 0;  // not a thread count: use the default
  return static_cast<int>(n);
}

}  // namespace

int host_kernel_threads() {
  static const int threads = [] {
    if (const int asked = requested_threads(); asked > 0) return asked;
    const int blas = openblas_get_num_threads ? openblas_get_num_threads() : 1;
    const int hw = static_cast<int>(std::thread::hardware_concurrency());
    return std::max(1, std::min(blas, hw > 0 ? hw : 1));
  }();
  return threads;
}

void parallel_chunks(std::int64_t count, int threads,
                     const std::function<void(std::int64_t, std::int64_t)>& body) {
  const int parts = static_cast<int>(std::min<std::int64_t>(std::max(threads, 1), count));
  if (parts <= 1) {
    if (count > 0) body(0, count);
    return;
  }
  const std::int64_t chunk = (count + parts - 1) / parts;
  std::vector<std::exception_ptr> errors(static_cast<std::size_t>(parts));
  auto guarded = [&](int t) {
    try {
      body(std::min(count, t * chunk), std::min(count, (t + 1) * chunk));
    } catch (...) {
      errors[static_cast<std::size_t>(t)] = std::current_exception();
    }
  };
  std::vector<std::thread> helpers;
  helpers.reserve(static_cast<std::size_t>(parts - 1));
  for (int t = 1; t < parts; ++t) helpers.emplace_back(guarded, t);
  guarded(0);
  for (auto& h : helpers) h.join();
  for (const auto& e : errors)
    if (e) std::rethrow_exception(e);
}

}  // namespace tenferro::cpu_parallel
