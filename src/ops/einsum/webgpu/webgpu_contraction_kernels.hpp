// einsum's contraction primitives on WebGPU: checks of einsum's views over the backend's
// strided kernels (backends/webgpu). F32 and C32 (interleaved complex) only; any other dtype
// is Unsupported. Holds no
// state besides its backend, so one object per backend serves every call (see
// webgpu_contraction_kernels() in ops/einsum/registration.hpp).
#pragma once

#include <cstddef>

#include "backends/webgpu/webgpu_backend.hpp"
#include "backends/webgpu/webgpu_gemm.hpp"
#include "ops/einsum/contraction_kernels.hpp"

namespace tenferro::einsum_internal {

class WebGpuContractionKernels final : public ContractionKernels {
 public:
  // Most scratch memory one GEMM uses for split-K partial products (also capped by one
  // storage binding); beyond it the splits run in rounds.
  static constexpr std::size_t kDefaultScratchBudgetBytes =
      webgpu_kernels::kDefaultGemmScratchBytes;

  // Kernels run on `backend`'s queue; pipelines come from its cache (built once per backend).
  // Tests pass a small `scratch_budget_bytes` to exercise the GEMM's rounds.
  explicit WebGpuContractionKernels(WebGpuBackend& backend,
                                    std::size_t scratch_budget_bytes = kDefaultScratchBudgetBytes)
      : backend_(backend), scratch_budget_bytes_(scratch_budget_bytes) {}

  void copy(const KernelView& src, const KernelView& dst) override;
  void sum_trailing(const KernelView& src, const KernelView& dst, int reduced_rank) override;
  void multiply(const KernelView& a, const KernelView& b, const KernelView& dst) override;
  void gemm(const GemmProblem& problem) override;
  void fill_zero(const KernelView& dst) override;
  void accumulate(const KernelView& src, const KernelView& dst) override;

 private:
  WebGpuBackend& backend_;
  std::size_t scratch_budget_bytes_;
};

}  // namespace tenferro::einsum_internal
