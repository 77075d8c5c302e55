#include "backends/cpu/blas_info.hpp"

#include <array>
#include <cstdlib>
#include <sstream>
#include <string_view>

#include "backends/cpu/blas_names.hpp"

extern "C" char* TENFERRO_BLAS_NAME(openblas_get_config)(void);
extern "C" char* TENFERRO_BLAS_NAME(openblas_get_corename)(void);

namespace tenferro::cpu_blas {
namespace {

// OpenBLAS's kernel sets that use neither AVX2 nor AVX-512 (its x86-64 DYNAMIC_ARCH list).
constexpr std::array<std::string_view, 16> kPreAvx2Cores = {
    "Prescott",   "Core2",        "Penryn",    "Dunnington", "Nehalem",     "Atom",
    "Opteron",    "Opteron_SSE3", "Barcelona", "Bobcat",     "Sandybridge", "Bulldozer",
    "Piledriver", "Steamroller",  "Excavator", "Katmai"};

std::string cpu_isa() {
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f")) return "AVX-512";
  if (__builtin_cpu_supports("avx2")) return "AVX2";
  if (__builtin_cpu_supports("avx")) return "AVX";
  return "SSE";
}

}  // namespace

BlasInfo blas_info() {
  BlasInfo info;
  info.vendor = TENFERRO_BLAS_SCIPY ? "OpenBLAS (PyPI scipy-openblas32)" : "OpenBLAS (system)";
  const char* config = TENFERRO_BLAS_NAME(openblas_get_config)();
  const char* core = TENFERRO_BLAS_NAME(openblas_get_corename)();
  info.config = config ? config : "";
  info.core = core ? core : "unknown";
  std::istringstream words(info.config);  // "OpenBLAS 0.3.34.481.3 DYNAMIC_ARCH ..."
  std::string name;
  words >> name >> info.version;
  info.cpu_isa = cpu_isa();
  bool pre_avx2 = false;
  for (std::string_view c : kPreAvx2Cores) pre_avx2 = pre_avx2 || info.core == c;
  info.generic_kernel = pre_avx2 && (info.cpu_isa == "AVX2" || info.cpu_isa == "AVX-512");
  return info;
}

std::string blas_warning(const BlasInfo& info) {
  if (!info.generic_kernel) return {};
  const char* forced = std::getenv("OPENBLAS_CORETYPE");
  const std::string fix =
      forced ? std::string("OPENBLAS_CORETYPE=") + forced + " forces it: unset it"
      : TENFERRO_BLAS_SCIPY
          ? "OpenBLAS does not recognise this CPU: set OPENBLAS_CORETYPE (e.g. Haswell or "
            "SkylakeX) for this library"
          : "build with the default TENFERRO_BLAS=scipy-openblas, or set OPENBLAS_CORETYPE";
  return "warning: " + info.vendor + " " + info.version + " runs its generic '" + info.core +
         "' kernel on a CPU with " + info.cpu_isa +
         ": GEMM and LAPACK run several times slower than this CPU allows (" + fix + ")";
}

}  // namespace tenferro::cpu_blas
