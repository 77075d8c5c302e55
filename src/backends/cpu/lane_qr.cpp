#include "backends/cpu/lane_qr.hpp"

#include <algorithm>
#include <type_traits>

#include "tenferro/core/error.hpp"

#if defined(__x86_64__)
#include "backends/cpu/isa/lanes_entry.hpp"
#endif

namespace tenferro::cpu_blas {

bool lane_qr_applies(cpu_isa::Isa isa, std::int64_t m, std::int64_t n, std::int64_t q_cols) {
  const std::int64_t k = std::min(m, n);
  return matrix_lanes(isa, true) > 0 && m >= 1 && n >= 1 && m <= kLaneQrMax && n <= kLaneQrMax &&
         (q_cols == k || (q_cols >= n && q_cols <= m));
}

cpu_isa::Isa lane_qr_isa(cpu_isa::Isa best, std::int64_t m, std::int64_t n, std::int64_t q_cols) {
  return lanes_isa_for(best, m * std::max(n, q_cols) + std::min(m, n), kLaneQrBytes);
}

template <class T>
bool lane_qr(cpu_isa::Isa isa, std::int64_t m, std::int64_t n, std::int64_t q_cols, int count,
             const T* a, std::int64_t a_stride, T* q, std::int64_t q_stride, T* r,
             std::int64_t r_rows, std::int64_t r_stride) {
  constexpr bool is_double = std::is_same_v<T, double>;
  if (!lane_qr_applies(isa, m, n, q_cols) || count < 1 || count > matrix_lanes(isa, is_double) ||
      r_rows < 1 || r_rows > m)
    throw_error(ErrorKind::RuntimeState, ErrorPhase::Execute, "linalg.qr",
                "internal: lane_qr called where it does not apply");
#if defined(__x86_64__)
  const bool wide = isa == cpu_isa::Isa::Avx512;
  const int rows = static_cast<int>(m), cols = static_cast<int>(n);
  const int qc = static_cast<int>(q_cols), rr = static_cast<int>(r_rows);
  if constexpr (is_double) {
    return (wide ? &isa::lane_qr_f64_avx512 : &isa::lane_qr_f64_avx2)(
        rows, cols, qc, count, a, a_stride, q, q_stride, r, rr, r_stride);
  } else {
    return (wide ? &isa::lane_qr_f32_avx512 : &isa::lane_qr_f32_avx2)(
        rows, cols, qc, count, a, a_stride, q, q_stride, r, rr, r_stride);
  }
#else
  (void)a, (void)a_stride, (void)q, (void)q_stride, (void)r, (void)r_stride;
  return false;
#endif
}

template bool lane_qr<float>(cpu_isa::Isa, std::int64_t, std::int64_t, std::int64_t, int,
                             const float*, std::int64_t, float*, std::int64_t, float*, std::int64_t,
                             std::int64_t);
template bool lane_qr<double>(cpu_isa::Isa, std::int64_t, std::int64_t, std::int64_t, int,
                              const double*, std::int64_t, double*, std::int64_t, double*,
                              std::int64_t, std::int64_t);

}  // namespace tenferro::cpu_blas
