#include "backends/cpu/householder_qr.hpp"

#include <complex>
#include <type_traits>

#include "tenferro/core/error.hpp"

#if defined(__x86_64__)
#include "backends/cpu/isa/householder_qr_entry.hpp"
#endif

namespace tenferro::cpu_blas {

bool householder_qr_applies(cpu_isa::Isa isa, std::int64_t m, std::int64_t n, bool complex) {
#if defined(__x86_64__)
  const std::int64_t largest = complex ? kHouseholderQrComplexMax : kHouseholderQrMax;
  return isa != cpu_isa::Isa::None && m >= 1 && n >= 1 && m <= largest && n <= largest;
#else
  (void)isa, (void)m, (void)n, (void)complex;
  return false;
#endif
}

template <class T>
bool householder_qr(cpu_isa::Isa isa, std::int64_t m, std::int64_t n, T* a, T* tau) {
  if (!householder_qr_applies(isa, m, n, !std::is_floating_point_v<T>))
    throw_error(ErrorKind::RuntimeState, ErrorPhase::Execute, "linalg.qr",
                "internal: householder_qr called where it does not apply");
#if defined(__x86_64__)
  if constexpr (std::is_same_v<T, float>)
    return isa::householder_qr_f32_avx2(m, n, a, tau);
  else if constexpr (std::is_same_v<T, double>)
    return isa::householder_qr_f64_avx2(m, n, a, tau);
  else if constexpr (std::is_same_v<T, std::complex<float>>)  // as interleaved pairs
    return isa::householder_qr_c64_avx2(m, n, reinterpret_cast<float*>(a),
                                        reinterpret_cast<float*>(tau));
  else
    return isa::householder_qr_c128_avx2(m, n, reinterpret_cast<double*>(a),
                                         reinterpret_cast<double*>(tau));
#else
  return false;
#endif
}

template <class T>
void householder_q(cpu_isa::Isa isa, std::int64_t m, std::int64_t q_cols, std::int64_t k, T* a,
                   const T* tau) {
  if (!householder_qr_applies(isa, m, q_cols, !std::is_floating_point_v<T>) || k > q_cols ||
      k < 0 || q_cols > m)
    throw_error(ErrorKind::RuntimeState, ErrorPhase::Execute, "linalg.qr",
                "internal: householder_q called where it does not apply");
#if defined(__x86_64__)
  if constexpr (std::is_same_v<T, float>)
    isa::householder_q_f32_avx2(m, q_cols, k, a, tau);
  else if constexpr (std::is_same_v<T, double>)
    isa::householder_q_f64_avx2(m, q_cols, k, a, tau);
  else if constexpr (std::is_same_v<T, std::complex<float>>)
    isa::householder_q_c64_avx2(m, q_cols, k, reinterpret_cast<float*>(a),
                                reinterpret_cast<const float*>(tau));
  else
    isa::householder_q_c128_avx2(m, q_cols, k, reinterpret_cast<double*>(a),
                                 reinterpret_cast<const double*>(tau));
#endif
}

using c64 = std::complex<float>;
using c128 = std::complex<double>;
template bool householder_qr<float>(cpu_isa::Isa, std::int64_t, std::int64_t, float*, float*);
template bool householder_qr<c64>(cpu_isa::Isa, std::int64_t, std::int64_t, c64*, c64*);
template bool householder_qr<c128>(cpu_isa::Isa, std::int64_t, std::int64_t, c128*, c128*);
template void householder_q<c64>(cpu_isa::Isa, std::int64_t, std::int64_t, std::int64_t, c64*,
                                 const c64*);
template void householder_q<c128>(cpu_isa::Isa, std::int64_t, std::int64_t, std::int64_t, c128*,
                                  const c128*);
template bool householder_qr<double>(cpu_isa::Isa, std::int64_t, std::int64_t, double*, double*);
template void householder_q<float>(cpu_isa::Isa, std::int64_t, std::int64_t, std::int64_t, float*,
                                   const float*);
template void householder_q<double>(cpu_isa::Isa, std::int64_t, std::int64_t, std::int64_t, double*,
                                    const double*);

}  // namespace tenferro::cpu_blas
