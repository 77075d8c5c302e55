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

// y = op(A) x, op(A) rows x cols, A column-major with leading dimension lda, x and y with
// strides incx and incy. y is zeroed first: with beta = 0 a BLAS may still multiply y's old
// contents by it, and a fresh output's uninitialised bits can be a NaN.
template <class T>
void gemv(bool trans, int rows, int cols, const T* a, int lda, const T* x, int incx, T* y,
          int incy) {
  for (int i = 0; i < rows; ++i) y[static_cast<std::int64_t>(i) * incy] = T{};
  const int am = trans ? cols : rows, an = trans ? rows : cols;  // A as stored
  if constexpr (std::is_same_v<T, float>) {
    TENFERRO_BLAS_NAME(cblas_sgemv)
    (CblasColMajor, op(trans), am, an, 1.0f, a, lda, x, incx, 0.0f, y, incy);
  } else if constexpr (std::is_same_v<T, double>) {
    TENFERRO_BLAS_NAME(cblas_dgemv)
    (CblasColMajor, op(trans), am, an, 1.0, a, lda, x, incx, 0.0, y, incy);
  } else {
    const T one{1}, zero{0};
    if constexpr (std::is_same_v<T, std::complex<float>>) TENFERRO_BLAS_NAME(cblas_cgemv)
    (CblasColMajor, op(trans), am, an, &one, a, lda, x, incx, &zero, y, incy);
    else TENFERRO_BLAS_NAME(cblas_zgemv)(CblasColMajor, op(trans), am, an, &one, a, lda, x, incx,
                                         &zero, y, incy);
  }
}

// C = op(A) op(B) with one side a vector: a matrix-vector product by gemv, a dot product by dot.
// OpenBLAS's gemm runs these shapes 3-6x slower than its gemv (float32 1024^2 times a vector:
// 289 us against NumPy's 47, which calls gemv), and a 1 x 1 x k product 14x slower than its dot
// (float64, k = 65536: 104 us against 6.6; a one-row gemv 16 us).
template <class T>
bool vector_product(bool trans_a, bool trans_b, int m, int n, int k, const T* a, int lda,
                    const T* b, int ldb, T* c, int ldc) {
  if (m == 1 && n == 1) {  // row 0 of op(A) times column 0 of op(B): a dot product
    const int inc_a = trans_a ? 1 : lda, inc_b = trans_b ? ldb : 1;
    if constexpr (std::is_same_v<T, float>) {
      *c = TENFERRO_BLAS_NAME(cblas_sdot)(k, a, inc_a, b, inc_b);
    } else if constexpr (std::is_same_v<T, double>) {
      *c = TENFERRO_BLAS_NAME(cblas_ddot)(k, a, inc_a, b, inc_b);
    } else if constexpr (std::is_same_v<T, std::complex<float>>) {
      TENFERRO_BLAS_NAME(cblas_cdotu_sub)(k, a, inc_a, b, inc_b, c);
    } else {
      TENFERRO_BLAS_NAME(cblas_zdotu_sub)(k, a, inc_a, b, inc_b, c);
    }
    return true;
  }
  if (n == 1) {  // c (m) = op(A) (m x k) times column 0 of op(B)
    gemv(trans_a, m, k, a, lda, b, trans_b ? ldb : 1, c, 1);
    return true;
  }
  if (m == 1) {  // c^T (n) = op(B)^T (n x k) times row 0 of op(A)
    gemv(!trans_b, n, k, b, ldb, a, trans_a ? 1 : lda, c, ldc);
    return true;
  }
  return false;
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
  if (vector_product(trans_a, trans_b, M, N, K, a, LDA, b, LDB, c, LDC)) return;
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
