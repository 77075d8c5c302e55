// The entry points each per-ISA small-GEMM file defines (small_gemm_avx2.cpp,
// small_gemm_avx512.cpp); only backends/cpu/small_gemm.cpp calls them, after the CPU check.
#pragma once

#include <cstdint>

namespace tenferro::cpu_blas::isa {

#define TENFERRO_SMALL_GEMM_DECLARE(T, suffix)                                                    \
  void small_gemm_##suffix(std::int64_t m, std::int64_t n, std::int64_t k, const T* a,            \
                           std::int64_t lda, std::int64_t stride_a, const T* b, std::int64_t ldb, \
                           std::int64_t stride_b, T* c, std::int64_t ldc, std::int64_t stride_c,  \
                           std::int64_t batch);
TENFERRO_SMALL_GEMM_DECLARE(float, f32_avx2)
TENFERRO_SMALL_GEMM_DECLARE(double, f64_avx2)
TENFERRO_SMALL_GEMM_DECLARE(float, f32_avx512)
TENFERRO_SMALL_GEMM_DECLARE(double, f64_avx512)
#undef TENFERRO_SMALL_GEMM_DECLARE

}  // namespace tenferro::cpu_blas::isa
