// The thread budget of tenferro's own host kernels (strided copies, batches of small GEMMs;
// BLAS, LAPACK and FFTW keep their own) and the one way they split work over threads.
#pragma once

#include <cstdint>
#include <functional>

namespace tenferro::cpu_parallel {

// TENFERRO_NUM_THREADS when set to a positive integer (taken as asked, even above the core
// count); otherwise OpenBLAS's thread count (so OPENBLAS_NUM_THREADS=1 keeps everything on one
// core), capped by the hardware. Read once per process.
int host_kernel_threads();

// Runs body(begin, end) over [0, count) cut into min(threads, count) contiguous chunks of
// ceil(count / chunks) on persistent workers: the calling thread and the workers claim chunks one
// at a time (the caller first, and any no worker has claimed by the time it is free), each chunk
// runs exactly once; waits for all, then rethrows the first exception. While another thread's split
// is running, or when called from inside a chunk of a split, the caller runs the whole range itself
// (one split at a time keeps the machine from being oversubscribed; nested splits run on the thread
// that reaches them).
void parallel_chunks(std::int64_t count, int threads,
                     const std::function<void(std::int64_t, std::int64_t)>& body);

// Whether the workers a split over `threads` threads needs are awake now: they finished a
// split less than 60 us ago, or were woken (wake_host_workers) less than 100 us ago, and watch for
// the next one, so a split started now costs no wake-up of a parked thread (tens of
// microseconds on a virtual machine). For callers whose work is worth splitting only then.
bool host_workers_awake(int threads);

// Wakes the parked workers a split over `threads` threads needs, without a job: they watch for
// one for a spin window and park again. A caller that ran a range alone because the workers
// were parked calls it, so that its next call, in a loop, finds them awake. Does nothing when
// they are awake, or from inside a split.
void wake_host_workers(int threads);

// Ends the workers' watch for the next split now, so they leave the CPU to threads that need it:
// the GEMM wrapper (blas.cpp) calls it before OpenBLAS, whose own threads may want the cores.
// A few instructions when no worker watches; nothing with one host thread or inside a split.
void park_host_workers();

// How many splits have run over the workers in this process (a diagnostic for tests).
std::uint64_t host_splits_run();

// Whether this thread is running a part of a split now (the caller's own parts included): false
// when parallel_chunks ran the whole range on its caller without splitting (one part, a busy
// pool); true in the parts of a split even when the caller ends up running all of them.
bool in_parallel_part();

// While at least one of these lives, OpenBLAS runs every call on its calling thread, so that
// work already spread over the host threads (the slices of a sliced einsum) does not have each
// GEMM start OpenBLAS's own threads as well. OpenBLAS's thread count is process-wide: other
// threads' BLAS calls in that time are single-threaded too. The last one to go restores the
// count the first one found. A no-op when the BLAS is not OpenBLAS.
class SingleThreadedBlas {
 public:
  SingleThreadedBlas();
  ~SingleThreadedBlas();
  SingleThreadedBlas(const SingleThreadedBlas&) = delete;
  SingleThreadedBlas& operator=(const SingleThreadedBlas&) = delete;
};

}  // namespace tenferro::cpu_parallel
