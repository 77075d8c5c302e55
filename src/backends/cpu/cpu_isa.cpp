#include "backends/cpu/cpu_isa.hpp"

#include <cstdlib>
#include <string_view>

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

}  // namespace tenferro::cpu_isa
