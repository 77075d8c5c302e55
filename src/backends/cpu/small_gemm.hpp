// Batches of small real products, C_i = A_i B_i with m, n, k <= small_gemm_max, column-major and
// untransposed, in vector code of our own: OpenBLAS spends 100-150 ns on the setup of each such
// call (its packing copies, buffer allocation under a lock, a kernel tuned for large blocks),
// where 8x8 times 8x8 is 512 multiply-adds. The per-ISA kernels live in backends/cpu/isa/.
#pragma once

#include <cstdint>

#include "backends/cpu/cpu_isa.hpp"

namespace tenferro::cpu_blas {

// The largest m, n and k of any ISA's kernels (the size of their table of row counts).
inline constexpr std::int64_t kSmallGemmMax = 32;

// The largest m, n and k the kernels take on `isa`: kSmallGemmMax with AVX-512, where they beat
// OpenBLAS's kernels up to 32 (one thread, 64 float64 products of 24x24: 15.9 us against 18.3
// us; of 32x32 41 us against 45 us), 16 with AVX2, where OpenBLAS wins above it (24x24: 36.5 us
// against 18.3 us); 0 without vector kernels.
std::int64_t small_gemm_max(cpu_isa::Isa isa);

// Runs the batch on `isa` (which must be available) when it applies: T float or double, no
// transposes, 1 <= m, n <= small_gemm_max(isa), 0 <= k <= small_gemm_max(isa), batch >= 0.
// Returns false
// (nothing written) otherwise, and on a CPU or build without vector kernels: the caller then
// calls BLAS. Sums over k run in order, in T, as the reference triple loop.
template <class T>
bool small_gemm_batch(cpu_isa::Isa isa, bool trans_a, bool trans_b, std::int64_t m, std::int64_t n,
                      std::int64_t k, const T* a, std::int64_t lda, std::int64_t stride_a,
                      const T* b, std::int64_t ldb, std::int64_t stride_b, T* c, std::int64_t ldc,
                      std::int64_t stride_c, std::int64_t batch);

}  // namespace tenferro::cpu_blas
