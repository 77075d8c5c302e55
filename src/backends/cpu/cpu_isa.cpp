#include "backends/cpu/cpu_isa.hpp"

#include <cstdlib>
#include <string_view>

#if defined(__x86_64__)
#include <cpuid.h>
#endif

// The per-ISA objects are built on x86-64 only (src/CMakeLists.txt).
#if defined(__x86_64__)
#define TENFERRO_CPU_ISA_X86 1
#else
#define TENFERRO_CPU_ISA_X86 0
#endif

namespace tenferro::cpu_isa {
namespace {

Isa detect() {
  Isa isa = isa_available(Isa::Avx512) ? Isa::Avx512
            : isa_available(Isa::Avx2) ? Isa::Avx2
                                       : Isa::None;
  if (const char* cap = std::getenv("TENFERRO_SIMD")) {
    const std::string_view v(cap);
    if (v == "off" || v == "none") isa = Isa::None;
    if (v == "avx2" && isa == Isa::Avx512) isa = Isa::Avx2;
  }
  return isa;
}

}  // namespace

Isa best_isa() {
  static const Isa isa = detect();
  return isa;
}

bool isa_available(Isa isa) {
#if TENFERRO_CPU_ISA_X86
  __builtin_cpu_init();
  switch (isa) {
    case Isa::Avx512:
      // With its DQ extension (every AVX-512 CPU since Skylake-SP; the Xeon Phi had F alone):
      // the vector kernels' maximum and minimum use VRANGE.
      return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq");
    case Isa::Avx2:
      return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    case Isa::None:
      return true;
  }
#else
  (void)isa;
#endif
  return isa == Isa::None;
}

bool avx512_in_halves() {
#if TENFERRO_CPU_ISA_X86
  static const bool halves = [] {
    unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
    if (!__get_cpuid(0, &eax, &ebx, &ecx, &edx)) return false;
    // "AuthenticAMD" in ebx, edx, ecx.
    const bool amd = ebx == 0x68747541u && edx == 0x69746e65u && ecx == 0x444d4163u;
    if (!amd || !__get_cpuid(1, &eax, &ebx, &ecx, &edx)) return false;
    const unsigned base = (eax >> 8) & 0xFu;
    const unsigned family = base == 0xFu ? base + ((eax >> 20) & 0xFFu) : base;
    return family == 0x19u;  // Zen 3 and Zen 4; of them only Zen 4 has AVX-512
  }();
  return halves && isa_available(Isa::Avx512) && isa_available(Isa::Avx2);
#else
  return false;
#endif
}

}  // namespace tenferro::cpu_isa
