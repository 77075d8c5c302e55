// Einsum's ContractionKernels on a CUDA backend: our own strided kernels for copies, sums,
// element-wise products and fills, cuBLAS strided-batched GEMM for contractions. Everything
// is queued on the backend's stream; nothing is copied to or from the host.
#pragma once

#include "backends/cuda/cuda_backend.hpp"
#include "ops/einsum/contraction_kernels.hpp"

namespace tenferro::einsum_internal {

class CudaContractionKernels final : public ContractionKernels {
 public:
  explicit CudaContractionKernels(CudaBackend& backend) : backend_(backend) {}
  void copy(const KernelView& src, const KernelView& dst) override;
  void sum_trailing(const KernelView& src, const KernelView& dst, int reduced_rank) override;
  void multiply(const KernelView& a, const KernelView& b, const KernelView& dst) override;
  void gemm(const GemmProblem& problem) override;
  void fill_zero(const KernelView& dst) override;
  void accumulate(const KernelView& src, const KernelView& dst) override;

 private:
  CudaBackend& backend_;
};

}  // namespace tenferro::einsum_internal
