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

// Runs body(begin, end) over [0, count) cut into min(threads, count) contiguous chunks, the
// calling thread taking the first. Joins every helper, then rethrows the first exception.
void parallel_chunks(std::int64_t count, int threads,
                     const std::function<void(std::int64_t, std::int64_t)>& body);

}  // namespace tenferro::cpu_parallel
