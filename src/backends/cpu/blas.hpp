// Typed CBLAS ?gemm wrappers (OpenBLAS) for the four dtypes, column-major, C = op(A) op(B).
#pragma once

#include <complex>
#include <cstdint>

namespace tenferro::cpu_blas {

// C (m x n, leading dimension ldc) = op(A) * op(B), where op(A) is m x k and op(B) is k x n;
// `trans_a` means A is stored as a k x m column-major matrix with leading dimension lda.
// k == 0 writes zeros. Throws Unsupported when an extent does not fit BLAS's int.
template <class T>
void gemm(bool trans_a, bool trans_b, std::int64_t m, std::int64_t n, std::int64_t k, const T* a,
          std::int64_t lda, const T* b, std::int64_t ldb, T* c, std::int64_t ldc);

// C_i = op(A_i) op(B_i) for i < batch, where A_i = a + i * stride_a (likewise B_i, C_i), on
// the calling thread: one counted launch (blas.cpp says why not OpenBLAS's batch entry point).
template <class T>
void gemm_batch(bool trans_a, bool trans_b, std::int64_t m, std::int64_t n, std::int64_t k,
                const T* a, std::int64_t lda, std::int64_t stride_a, const T* b, std::int64_t ldb,
                std::int64_t stride_b, T* c, std::int64_t ldc, std::int64_t stride_c,
                std::int64_t batch);

extern template void gemm<float>(bool, bool, std::int64_t, std::int64_t, std::int64_t, const float*,
                                 std::int64_t, const float*, std::int64_t, float*, std::int64_t);
extern template void gemm<double>(bool, bool, std::int64_t, std::int64_t, std::int64_t,
                                  const double*, std::int64_t, const double*, std::int64_t, double*,
                                  std::int64_t);
extern template void gemm<std::complex<float>>(bool, bool, std::int64_t, std::int64_t, std::int64_t,
                                               const std::complex<float>*, std::int64_t,
                                               const std::complex<float>*, std::int64_t,
                                               std::complex<float>*, std::int64_t);
extern template void gemm<std::complex<double>>(bool, bool, std::int64_t, std::int64_t,
                                                std::int64_t, const std::complex<double>*,
                                                std::int64_t, const std::complex<double>*,
                                                std::int64_t, std::complex<double>*, std::int64_t);

#define TENFERRO_EXTERN_GEMM_BATCH(T)                                                              \
  extern template void gemm_batch<T>(bool, bool, std::int64_t, std::int64_t, std::int64_t,         \
                                     const T*, std::int64_t, std::int64_t, const T*, std::int64_t, \
                                     std::int64_t, T*, std::int64_t, std::int64_t, std::int64_t);
TENFERRO_EXTERN_GEMM_BATCH(float)
TENFERRO_EXTERN_GEMM_BATCH(double)
TENFERRO_EXTERN_GEMM_BATCH(std::complex<float>)
TENFERRO_EXTERN_GEMM_BATCH(std::complex<double>)
#undef TENFERRO_EXTERN_GEMM_BATCH

}  // namespace tenferro::cpu_blas
