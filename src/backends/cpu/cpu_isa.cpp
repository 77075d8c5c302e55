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

#if TENFERRO_CPU_ISA_X86
// AVX-512 with its DQ extension (every AVX-512 CPU since Skylake-SP; the Xeon Phi had F alone):
// the vector kernels' maximum and minimum use VRANGE.
bool has_avx512() {
  return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq");
}
#endif

Isa detect() {
#if TENFERRO_CPU_ISA_X86
  __builtin_cpu_init();
  Isa isa = Isa::None;
  if (has_avx512()) {
    isa = Isa::Avx512;
  } else if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) {
    isa = Isa::Avx2;
  }
  if (const char* cap = std::getenv("TENFERRO_SIMD")) {
    const std::string_view v(cap);
    if (v == "off" || v == "none") isa = Isa::None;
    if (v == "avx2" && isa == Isa::Avx512) isa = Isa::Avx2;
  }
  return isa;
#else
  return Isa::None;
#endif
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
      return has_avx512();
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
