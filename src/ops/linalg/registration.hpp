// The linalg family's registration table (runtime_internal::RegistrationTable): each backend's
// rows live beside its kernels (cpu/cpu_rows.cpp, cuda/cuda_rows.cpp); the admission table,
// the modules, the op names and `tenferro info` are derived from them. WebGPU has no rows.
#pragma once

#include <vector>

#include "ops/linalg/linalg_op.hpp"
#include "runtime/registration_table.hpp"
#include "tenferro/config.hpp"

namespace tenferro::linalg_cpu {
// LAPACK: every op on every dtype.
std::vector<runtime_internal::Registration> cpu_rows();
}  // namespace tenferro::linalg_cpu

#if TENFERRO_HAS_CUDA
namespace tenferro::linalg_cuda {
// cuSOLVER/cuBLAS: every op with a device kernel (all but eig).
std::vector<runtime_internal::Registration> cuda_rows();
}  // namespace tenferro::linalg_cuda
#endif

namespace tenferro::linalg_internal {

const runtime_internal::RegistrationTable& registration_table();

// The module of the target's engine (id "<family>/<engine>"), or a typed Unsupported error
// before anything executes for a backend kind without linalg rows in this build.
ModulePtr linalg_module_for(const EagerExtensionTarget& target);

// The row of `kind` on `dtypes`, with the kernel `kernel`.
inline runtime_internal::Registration row(LinalgKind kind, BackendKind backend,
                                          runtime_internal::DTypeMask dtypes,
                                          runtime_internal::Kernel kernel) {
  return {static_cast<std::uint32_t>(kind), backend, dtypes, kernel};
}

}  // namespace tenferro::linalg_internal
