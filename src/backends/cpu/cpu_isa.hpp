// Which vector instruction set this CPU runs, for the CPU kernels compiled once per ISA
// (ops/prims/cpu/simd for element-wise math, backends/cpu/isa for small GEMMs): each such
// translation unit is built with that ISA on and entered only after this check.
#pragma once

#include <cstdint>

namespace tenferro::cpu_isa {

enum class Isa : std::uint8_t { None, Avx2, Avx512 };

// The best ISA this CPU runs: AVX-512F with DQ, else AVX2 with FMA, else None (also off
// x86-64).
// TENFERRO_SIMD=off|avx2 in the environment caps it (read once), for comparisons and debugging.
Isa best_isa();
// Whether this CPU can run `isa` (the tests sweep every available one, not just the best).
bool isa_available(Isa isa);
// Whether this CPU runs AVX-512 instructions as two 256-bit halves (AMD Zen 4: family 19h
// with AVX-512). There the 512-bit float32 -> float64 conversion feeding FMAs ran slower than
// the AVX2 form of the same kernel (a float32 norm of 2^20 values: 79 against 68 us), so
// such kernels take AVX2 where both give the same bits.
bool avx512_in_halves();

}  // namespace tenferro::cpu_isa
