#include "backends/cpu/householder_qr.hpp"

#include <type_traits>

#include "tenferro/core/error.hpp"

#if defined(__x86_64__)
#include "backends/cpu/isa/householder_qr_entry.hpp"
#endif

namespace tenferro::cpu_blas {

bool householder_qr_applies(cpu_isa::Isa isa, std::int64_t m, std::int64_t n) {
#if defined(__x86_64__)
  return isa != cpu_isa::Isa::None && m >= 1 && n >= 1 && m <= kHouseholderQrMax &&
         n <= kHouseholderQrMax;
#else
  (void)isa, (void)m, (void)n;
  return false;
#endif
}

template <class T>
bool householder_qr(cpu_isa::Isa isa, std::int64_t m, std::int64_t n, T* a, T* tau) {
  if (!householder_qr_applies(isa, m, n))
    throw_error(ErrorKind::RuntimeState, ErrorPhase::Execute, "linalg.qr",
                "internal: householder_qr called where it does not apply");
#if defined(__x86_64__)
  if constexpr (std::is_same_v<T, float>)
    return isa::householder_qr_f32_avx2(m, n, a, tau);
  else
    return isa::householder_qr_f64_avx2(m, n, a, tau);
#else
  return false;
#endif
}

template <class T>
void householder_q(cpu_isa::Isa isa, std::int64_t m, std::int64_t q_cols, std::int64_t k, T* a,
                   const T* tau) {
  if (!householder_qr_applies(isa, m, q_cols) || k > q_cols || k < 0)
    throw_error(ErrorKind::RuntimeState, ErrorPhase::Execute, "linalg.qr",
                "internal: householder_q called where it does not apply");
#if defined(__x86_64__)
  if constexpr (std::is_same_v<T, float>)
    isa::householder_q_f32_avx2(m, q_cols, k, a, tau);
  else
    isa::householder_q_f64_avx2(m, q_cols, k, a, tau);
#endif
}

template bool householder_qr<float>(cpu_isa::Isa, std::int64_t, std::int64_t, float*, float*);
template bool householder_qr<double>(cpu_isa::Isa, std::int64_t, std::int64_t, double*, double*);
template void householder_q<float>(cpu_isa::Isa, std::int64_t, std::int64_t, std::int64_t, float*,
                                   const float*);
template void householder_q<double>(cpu_isa::Isa, std::int64_t, std::int64_t, std::int64_t, double*,
                                    const double*);

}  // namespace tenferro::cpu_blas
