// The batch of a CPU linalg call split over the host kernel threads. NumPy runs a batch of
// matrices one after the other; LAPACK's own threads (through OpenBLAS) help only large
// matrices, and a batch of small ones (QR, SVD, eigh of 8x8 to 128x128 blocks, a block-sparse
// tensor's sectors) ran on one core whatever the thread budget.
#pragma once

#include <cstdint>
#include <functional>

namespace tenferro::linalg_cpu {

// Matrices up to this many rows and columns are split over the threads whatever the batch
// size; larger ones only when the batch has at least as many matrices as there are threads
// (else LAPACK's threaded BLAS inside one matrix uses more cores).
inline constexpr std::int64_t kBatchSplitMaxDim = 256;

// Runs body(begin, end) over [0, batch) as contiguous chunks, one per host kernel thread
// (cpu_parallel::host_kernel_threads), with OpenBLAS single-threaded meanwhile, when the batch
// has more than one matrix and `largest_dim` (the matrices' larger dimension) allows it; else
// body(0, batch) on the calling thread. Each chunk must use its own scratch and workspace. An
// exception is the one the lowest failing chunk threw, so that a failing batch entry is named
// as the sequential loop would name it (each chunk stops at its own first failure).
void for_each_batch_chunk(std::int64_t batch, std::int64_t largest_dim,
                          const std::function<void(std::int64_t, std::int64_t)>& body);

}  // namespace tenferro::linalg_cpu
