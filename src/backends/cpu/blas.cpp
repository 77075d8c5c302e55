#include "backends/cpu/blas.hpp"

#include <cblas.h>

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
    cblas_sgemm(CblasColMajor, op(trans_a), op(trans_b), M, N, K, 1.0f, a, LDA, b, LDB, 0.0f, c,
                LDC);
  } else if constexpr (std::is_same_v<T, double>) {
    cblas_dgemm(CblasColMajor, op(trans_a), op(trans_b), M, N, K, 1.0, a, LDA, b, LDB, 0.0, c, LDC);
  } else {
    const T one{1}, zero{0};
    if constexpr (std::is_same_v<T, std::complex<float>>)
      cblas_cgemm(CblasColMajor, op(trans_a), op(trans_b), M, N, K, &one, a, LDA, b, LDB, &zero, c,
                  LDC);
    else
      cblas_zgemm(CblasColMajor, op(trans_a), op(trans_b), M, N, K, &one, a, LDA, b, LDB, &zero, c,
                  LDC);
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

}  // namespace tenferro::cpu_blas
