// What the batched Jacobi kernels' tests share (jacobi_eigh_test.cpp, jacobi_svd_test.cpp): the
// ISAs this CPU runs them on, their names, and the matrices one call takes.
#pragma once

#include <vector>

#include "backends/cpu/cpu_isa.hpp"
#include "backends/cpu/jacobi_eigh.hpp"

namespace jacobi_test {

using tenferro::cpu_isa::Isa;

inline std::vector<Isa> isas() {
  std::vector<Isa> out;
  for (Isa isa : {Isa::Avx2, Isa::Avx512})
    if (tenferro::cpu_isa::isa_available(isa) && tenferro::cpu_blas::jacobi_eigh_applies(isa, 1))
      out.push_back(isa);
  return out;
}

inline const char* name(Isa isa) {
  return isa == Isa::Avx512 ? "AVX-512" : "AVX2";
}

template <class T>
int lanes(Isa isa) {
  return tenferro::cpu_blas::matrix_lanes(isa, sizeof(T) == 8);
}

}  // namespace jacobi_test
