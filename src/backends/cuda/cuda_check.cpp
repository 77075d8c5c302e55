#include "backends/cuda/cuda_check.hpp"

#include <string>

namespace tenferro::cuda_detail {
namespace {

[[noreturn]] void fail(std::string_view op, ErrorPhase phase, std::string_view library,
                       std::string detail) {
  throw_error(ErrorKind::Backend, phase, std::string(op),
              std::string(library) + " error: " + std::move(detail));
}

const char* cusolver_status_name(cusolverStatus_t s) {
  switch (s) {
    case CUSOLVER_STATUS_NOT_INITIALIZED:
      return "CUSOLVER_STATUS_NOT_INITIALIZED";
    case CUSOLVER_STATUS_ALLOC_FAILED:
      return "CUSOLVER_STATUS_ALLOC_FAILED";
    case CUSOLVER_STATUS_INVALID_VALUE:
      return "CUSOLVER_STATUS_INVALID_VALUE";
    case CUSOLVER_STATUS_ARCH_MISMATCH:
      return "CUSOLVER_STATUS_ARCH_MISMATCH";
    case CUSOLVER_STATUS_EXECUTION_FAILED:
      return "CUSOLVER_STATUS_EXECUTION_FAILED";
    case CUSOLVER_STATUS_INTERNAL_ERROR:
      return "CUSOLVER_STATUS_INTERNAL_ERROR";
    case CUSOLVER_STATUS_NOT_SUPPORTED:
      return "CUSOLVER_STATUS_NOT_SUPPORTED";
    default:
      return "cusolverStatus";
  }
}

const char* cufft_result_name(cufftResult r) {
  switch (r) {
    case CUFFT_INVALID_PLAN:
      return "CUFFT_INVALID_PLAN";
    case CUFFT_ALLOC_FAILED:
      return "CUFFT_ALLOC_FAILED";
    case CUFFT_INVALID_VALUE:
      return "CUFFT_INVALID_VALUE";
    case CUFFT_INTERNAL_ERROR:
      return "CUFFT_INTERNAL_ERROR";
    case CUFFT_EXEC_FAILED:
      return "CUFFT_EXEC_FAILED";
    case CUFFT_SETUP_FAILED:
      return "CUFFT_SETUP_FAILED";
    case CUFFT_INVALID_SIZE:
      return "CUFFT_INVALID_SIZE";
    case CUFFT_NOT_SUPPORTED:
      return "CUFFT_NOT_SUPPORTED";
    default:
      return "cufftResult";
  }
}

}  // namespace

void cuda_check(cudaError_t status, std::string_view op, ErrorPhase phase) {
  if (status == cudaSuccess) return;
  cudaGetLastError();  // reset the last-error slot so a later launch check does not see it
  fail(op, phase, "CUDA",
       std::string(cudaGetErrorName(status)) + " (" + cudaGetErrorString(status) + ")");
}

void cuda_check(cublasStatus_t status, std::string_view op, ErrorPhase phase) {
  if (status == CUBLAS_STATUS_SUCCESS) return;
  fail(op, phase, "cuBLAS", cublasGetStatusString(status));
}

void cuda_check(cusolverStatus_t status, std::string_view op, ErrorPhase phase) {
  if (status == CUSOLVER_STATUS_SUCCESS) return;
  fail(op, phase, "cuSOLVER",
       std::string(cusolver_status_name(status)) + " (" + std::to_string(int(status)) + ")");
}

void cuda_check(cufftResult status, std::string_view op, ErrorPhase phase) {
  if (status == CUFFT_SUCCESS) return;
  fail(op, phase, "cuFFT",
       std::string(cufft_result_name(status)) + " (" + std::to_string(int(status)) + ")");
}

}  // namespace tenferro::cuda_detail
