#include "backends/cpu/host_parallel.hpp"

#include <pthread.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <exception>
#include <mutex>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

#include "backends/cpu/blas_names.hpp"
#include "core/spin_lock.hpp"

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

// How long a worker that finished its part watches for the next job before it parks on a
// condition variable (one woken without a job, wake(), watches longer: a split is expected), and
// how long a caller that finished its own part watches for the workers'. On the 2-vCPU virtual
// machine waking a parked thread costs tens of microseconds, and two threads are not even
// scheduled side by side for a while after an idle spell: add of float64 2^20 split over two
// threads took 340 us after a 2 ms pause (one thread: 320), 200-220 us back to back with parked
// workers, 109-150 us back to back with workers that watch. A caller that watches long holds
// the CPU its worker is waiting for after such a pause (the same call took 510-600 us with
// 100 us of watching in the caller), so the caller watches only for a near tie. A watching
// worker also slows the caller's own work between splits on this machine (an einsum of 40
// tensors at two threads, whose copies split between GEMMs: 1.10-1.17 ms with 100 us of
// watching after a split, 0.98-1.09 ms with 30 us, 0.98-0.99 ms with 60 us, 0.95-1.05 ms with
// parked workers in the same runs), while element-wise loops at two threads lose with a short
// watch (everyday_peers' two-thread mean 1.79-1.83x with 100 us, 1.76x with 60, 1.62x with 30):
// hence 60 us after a split, and park_host_workers before a BLAS call. OpenBLAS's own idle spin
// is about 0.1 s.
constexpr auto kSpinWindow = std::chrono::microseconds(60);
constexpr auto kWokenWindow = std::chrono::microseconds(100);
constexpr auto kCallerSpin = std::chrono::microseconds(5);

// Polls `done` until it holds or `window` has passed (the clock read every 64 polls: a read
// costs about as much as the poll itself); whether it held. It yields the CPU at each clock
// read, so a thread that has work on this CPU (OpenBLAS's own workers after a split of ours,
// another process) is not kept waiting for the window.
template <class Done>
bool spin_until(Done done, std::chrono::microseconds window = kSpinWindow) {
  const auto until = std::chrono::steady_clock::now() + window;
  for (;;) {
    for (int i = 0; i < 64; ++i) {
      if (done()) return true;
      core::cpu_relax();
    }
    if (std::chrono::steady_clock::now() >= until) return done();
    std::this_thread::yield();
  }
}

// One job at a time over persistent workers: starting threads per call cost 40-60 us here,
// waking parked ones a few to tens (see kSpinWindow). The caller and the workers claim the
// job's parts one at a time from a shared counter; the caller claims first and keeps claiming,
// so a part no worker has claimed by the time the caller is free runs on the caller. On this
// virtual machine the second vCPU is sometimes not scheduled for a while: add of float64 2^16
// split into a part per thread took 13-23 us in such stretches against 14 on one thread and 6
// otherwise; a late worker now finds nothing left to claim, and the call costs what one thread
// does. A caller that finds the pool busy (another thread's job is running) does its whole range
// itself rather than wait.
class WorkerPool {
  using Job = std::function<void(int)>;
  // claim_ holds the job's generation above kPartBits and its next unclaimed part below, so a
  // worker that took its job from an earlier generation can never claim a part of this one.
  static constexpr int kPartBits = 24;
  static constexpr int kMaxParts = (1 << kPartBits) - 1;  // more are fewer, longer chunks

 public:
  // Runs body over `parts` chunks; false when the pool is busy (nothing was run).
  bool try_run(std::int64_t count, int parts,
               const std::function<void(std::int64_t, std::int64_t)>& body) {
    std::unique_lock busy(job_mutex_, std::try_to_lock);
    if (!busy.owns_lock()) return false;
    parts = std::min(parts, kMaxParts);
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
    std::uint64_t generation = 0;
    {
      std::lock_guard lock(mutex_);
      add_workers(parts - 1);  // those it could not start: the caller claims their parts
      job_ = &run_part;
      parts_ = parts;
      done_parts_.store(0, std::memory_order_relaxed);
      generation = generation_.load(std::memory_order_relaxed) + 1;
      claim_.store(generation << kPartBits, std::memory_order_relaxed);
      // Published under the mutex (a parked worker's wait reads it there) and with release
      // order (a spinning worker reads job_ and parts_ after it, under the mutex too).
      generation_.store(generation, std::memory_order_release);
    }
    wake_.notify_all();  // no system call when every worker is spinning
    for (int part; claim(generation, parts, part);) finish(part, parts, run_part);
    const auto all_done = [&] { return done_parts_.load(std::memory_order_acquire) == parts; };
    if (!spin_until(all_done, kCallerSpin)) {
      std::unique_lock lock(mutex_);
      done_.wait(lock, all_done);
    }
    {
      std::lock_guard lock(mutex_);
      job_ = nullptr;
    }
    splits_.fetch_add(1, std::memory_order_relaxed);
    for (const auto& e : errors)
      if (e) std::rethrow_exception(e);
    return true;
  }

  std::uint64_t splits() const { return splits_.load(std::memory_order_relaxed); }

  // Ends the workers' watch now (see park_host_workers): no system call.
  void park() {
    if (spinning_.load(std::memory_order_relaxed) > 0)
      park_epoch_.fetch_add(1, std::memory_order_relaxed);
  }

