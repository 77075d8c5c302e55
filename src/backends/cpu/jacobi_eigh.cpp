#include "backends/cpu/jacobi_eigh.hpp"

#include <type_traits>

#include "tenferro/core/error.hpp"

#if defined(__x86_64__)
#include "backends/cpu/isa/lanes_entry.hpp"
#endif

namespace tenferro::cpu_blas {

bool jacobi_eigh_applies(cpu_isa::Isa isa, std::int64_t n) {
  return matrix_lanes(isa, true) > 0 && n >= 1 && n <= kJacobiEighMax;
}

cpu_isa::Isa jacobi_eigh_isa(cpu_isa::Isa best, std::int64_t n, bool vectors) {
  return lanes_isa_for(best, n * (n | 1) + (vectors ? n * n : 0), kJacobiEighLaneBytes);
}

template <class T>
bool jacobi_eigh(cpu_isa::Isa isa, std::int64_t n, int count, const T* a, std::int64_t a_stride,
                 T* w, T* v, std::int64_t v_stride, bool vectors) {
  constexpr bool is_double = std::is_same_v<T, double>;
  if (!jacobi_eigh_applies(isa, n) || count < 1 || count > matrix_lanes(isa, is_double))
    throw_error(ErrorKind::RuntimeState, ErrorPhase::Execute, "linalg.eigh",
                "internal: jacobi_eigh called where it does not apply");
#if defined(__x86_64__)
  const bool wide = isa == cpu_isa::Isa::Avx512;
  const int size = static_cast<int>(n);
  if constexpr (is_double) {
    return (wide ? &isa::jacobi_eigh_f64_avx512 : &isa::jacobi_eigh_f64_avx2)(
        size, count, a, a_stride, w, v, v_stride, vectors);
  } else {
    return (wide ? &isa::jacobi_eigh_f32_avx512 : &isa::jacobi_eigh_f32_avx2)(
        size, count, a, a_stride, w, v, v_stride, vectors);
  }
#else
  (void)a, (void)a_stride, (void)w, (void)v, (void)v_stride, (void)vectors;
  return false;
#endif
}

template bool jacobi_eigh<float>(cpu_isa::Isa, std::int64_t, int, const float*, std::int64_t,
                                 float*, float*, std::int64_t, bool);
template bool jacobi_eigh<double>(cpu_isa::Isa, std::int64_t, int, const double*, std::int64_t,
                                  double*, double*, std::int64_t, bool);

}  // namespace tenferro::cpu_blas
