#include "ops/linalg/cpu/batch_chunks.hpp"

#include <algorithm>
#include <atomic>
#include <exception>
#include <optional>
#include <vector>

#include "backends/cpu/host_parallel.hpp"

namespace tenferro::linalg_cpu {

void for_each_batch_chunk(std::int64_t batch, std::int64_t largest_dim,
                          const std::function<void(std::int64_t, std::int64_t)>& body,
                          std::int64_t granule) {
  const int threads = cpu_parallel::host_kernel_threads();
  granule = std::max<std::int64_t>(granule, 1);
  const std::int64_t units = (batch + granule - 1) / granule;
  const bool split =
      threads > 1 && units > 1 && (largest_dim <= kBatchSplitMaxDim || batch >= threads);
  if (!split) {
    if (batch > 0) body(0, batch);
    return;
  }
  const auto parts = static_cast<int>(std::min<std::int64_t>(threads, units));
  // Part p: units [units p / parts, units (p + 1) / parts), the last one ending at the batch's end.
  const auto bound = [&](int p) { return std::min(batch, units * p / parts * granule); };
  std::vector<std::exception_ptr> failures(static_cast<std::size_t>(parts));
  // Parts after a failed one are skipped (the error names the lowest failing entry, and a part
  // run after it on the same thread would only waste LAPACK calls and count retries).
  std::atomic<int> lowest_failed{parts};
  cpu_parallel::parallel_chunks(parts, parts, [&](std::int64_t first, std::int64_t last) {
    for (auto p = static_cast<int>(first); p < last && p < lowest_failed.load(); ++p) {
      // One matrix per LAPACK call on each thread: OpenBLAS's own threads would oversubscribe.
      // Only while the parts really run side by side: when the pool was busy and the whole
      // batch runs on this thread, LAPACK keeps OpenBLAS's threads.
      std::optional<cpu_parallel::SingleThreadedBlas> single_threaded_blas;
      if (cpu_parallel::in_parallel_part()) single_threaded_blas.emplace();
      try {
        body(bound(p), bound(p + 1));
      } catch (...) {
        failures[static_cast<std::size_t>(p)] = std::current_exception();
        int seen = lowest_failed.load();
        while (p < seen && !lowest_failed.compare_exchange_weak(seen, p)) {
        }
      }
    }
  });
  for (const std::exception_ptr& failure : failures)
    if (failure) std::rethrow_exception(failure);
}

void for_each_lane_group(std::int64_t first, std::int64_t last, int lanes,
                         const std::function<bool(std::int64_t, int)>& group,
                         const std::function<void(std::int64_t)>& one) {
  std::int64_t b = first;
  while (lanes > 0 && 2 * (last - b) >= lanes) {
    const int count = static_cast<int>(std::min<std::int64_t>(lanes, last - b));
    if (!group(b, count))
      for (std::int64_t i = b; i < b + count; ++i) one(i);
    b += count;
  }
  for (; b < last; ++b) one(b);
}

}  // namespace tenferro::linalg_cpu
