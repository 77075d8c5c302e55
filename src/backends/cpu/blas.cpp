#include "backends/cpu/blas.hpp"

#include <cblas.h>

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <string>

#include "backends/cpu/cpu_backend.hpp"
#include "tenferro/core/error.hpp"

// OpenBLAS internals used by the core-type fix below. Weak: a BLAS without them (a build
// without DYNAMIC_ARCH, another vendor) simply skips the fix.
extern "C" {
__attribute__((weak)) char* openblas_get_corename(void);
__attribute__((weak)) void gotoblas_dynamic_init(void);
__attribute__((weak)) void gotoblas_dynamic_quit(void);
}

namespace tenferro::cpu_blas {
namespace {

// Debian's OpenBLAS 0.3.21 picks its kernels by CPU model number; on a virtual CPU whose model
// it does not know (this machine reports "Intel(R) Xeon(R) Processor") it falls back to the
// generic "Prescott" SSE3 kernels, 4-5x slower than the AVX2/AVX-512 kernels the CPU can run.
// At library load (before any thread exists or any BLAS call runs) we re-select the kernels
// from the CPU's feature flags, exactly as if the user had set OPENBLAS_CORETYPE. A user's own
// OPENBLAS_CORETYPE always wins, and TENFERRO_KEEP_BLAS_CORETYPE=1 turns the fix off.
struct BlasCoreTypeFix {
  BlasCoreTypeFix() {
    if (!openblas_get_corename || !gotoblas_dynamic_init || !gotoblas_dynamic_quit) return;
    if (std::getenv("OPENBLAS_CORETYPE") || std::getenv("TENFERRO_KEEP_BLAS_CORETYPE")) return;
    const char* core = openblas_get_corename();
    if (core == nullptr) return;
    static const char* const generic[] = {"Prescott",  "Core2",  "Penryn", "Dunnington",
                                          "Nehalem",   "Atom",   "Katmai", "Coppermine",
                                          "Northwood", "Banias", "unknown"};
    bool is_generic = false;
    for (const char* g : generic) is_generic = is_generic || std::strcmp(core, g) == 0;
    if (!is_generic) return;
    __builtin_cpu_init();
    const char* better = nullptr;
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
        __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512dq"))
      better = "SkylakeX";
    else if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
      better = "Haswell";
    if (better == nullptr) return;
    setenv("OPENBLAS_CORETYPE", better, 0);
    gotoblas_dynamic_quit();
    gotoblas_dynamic_init();
    unsetenv("OPENBLAS_CORETYPE");  // leave the process environment as we found it
  }
};
const BlasCoreTypeFix blas_core_type_fix;

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
