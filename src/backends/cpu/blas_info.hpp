// What the linked BLAS/LAPACK is and which kernel it runs on this CPU, for `tenferro info`
// and `tenferro bench`: a generic (pre-AVX2) kernel on a CPU with AVX2 or AVX-512 makes GEMM
// several times slower, and a user should hear it in one line rather than guess. So should one
// whose environment holds OpenBLAS to a kernel below the CPU (OPENBLAS_CORETYPE=Haswell on an
// AVX-512 machine runs GEMM at about 0.6x of what OpenBLAS picks by itself there).
#pragma once

#include <string>

namespace tenferro::cpu_blas {

struct BlasInfo {
  std::string vendor;   // "OpenBLAS (PyPI scipy-openblas32)" or "OpenBLAS (system)"
  std::string version;  // e.g. "0.3.34.481.3"
  std::string core;     // the kernel set OpenBLAS picked, e.g. "SkylakeX", "Haswell"
  std::string config;   // OpenBLAS's own configuration string
  std::string cpu_isa;  // the best vector ISA of this CPU: "AVX-512", "AVX2", "AVX", "SSE"
  std::string kernel_isa;  // the best ISA of the kernel set: "AVX-512", "AVX2", "pre-AVX2" or
                           // "unknown" (a core name this file does not know)
  std::string coretype_env;     // OPENBLAS_CORETYPE as the process sees it; empty when unset
  bool generic_kernel = false;  // a pre-AVX2 kernel set on a CPU that has AVX2 or AVX-512
  bool forced_below_cpu = false;  // OPENBLAS_CORETYPE holds a kernel below the CPU's ISA
};

BlasInfo blas_info();
// "BLAS/LAPACK: <vendor> <version>, kernel <core> (CPU: <isa>)", the line info, bench and
// Python's show_config print.
std::string blas_line(const BlasInfo& info);
// One line, empty when the kernel fits the CPU: a warning for a generic kernel, a note for a
// kernel that OPENBLAS_CORETYPE holds below the CPU.
std::string blas_warning(const BlasInfo& info);

}  // namespace tenferro::cpu_blas
