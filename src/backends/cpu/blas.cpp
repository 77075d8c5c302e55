#include "backends/cpu/blas.hpp"

#include <cblas.h>

#include "backends/cpu/blas_names.hpp"

#include <algorithm>
#include <climits>
#include <string>

#include "backends/cpu/cpu_backend.hpp"
#include "tenferro/core/error.hpp"

namespace tenferro::cpu_blas {
namespace {

int blas_int(std::int64_t v) {
  if (v < 0 || v > INT_MAX)
    throw_error(ErrorKind::Unsupported, ErrorPhase::Execute, "gemm",
                "extent " + std::to_string(v) + " does not fit the BLAS integer type");
  return static_cast<int>(v);
}

CBLAS_TRANSPOSE op(bool trans) {
  return trans ? CblasTrans : CblasNoTrans;
}

}  // namespace

template <class T>
void gemm(bool trans_a, bool trans_b, std::int64_t m, std::int64_t n, std::int64_t k, const T* a,
          std::int64_t lda, const T* b, std::int64_t ldb, T* c, std::int64_t ldc) {
  if (m == 0 || n == 0) return;
  count_cpu_kernel_launch();
  if (k == 0) {
    for (std::int64_t j = 0; j < n; ++j) std::fill(c + j * ldc, c + j * ldc + m, T{});
    return;
  }
  const int M = blas_int(m), N = blas_int(n), K = blas_int(k);
  const int LDA = blas_int(lda), LDB = blas_int(ldb), LDC = blas_int(ldc);
  if constexpr (std::is_same_v<T, float>) {
    TENFERRO_BLAS_NAME(cblas_sgemm)
    (CblasColMajor, op(trans_a), op(trans_b), M, N, K, 1.0f, a, LDA, b, LDB, 0.0f, c, LDC);
  } else if constexpr (std::is_same_v<T, double>) {
    TENFERRO_BLAS_NAME(cblas_dgemm)
    (CblasColMajor, op(trans_a), op(trans_b), M, N, K, 1.0, a, LDA, b, LDB, 0.0, c, LDC);
  } else {
    const T one{1}, zero{0};
    if constexpr (std::is_same_v<T, std::complex<float>>) TENFERRO_BLAS_NAME(cblas_cgemm)
    (CblasColMajor, op(trans_a), op(trans_b), M, N, K, &one, a, LDA, b, LDB, &zero, c, LDC);
    else TENFERRO_BLAS_NAME(cblas_zgemm)(CblasColMajor, op(trans_a), op(trans_b), M, N, K, &one, a,
                                         LDA, b, LDB, &zero, c, LDC);
  }
}

template <class T>
void gemm_batch(bool trans_a, bool trans_b, std::int64_t m, std::int64_t n, std::int64_t k,
                const T* a, std::int64_t lda, std::int64_t stride_a, const T* b, std::int64_t ldb,
                std::int64_t stride_b, T* c, std::int64_t ldc, std::int64_t stride_c,
                std::int64_t batch) {
  if (m == 0 || n == 0 || batch == 0) return;
  const auto fits = [](std::int64_t v) { return v >= 0 && v <= INT_MAX; };
#if TENFERRO_BLAS_SCIPY
  // OpenBLAS counts the batch strides of its complex entry points in real scalars (measured on
  // 0.3.34: a stride in complex elements reads the wrong matrices), so they are doubled there;
  // CpuBatchedGemm.* checks every dtype against per-matrix calls.
  constexpr std::int64_t unit = std::is_same_v<T, float> || std::is_same_v<T, double> ? 1 : 2;
  stride_a *= unit;
  stride_b *= unit;
  stride_c *= unit;
  if (batch > 1 && k > 0 && fits(stride_a) && fits(stride_b) && fits(stride_c) && fits(batch)) {
    count_cpu_kernel_launch();
    const int M = blas_int(m), N = blas_int(n), K = blas_int(k);
    const int LDA = blas_int(lda), LDB = blas_int(ldb), LDC = blas_int(ldc);
    const int SA = static_cast<int>(stride_a), SB = static_cast<int>(stride_b);
    const int SC = static_cast<int>(stride_c), B = static_cast<int>(batch);
    const auto ta = op(trans_a), tb = op(trans_b);
    if constexpr (std::is_same_v<T, float>) {
      TENFERRO_BLAS_NAME(cblas_sgemm_batch_strided)
      (CblasColMajor, ta, tb, M, N, K, 1.0f, a, LDA, SA, b, LDB, SB, 0.0f, c, LDC, SC, B);
    } else if constexpr (std::is_same_v<T, double>) {
      TENFERRO_BLAS_NAME(cblas_dgemm_batch_strided)
      (CblasColMajor, ta, tb, M, N, K, 1.0, a, LDA, SA, b, LDB, SB, 0.0, c, LDC, SC, B);
    } else {
      const T one{1}, zero{0};
      if constexpr (std::is_same_v<T, std::complex<float>>)
        TENFERRO_BLAS_NAME(cblas_cgemm_batch_strided)
      (CblasColMajor, ta, tb, M, N, K, &one, a, LDA, SA, b, LDB, SB, &zero, c, LDC, SC, B);
      else TENFERRO_BLAS_NAME(cblas_zgemm_batch_strided)(CblasColMajor, ta, tb, M, N, K, &one, a,
                                                         LDA, SA, b, LDB, SB, &zero, c, LDC, SC, B);
    }
    return;
  }
  stride_a /= unit;
  stride_b /= unit;
  stride_c /= unit;
#else
  (void)fits;
#endif
  for (std::int64_t i = 0; i < batch; ++i) {
    gemm<T>(trans_a, trans_b, m, n, k, a + i * stride_a, lda, b + i * stride_b, ldb,
            c + i * stride_c, ldc);
  }
}

template void gemm<float>(bool, bool, std::int64_t, std::int64_t, std::int64_t, const float*,
                          std::int64_t, const float*, std::int64_t, float*, std::int64_t);
template void gemm<double>(bool, bool, std::int64_t, std::int64_t, std::int64_t, const double*,
                           std::int64_t, const double*, std::int64_t, double*, std::int64_t);
template void gemm<std::complex<float>>(bool, bool, std::int64_t, std::int64_t, std::int64_t,
                                        const std::complex<float>*, std::int64_t,
                                        const std::complex<float>*, std::int64_t,
                                        std::complex<float>*, std::int64_t);
template void gemm<std::complex<double>>(bool, bool, std::int64_t, std::int64_t, std::int64_t,
                                         const std::complex<double>*, std::int64_t,
                                         const std::complex<double>*, std::int64_t,
                                         std::complex<double>*, std::int64_t);

#define TENFERRO_GEMM_BATCH(T)                                                                  \
  template void gemm_batch<T>(bool, bool, std::int64_t, std::int64_t, std::int64_t, const T*,   \
                              std::int64_t, std::int64_t, const T*, std::int64_t, std::int64_t, \
                              T*, std::int64_t, std::int64_t, std::int64_t);
TENFERRO_GEMM_BATCH(float)
TENFERRO_GEMM_BATCH(double)
TENFERRO_GEMM_BATCH(std::complex<float>)
TENFERRO_GEMM_BATCH(std::complex<double>)
#undef TENFERRO_GEMM_BATCH

}  // namespace tenferro::cpu_blas
