// The one place CUDA, cuBLAS, cuSOLVER and cuFFT status codes become typed errors: every
// vendor call in the CUDA backend and the CUDA executors goes through cuda_check(status, op).
#pragma once

#include <cublas_v2.h>
#include <cuda_runtime_api.h>
#include <cufft.h>
#include <cusolverDn.h>

#include <string_view>

#include "tenferro/core/error.hpp"

namespace tenferro::cuda_detail {

// Throws a Backend error named `op` with the status' name and description unless it is a
// success. `phase` is Execute for kernels and vendor calls, Transfer for copies.
void cuda_check(cudaError_t status, std::string_view op, ErrorPhase phase = ErrorPhase::Execute);
void cuda_check(cublasStatus_t status, std::string_view op, ErrorPhase phase = ErrorPhase::Execute);
void cuda_check(cusolverStatus_t status, std::string_view op,
                ErrorPhase phase = ErrorPhase::Execute);
void cuda_check(cufftResult status, std::string_view op, ErrorPhase phase = ErrorPhase::Execute);

}  // namespace tenferro::cuda_detail
