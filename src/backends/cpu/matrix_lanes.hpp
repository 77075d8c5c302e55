// The batched small-matrix kernels that run one matrix per vector lane: every lane the same
// instruction sequence on its own matrix (jacobi_eigh.hpp, jacobi_svd.hpp, lane_qr.hpp; their
// per-ISA code is backends/cpu/isa/lanes_avx2.cpp and lanes_avx512.cpp).
#pragma once

#include <cstdint>

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

// The ISA a lane kernel runs on when `best` is the host's and a call keeps `entries` entries of
// working matrices (one vector each, all lanes): AVX2 on a host that runs AVX-512 at full
// width once those outgrow `budget_bytes` as AVX-512 vectors, else `best`. AVX2's vectors hold
// half the bytes, and past its level-1 cache a kernel's walks over the matrices miss on every
// entry they touch (jacobi_eigh.hpp and lane_qr.hpp give each kernel's measured budget). Where
// AVX-512 runs as two halves (Zen 4, cpu_isa::avx512_in_halves) the lanes keep it: measured on
// such a host (2026-12-05), eigh's ran 64 32x32 float64 matrices in 2.1 ms at full width
// against 2.9 with AVX2, and QR's 16 64x64 within 6% either way.
inline cpu_isa::Isa lanes_isa_for(cpu_isa::Isa best, std::int64_t entries,
                                  std::int64_t budget_bytes) {
  if (best != cpu_isa::Isa::Avx512 || cpu_isa::avx512_in_halves() ||
      !cpu_isa::isa_available(cpu_isa::Isa::Avx2))  // a virtual CPU may hide AVX2 or FMA
    return best;
  constexpr std::int64_t kAvx512VectorBytes = 64;
  return entries * kAvx512VectorBytes > budget_bytes ? cpu_isa::Isa::Avx2 : best;
}

}  // namespace tenferro::cpu_blas
