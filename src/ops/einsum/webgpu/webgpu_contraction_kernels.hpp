// einsum's contraction primitives on WebGPU: WGSL compute kernels over the backend's storage
// buffers. F32 and C32 (interleaved complex) only; any other dtype is Unsupported. Holds no
// state besides its backend, so one object per backend serves every call (see
// webgpu_contraction_kernels() in ops/einsum/einsum_module.hpp).
#pragma once

#include "backends/webgpu/webgpu_backend.hpp"
#include "ops/einsum/contraction_kernels.hpp"

namespace tenferro::einsum_internal {

class WebGpuContractionKernels final : public ContractionKernels {
 public:
  // Kernels run on `backend`'s queue; pipelines come from its cache (built once per backend).
  explicit WebGpuContractionKernels(WebGpuBackend& backend) : backend_(backend) {}

  void copy(const KernelView& src, const KernelView& dst) override;
  void sum_trailing(const KernelView& src, const KernelView& dst, int reduced_rank) override;
  void multiply(const KernelView& a, const KernelView& b, const KernelView& dst) override;
  void gemm(const GemmProblem& problem) override;
  void fill_zero(const KernelView& dst) override;

 private:
  WebGpuBackend& backend_;
};

}  // namespace tenferro::einsum_internal