  // Whether `workers` workers are spinning now (see host_workers_awake).
  bool awake(int workers) const { return spinning_.load(std::memory_order_relaxed) >= workers; }

  // Wakes the parked workers to watch for a kWokenWindow (see wake_host_workers).
  void wake(int workers) {
    if (awake(workers)) return;
    {
      std::lock_guard lock(mutex_);
      add_workers(workers);
      ++wake_epoch_;
    }
    wake_.notify_all();
  }

 private:
  // Starts workers until there are `count` (mutex_ held). A thread the system refuses (a process
  // or address-space limit) is not an error: the parts go to the threads that exist, the caller
  // included, and the call costs what it would on fewer threads.
  void add_workers(int count) {
    while (static_cast<int>(workers_.size()) < count) {
      try {
        workers_.emplace_back([this] { work(); });
      } catch (const std::system_error&) {
        return;
      }
    }
  }

  // The next unclaimed part of job `generation` (of `parts`) into `part`; false when there is
  // none left, or the job is over.
  bool claim(std::uint64_t generation, int parts, int& part) {
    std::uint64_t state = claim_.load(std::memory_order_acquire);
    for (;;) {
      const std::uint64_t next = state & kMaxParts;
      if ((state >> kPartBits) != generation || next >= static_cast<std::uint64_t>(parts))
        return false;
      if (claim_.compare_exchange_weak(state, state + 1, std::memory_order_acq_rel)) {
        part = static_cast<int>(next);
        return true;
      }
    }
  }

  // Runs a claimed part and counts it done; the one that completes the job wakes a parked caller.
  void finish(int part, int parts, const Job& job) {
    job(part);
    if (done_parts_.fetch_add(1, std::memory_order_acq_rel) + 1 == parts) {
      // The caller checks done_parts_ under the mutex before it parks: passing through the
      // mutex here means it is either still spinning or already parked, never in between.
      { std::lock_guard lock(mutex_); }
      done_.notify_one();
    }
  }

  [[noreturn]] void work() {
    std::uint64_t seen = 0, seen_wake = 0;
    bool woken = false;  // by wake(), for a split that is expected to come
    for (;;) {
      spinning_.fetch_add(1, std::memory_order_relaxed);
      const std::uint64_t park_seen = park_epoch_.load(std::memory_order_relaxed);
      spin_until(
          [&] {
            return generation_.load(std::memory_order_acquire) != seen ||
                   park_epoch_.load(std::memory_order_relaxed) != park_seen;
          },
          woken ? kWokenWindow : kSpinWindow);
      woken = false;
      spinning_.fetch_sub(1, std::memory_order_relaxed);
      const Job* job = nullptr;
      int parts = 0;
      {
        std::unique_lock lock(mutex_);
        wake_.wait(lock, [&] {
          return generation_.load(std::memory_order_relaxed) != seen || wake_epoch_ != seen_wake;
        });
        seen_wake = wake_epoch_;
        if (generation_.load(std::memory_order_relaxed) == seen) {  // woken to spin
          woken = true;
          continue;
        }
        seen = generation_.load(std::memory_order_relaxed);
        job = job_;
        parts = parts_;
      }
      // job_ is null once the caller has returned: every part was claimed and done.
      if (job == nullptr) continue;
      for (int part; claim(seen, parts, part);) finish(part, parts, *job);
    }
  }

  std::mutex job_mutex_;  // held by the caller whose job is running
  std::mutex mutex_;      // guards job_, parts_ and the workers; the atomics are read without it
  std::condition_variable wake_, done_;
  std::vector<std::thread> workers_;  // parked forever between jobs; never joined (see pool())
  const Job* job_ = nullptr;
  int parts_ = 0;
  std::uint64_t wake_epoch_ = 0;  // a wake without a job (wake())
  std::atomic<std::uint64_t> claim_{0};
  std::atomic<int> done_parts_{0};
  std::atomic<int> spinning_{0};          // workers watching generation_ now
  std::atomic<std::uint64_t> splits_{0};  // jobs run over the workers
  std::atomic<std::uint64_t> generation_{0};
  std::atomic<std::uint64_t> park_epoch_{0};  // a change ends every watch (park())
};

// The process's pool: created on first use and deliberately never destroyed (its workers are
// parked in a wait at exit, and destroying a pool whose threads may still be running would be
// worse).
std::atomic<WorkerPool*>& pool_slot() {
  static std::atomic<WorkerPool*> slot{nullptr};
  return slot;
}

// In the child of a fork (Python's multiprocessing, say) the parent's workers do not exist, and
// a lock one of them held at the fork stays held: the child starts a pool of its own and leaves
// the parent's behind.
void start_pool_in_child() {
  pool_slot().store(new WorkerPool(), std::memory_order_release);
}

WorkerPool& pool() {
  static const bool started = [] {
    pool_slot().store(new WorkerPool(), std::memory_order_release);
    pthread_atfork(nullptr, nullptr, &start_pool_in_child);
    return true;
  }();
  (void)started;
  return *pool_slot().load(std::memory_order_acquire);
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

std::uint64_t host_splits_run() {
  return pool().splits();
}

bool host_workers_awake(int threads) {
  return threads <= 1 || pool().awake(threads - 1);
}

void park_host_workers() {
  if (host_kernel_threads() > 1 && !t_in_split) pool().park();
}

void wake_host_workers(int threads) {
  if (threads > 1 && !t_in_split) pool().wake(threads - 1);
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
