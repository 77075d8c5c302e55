#include "backends/cpu/jacobi_svd.hpp"

#include <type_traits>

#include "backends/cpu/jacobi_eigh.hpp"
#include "tenferro/core/error.hpp"

#if defined(__x86_64__)
#include "backends/cpu/isa/lanes_entry.hpp"
#endif

namespace tenferro::cpu_blas {

bool jacobi_svd_applies(cpu_isa::Isa isa, std::int64_t m, std::int64_t n) {
  return matrix_lanes(isa, true) > 0 && m >= 1 && n >= 1 && m <= kJacobiSvdMax &&
         n <= kJacobiSvdMax;
}

template <class T>
bool jacobi_svd(cpu_isa::Isa isa, std::int64_t m, std::int64_t n, int count, const T* a,
                std::int64_t a_stride, T* s, T* u, std::int64_t u_stride, T* vt,
                std::int64_t vt_stride, bool vectors) {
  constexpr bool is_double = std::is_same_v<T, double>;
  if (!jacobi_svd_applies(isa, m, n) || count < 1 || count > matrix_lanes(isa, is_double))
    throw_error(ErrorKind::RuntimeState, ErrorPhase::Execute, "linalg.svd",
                "internal: jacobi_svd called where it does not apply");
#if defined(__x86_64__)
  const bool wide = isa == cpu_isa::Isa::Avx512;
  const int rows = static_cast<int>(m), cols = static_cast<int>(n);
  if constexpr (is_double) {
    return (wide ? &isa::jacobi_svd_f64_avx512 : &isa::jacobi_svd_f64_avx2)(
        rows, cols, count, a, a_stride, s, u, u_stride, vt, vt_stride, vectors);
  } else {
    return (wide ? &isa::jacobi_svd_f32_avx512 : &isa::jacobi_svd_f32_avx2)(
        rows, cols, count, a, a_stride, s, u, u_stride, vt, vt_stride, vectors);
  }
#else
  (void)a, (void)a_stride, (void)s, (void)u, (void)u_stride, (void)vt, (void)vt_stride;
  (void)vectors;
  return false;
#endif
}

template bool jacobi_svd<float>(cpu_isa::Isa, std::int64_t, std::int64_t, int, const float*,
                                std::int64_t, float*, float*, std::int64_t, float*, std::int64_t,
                                bool);
template bool jacobi_svd<double>(cpu_isa::Isa, std::int64_t, std::int64_t, int, const double*,
                                 std::int64_t, double*, double*, std::int64_t, double*,
                                 std::int64_t, bool);

}  // namespace tenferro::cpu_blas
