// The batch of a CPU linalg decomposition split over the host kernel threads. NumPy runs a
// batch of matrices one after the other; LAPACK's own threads (through OpenBLAS) help only large
// matrices, and a batch of small ones (QR, SVD, eigh of 8x8 to 128x128 blocks, a block-sparse
// tensor's sectors) ran on one core whatever the thread budget.
//
// Used by the decompositions (qr, svd, eigh, eig, lstsq), whose LAPACK calls do enough work per
// matrix to scale: at two threads 1.3-2.2x on batches of 8x8 to 128x128. Not by the cheap
// factorisations (lu, det, solve, inv, cholesky, triangular_solve): tried, a batch of 64 32x32
// determinants went from 240 to 330 us and 8 128x128 from 507 to 681 us (small OpenBLAS calls
// from two threads at once contend inside OpenBLAS, and a 128x128 getrf is already threaded by
// OpenBLAS itself); only large batches of them gained (512 32x32 solves 1.85x).
#pragma once

#include <cstdint>
#include <functional>
#include <type_traits>

#include "ops/linalg/cpu/common.hpp"

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
// as the sequential loop would name it (each chunk stops at its own first failure). Chunks
// begin at multiples of `granule`: the batched Jacobi kernels take groups of a vector's lanes,
// and aligned groups make which matrices go through them (and so the results' last bits) the
// same whatever the thread count.
void for_each_batch_chunk(std::int64_t batch, std::int64_t largest_dim,
                          const std::function<void(std::int64_t, std::int64_t)>& body,
                          std::int64_t granule = 1);

// Runs [first, last) through a batched kernel's groups of `lanes` matrices (its vector lanes;
// chunks from for_each_batch_chunk with granule `lanes` begin at multiples of it):
// group(begin, count) for each group, a last one only when it fills at least half of them (a
// group costs about what a full one does); one(b) for each matrix of a group that declined
// (group returned false), of the remainder, and of everything when lanes is 0. A declined
// group's matrices go one by one and the groups after it go on: which path a matrix takes then
// depends on its own group only, not on where a thread's chunk began.
void for_each_lane_group(std::int64_t first, std::int64_t last, int lanes,
                         const std::function<bool(std::int64_t, int)>& group,
                         const std::function<void(std::int64_t)>& one);

// The `group` of for_each_lane_group for a batched kernel of real matrices: kernel(begin, count)
// runs for real T only (complex matrices get no lanes, so no group), and each matrix of a group
// it took counts as the `calls_per_matrix` LAPACK calls it stands for. `kernel` takes its begin
// as `auto`, so that its body is not compiled for complex T.
template <class T, class Kernel>
std::function<bool(std::int64_t, int)> real_lane_group(int calls_per_matrix, Kernel kernel) {
  return [calls_per_matrix, kernel](std::int64_t begin, int count) {
    if constexpr (std::is_floating_point_v<T>) {
      if (!kernel(begin, count)) return false;
      for (int i = 0; i < count * calls_per_matrix; ++i) count_lapack_call();
      return true;
    } else {
      (void)calls_per_matrix, (void)kernel, (void)begin, (void)count;
      return false;
    }
  };
}

}  // namespace tenferro::linalg_cpu
