#include "backends/cpu/host_parallel.hpp"

#include <algorithm>
#include <condition_variable>
#include <cstdlib>
#include <exception>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "backends/cpu/blas_names.hpp"

extern "C" __attribute__((weak)) int TENFERRO_BLAS_NAME(openblas_get_num_threads)(void);
extern "C" __attribute__((weak)) void TENFERRO_BLAS_NAME(openblas_set_num_threads)(int);

namespace tenferro::cpu_parallel {
namespace {

// Set while this thread runs a part of a split: a split started from inside one runs on this
// thread alone (the pool is taken, and the calling part's thread holds its job mutex, which
// it must not try to lock again).
thread_local bool t_in_split = false;

struct InSplit {
  bool saved = t_in_split;
  InSplit() { t_in_split = true; }
  ~InSplit() { t_in_split = saved; }
};

int requested_threads() {
  const char* value = std::getenv("TENFERRO_NUM_THREADS");
  if (value == nullptr || *value == '\0') return 0;
  char* end = nullptr;
  const long n = std::strtol(value, &end, 10);
  if (*end != '\0' || n < 1 || n > 1024) return 0;  // not a thread count: use the default
  return static_cast<int>(n);
}

// One job at a time over persistent workers: starting threads per call cost 40-60 us here,
// waking parked ones a few. Worker w (1-based) runs part w of the current job; the caller
// runs part 0 and waits for the rest. A caller that finds the pool busy (another thread's job
// is running) does its whole range itself rather than wait.
class WorkerPool {
  using Job = std::function<void(int)>;

 public:
  // Runs body over `parts` chunks; false when the pool is busy (nothing was run).
  bool try_run(std::int64_t count, int parts,
               const std::function<void(std::int64_t, std::int64_t)>& body) {
    std::unique_lock busy(job_mutex_, std::try_to_lock);
    if (!busy.owns_lock()) return false;
    const std::int64_t chunk = (count + parts - 1) / parts;
    std::vector<std::exception_ptr> errors(static_cast<std::size_t>(parts));
    const Job run_part = [&](int part) {
      const InSplit in_split;
      try {
        body(std::min(count, part * chunk), std::min(count, (part + 1) * chunk));
      } catch (...) {
        errors[static_cast<std::size_t>(part)] = std::current_exception();
      }
    };
    {
      std::lock_guard lock(mutex_);
      while (static_cast<int>(workers_.size()) < parts - 1) {
        const int id = static_cast<int>(workers_.size()) + 1;
        workers_.emplace_back([this, id] { work(id); });
      }
      job_ = &run_part;
      parts_ = parts;
      pending_ = parts - 1;
      ++generation_;
    }
    wake_.notify_all();
    run_part(0);
    {
      std::unique_lock lock(mutex_);
      done_.wait(lock, [&] { return pending_ == 0; });
      job_ = nullptr;
    }
    for (const auto& e : errors)
      if (e) std::rethrow_exception(e);
    return true;
  }

 private:
  [[noreturn]] void work(int id) {
    std::uint64_t seen = 0;
    for (;;) {
      const Job* job = nullptr;
      {
        std::unique_lock lock(mutex_);
        wake_.wait(lock, [&] { return generation_ != seen; });
        seen = generation_;
        if (id >= parts_) continue;  // this job has fewer parts than there are workers
        job = job_;
      }
      (*job)(id);
      {
        std::lock_guard lock(mutex_);
        --pending_;
      }
      done_.notify_one();
    }
  }

  std::mutex job_mutex_;  // held by the caller whose job is running
  std::mutex mutex_;      // guards everything below
  std::condition_variable wake_, done_;
  std::vector<std::thread> workers_;  // parked forever between jobs; never joined (see pool())
  const Job* job_ = nullptr;
  int parts_ = 0, pending_ = 0;
  std::uint64_t generation_ = 0;
};

// Created on first use and deliberately never destroyed: its workers are parked in a wait at
// exit, and destroying a pool whose threads may still be running would be worse.
WorkerPool& pool() {
  static WorkerPool* const instance = new WorkerPool();
  return *instance;
}

}  // namespace

int host_kernel_threads() {
  static const int threads = [] {
    if (const int asked = requested_threads(); asked > 0) return asked;
    const int blas = TENFERRO_BLAS_NAME(openblas_get_num_threads)
                         ? TENFERRO_BLAS_NAME(openblas_get_num_threads)()
                         : 1;
    const int hw = static_cast<int>(std::thread::hardware_concurrency());
    return std::max(1, std::min(blas, hw > 0 ? hw : 1));
  }();
  return threads;
}

bool in_parallel_part() {
  return t_in_split;
}

void parallel_chunks(std::int64_t count, int threads,
                     const std::function<void(std::int64_t, std::int64_t)>& body) {
  const int parts = static_cast<int>(std::min<std::int64_t>(std::max(threads, 1), count));
  if (parts <= 1 || t_in_split || !pool().try_run(count, parts, body)) {
    if (count > 0) body(0, count);
  }
}

namespace {
std::mutex g_blas_mutex;
int g_blas_holders = 0;
int g_blas_saved_threads = 0;
}  // namespace

SingleThreadedBlas::SingleThreadedBlas() {
  if (!TENFERRO_BLAS_NAME(openblas_get_num_threads) ||
      !TENFERRO_BLAS_NAME(openblas_set_num_threads))
    return;
  std::lock_guard lock(g_blas_mutex);
  if (g_blas_holders++ == 0) {
    g_blas_saved_threads = TENFERRO_BLAS_NAME(openblas_get_num_threads)();
    if (g_blas_saved_threads != 1) TENFERRO_BLAS_NAME(openblas_set_num_threads)(1);
  }
}

SingleThreadedBlas::~SingleThreadedBlas() {
  if (!TENFERRO_BLAS_NAME(openblas_get_num_threads) ||
      !TENFERRO_BLAS_NAME(openblas_set_num_threads))
    return;
  std::lock_guard lock(g_blas_mutex);
  if (--g_blas_holders == 0 && g_blas_saved_threads != 1)
    TENFERRO_BLAS_NAME(openblas_set_num_threads)(g_blas_saved_threads);
}

}  // namespace tenferro::cpu_parallel
