#include "backends/cpu/small_gemm.hpp"

#include <type_traits>

#if defined(__x86_64__)
#include "backends/cpu/isa/small_gemm_entry.hpp"
#endif

namespace tenferro::cpu_blas {

std::int64_t small_gemm_max(cpu_isa::Isa isa) {
#if defined(__x86_64__)
  return isa == cpu_isa::Isa::Avx512 ? kSmallGemmMax : isa == cpu_isa::Isa::Avx2 ? 16 : 0;
#else
  (void)isa;
  return 0;
#endif
}

template <class T>
bool small_gemm_batch(cpu_isa::Isa isa, bool trans_a, bool trans_b, std::int64_t m, std::int64_t n,
                      std::int64_t k, const T* a, std::int64_t lda, std::int64_t stride_a,
                      const T* b, std::int64_t ldb, std::int64_t stride_b, T* c, std::int64_t ldc,
                      std::int64_t stride_c, std::int64_t batch) {
  const std::int64_t top = small_gemm_max(isa);
  if (trans_a || trans_b || m < 1 || n < 1 || k < 0 || batch < 0 || m > top || n > top || k > top) {
    return false;
  }
#if defined(__x86_64__)
  if (isa == cpu_isa::Isa::None) return false;
  const bool wide = isa == cpu_isa::Isa::Avx512;
  if constexpr (std::is_same_v<T, float>) {
    (wide ? &cpu_blas::isa::small_gemm_f32_avx512 : &cpu_blas::isa::small_gemm_f32_avx2)(
        m, n, k, a, lda, stride_a, b, ldb, stride_b, c, ldc, stride_c, batch);
  } else {
    (wide ? &cpu_blas::isa::small_gemm_f64_avx512 : &cpu_blas::isa::small_gemm_f64_avx2)(
        m, n, k, a, lda, stride_a, b, ldb, stride_b, c, ldc, stride_c, batch);
  }
  return true;
#else
  (void)isa, (void)a, (void)lda, (void)stride_a, (void)b, (void)ldb, (void)stride_b, (void)c;
  (void)ldc, (void)stride_c;
  return false;
#endif
}

template bool small_gemm_batch<float>(cpu_isa::Isa, bool, bool, std::int64_t, std::int64_t,
                                      std::int64_t, const float*, std::int64_t, std::int64_t,
                                      const float*, std::int64_t, std::int64_t, float*,
                                      std::int64_t, std::int64_t, std::int64_t);
template bool small_gemm_batch<double>(cpu_isa::Isa, bool, bool, std::int64_t, std::int64_t,
                                       std::int64_t, const double*, std::int64_t, std::int64_t,
                                       const double*, std::int64_t, std::int64_t, double*,
                                       std::int64_t, std::int64_t, std::int64_t);

}  // namespace tenferro::cpu_blas
