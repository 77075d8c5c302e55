// Batches of small real products, C_i = A_i B_i with m, n, k <= kSmallGemmMax, column-major and
// untransposed, in vector code of our own: OpenBLAS spends 100-150 ns on the setup of each such
// call (its packing copies, buffer allocation under a lock, a kernel tuned for large blocks),
// where 8x8 times 8x8 is 512 multiply-adds. The per-ISA kernels live in backends/cpu/isa/.
#pragma once

#include <cstdint>

#include "backends/cpu/cpu_isa.hpp"

namespace tenferro::cpu_blas {

inline constexpr std::int64_t kSmallGemmMax = 16;

// Runs the batch on `isa` (which must be available) when it applies: T float or double, no
// transposes, 1 <= m, n <= kSmallGemmMax, 0 <= k <= kSmallGemmMax, batch >= 0. Returns false
// (nothing written) otherwise, and on a CPU or build without vector kernels: the caller then
// calls BLAS. Sums over k run in order, in T, as the reference triple loop.
template <class T>
bool small_gemm_batch(cpu_isa::Isa isa, bool trans_a, bool trans_b, std::int64_t m, std::int64_t n,
                      std::int64_t k, const T* a, std::int64_t lda, std::int64_t stride_a,
                      const T* b, std::int64_t ldb, std::int64_t stride_b, T* c, std::int64_t ldc,
                      std::int64_t stride_c, std::int64_t batch);

}  // namespace tenferro::cpu_blas
