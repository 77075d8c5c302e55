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

// OpenBLAS's x86-64 DYNAMIC_ARCH kernel sets by the best vector ISA they use.
constexpr std::array<std::string_view, 16> kPreAvx2Cores = {
    "Prescott",   "Core2",        "Penryn",    "Dunnington", "Nehalem",     "Atom",
    "Opteron",    "Opteron_SSE3", "Barcelona", "Bobcat",     "Sandybridge", "Bulldozer",
    "Piledriver", "Steamroller",  "Excavator", "Katmai"};
constexpr std::array<std::string_view, 2> kAvx2Cores = {"Haswell", "Zen"};
constexpr std::array<std::string_view, 3> kAvx512Cores = {"SkylakeX", "Cooperlake",
                                                          "SapphireRapids"};

template <std::size_t N>
bool one_of(const std::array<std::string_view, N>& names, const std::string& core) {
  for (std::string_view n : names)
    if (core == n) return true;
  return false;
}

std::string kernel_isa(const std::string& core) {
  if (one_of(kAvx512Cores, core)) return "AVX-512";
  if (one_of(kAvx2Cores, core)) return "AVX2";
  if (one_of(kPreAvx2Cores, core)) return "pre-AVX2";
  return "unknown";
}

// Orders ISAs, kernels' and CPUs' alike; -1 for "unknown".
int isa_rank(const std::string& isa) {
  if (isa == "AVX-512") return 3;
  if (isa == "AVX2") return 2;
  if (isa == "unknown") return -1;
  return 1;  // "pre-AVX2", "AVX", "SSE"
}

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
  info.kernel_isa = kernel_isa(info.core);
  // Set but empty, OpenBLAS finds no such core and picks its own, as when unset.
  const char* forced = std::getenv("OPENBLAS_CORETYPE");
  info.coretype_env = forced ? forced : "";
  const int kernel = isa_rank(info.kernel_isa), cpu = isa_rank(info.cpu_isa);
  info.generic_kernel = info.kernel_isa == "pre-AVX2" && cpu >= isa_rank("AVX2");
  info.forced_below_cpu =
      !info.coretype_env.empty() && !info.generic_kernel && kernel >= 0 && kernel < cpu;
  return info;
}

std::string blas_line(const BlasInfo& info) {
  return "BLAS/LAPACK: " + info.vendor + " " + info.version + ", kernel " + info.core +
         " (CPU: " + info.cpu_isa + ")";
}

std::string blas_warning(const BlasInfo& info) {
  if (info.forced_below_cpu) {
    return "note: OPENBLAS_CORETYPE=" + info.coretype_env + " holds " + info.vendor + " " +
           info.version + " to its " + info.core + " kernel (" + info.kernel_isa +
           ") on a CPU with " + info.cpu_isa +
           ": GEMM and LAPACK leave the CPU's widest vectors unused (unset it, unless this "
           "machine needs it, and OpenBLAS picks its kernel by itself)";
  }
  if (!info.generic_kernel) return {};
  const std::string fix =
      !info.coretype_env.empty() ? "OPENBLAS_CORETYPE=" + info.coretype_env + " forces it: unset it"
      : TENFERRO_BLAS_SCIPY
          ? "OpenBLAS does not recognise this CPU: set OPENBLAS_CORETYPE (e.g. Haswell or "
            "SkylakeX) for this library"
          : "build with the default TENFERRO_BLAS=scipy-openblas, or set OPENBLAS_CORETYPE";
  return "warning: " + info.vendor + " " + info.version + " runs its generic '" + info.core +
         "' kernel on a CPU with " + info.cpu_isa +
         ": GEMM and LAPACK run several times slower than this CPU allows (" + fix + ")";
}

}  // namespace tenferro::cpu_blas
