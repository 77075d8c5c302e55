// The batched small-matrix kernels that run one matrix per vector lane: every lane the same
// instruction sequence on its own matrix (jacobi_eigh.hpp, jacobi_svd.hpp, lane_qr.hpp; their
// per-ISA code is backends/cpu/isa/lanes_avx2.cpp and lanes_avx512.cpp).
#pragma once

#include "backends/cpu/cpu_isa.hpp"

namespace tenferro::cpu_blas {

// Matrices one call of those kernels takes at once on `isa` (its vector lanes) for float
// (false) or double (true) entries: 8 float64 or 16 float32 with AVX-512, half as many with
// AVX2; 0 where the kernels do not run (no AVX2 + FMA, or not x86-64).
inline int matrix_lanes(cpu_isa::Isa isa, bool is_double) {
#if defined(__x86_64__)
  const int bytes = isa == cpu_isa::Isa::Avx512 ? 64 : isa == cpu_isa::Isa::Avx2 ? 32 : 0;
  return bytes / (is_double ? 8 : 4);
#else
  (void)isa, (void)is_double;
  return 0;
#endif
}

}  // namespace tenferro::cpu_blas
