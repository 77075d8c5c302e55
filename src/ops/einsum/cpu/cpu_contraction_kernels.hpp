// The CPU ContractionKernels: host loops over strided views and OpenBLAS GEMM.
#pragma once

#include "ops/einsum/contraction_kernels.hpp"

namespace tenferro::einsum_internal {

// Stateless and thread-safe: one instance serves every CPU runtime.
ContractionKernels& cpu_contraction_kernels();

}  // namespace tenferro::einsum_internal
