#include "backends/cpu/blas.hpp"

#include <cblas.h>

#include "backends/cpu/blas_names.hpp"

#include <algorithm>
#include <climits>
#include <string>
#include <type_traits>

#include "backends/cpu/cpu_backend.hpp"
#include "backends/cpu/host_parallel.hpp"
#include "backends/cpu/small_gemm.hpp"
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

template <class T>
void gemm_uncounted(bool trans_a, bool trans_b, std::int64_t m, std::int64_t n, std::int64_t k,
                    const T* a, std::int64_t lda, const T* b, std::int64_t ldb, T* c,
                    std::int64_t ldc) {
  if (m == 0 || n == 0) return;
  if (k == 0) {
    for (std::int64_t j = 0; j < n; ++j) std::fill(c + j * ldc, c + j * ldc + m, T{});
    return;
  }
  const int M = blas_int(m), N = blas_int(n), K = blas_int(k);
  const int LDA = blas_int(lda), LDB = blas_int(ldb), LDC = blas_int(ldc);
  cpu_parallel::park_host_workers();  // OpenBLAS's threads may want the other cores
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

}  // namespace

template <class T>
void gemm_batch(bool trans_a, bool trans_b, std::int64_t m, std::int64_t n, std::int64_t k,
                const T* a, std::int64_t lda, std::int64_t stride_a, const T* b, std::int64_t ldb,
                std::int64_t stride_b, T* c, std::int64_t ldc, std::int64_t stride_c,
                std::int64_t batch) {
  if (m == 0 || n == 0 || batch == 0) return;
  // One counted launch: small real products in our own vector code (small_gemm.hpp), the rest
  // one BLAS call per matrix, on the calling thread (the caller splits a large batch over the
  // host pool). OpenBLAS's cblas_?gemm_batch_strided was measured here and not used: on small
  // matrices it hands the batch to its own threads, 30x slower than this loop at
  // OPENBLAS_NUM_THREADS=2 on a busy 2-core machine (256 8x8: 1.3-1.7 ms against 41-57 us) and
  // no faster at one thread; its complex entry points also count the batch strides in real
  // scalars, not in elements.
  count_cpu_kernel_launch();
  if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
    if (small_gemm_batch<T>(cpu_isa::best_isa(), trans_a, trans_b, m, n, k, a, lda, stride_a, b,
                            ldb, stride_b, c, ldc, stride_c, batch)) {
      return;
    }
  }
  for (std::int64_t i = 0; i < batch; ++i) {
    gemm_uncounted<T>(trans_a, trans_b, m, n, k, a + i * stride_a, lda, b + i * stride_b, ldb,
                      c + i * stride_c, ldc);
  }
}

template <class T>
void gemm(bool trans_a, bool trans_b, std::int64_t m, std::int64_t n, std::int64_t k, const T* a,
          std::int64_t lda, const T* b, std::int64_t ldb, T* c, std::int64_t ldc) {
  if (m == 0 || n == 0) return;
  count_cpu_kernel_launch();
  if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
    // A small product alone, as one of a batch (small_gemm.hpp): the tiny contractions of a
    // network with small bonds spent most of their time in OpenBLAS's setup.
    if (small_gemm_batch<T>(cpu_isa::best_isa(), trans_a, trans_b, m, n, k, a, lda, 0, b, ldb, 0, c,
                            ldc, 0, 1)) {
      return;
    }
  }
  gemm_uncounted<T>(trans_a, trans_b, m, n, k, a, lda, b, ldb, c, ldc);
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
