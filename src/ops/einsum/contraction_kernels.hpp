// The primitives einsum's execution program needs from a backend. The program (diagonal
// extraction, pre-summation, permutation, batched GEMM, final write) is backend-agnostic;
// each backend supplies one ContractionKernels implementation working on its own buffers:
// ops/einsum/cpu (host memory), ops/einsum/webgpu (WGSL), ops/einsum/cuda (CUDA + cuBLAS).
// No kernel ever moves data to another backend.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "tenferro/core/dim_vector.hpp"
#include "tenferro/core/dtype.hpp"
#include "tenferro/core/error.hpp"
#include "tenferro/runtime/backend.hpp"

namespace tenferro::einsum_internal {

// A strided view into a backend buffer (element strides and offset; dtype-sized elements).
// Stride 0 broadcasts; a diagonal is a view whose stride is the sum of the repeated axes'.
struct KernelView {
  Buffer* buffer = nullptr;
  DType dtype = DType::F32;
  DimVector shape;    // inline up to rank DimVector::kInline: the executor builds several views
  DimVector strides;  // per step, and std::vectors made them a tenth of a warm call
  std::int64_t offset = 0;
};

// C[b](i, j) = sum_l A[b](i, l) * B[b](l, j) for b < batch, every operand strided:
// element (i, l, b) of A is at a_offset + i*a_stride_m + l*a_stride_k + b*a_stride_batch, etc.
// C is written (not accumulated). k == 0 writes zeros.
struct GemmProblem {
  DType dtype = DType::F32;
  std::int64_t m = 0, n = 0, k = 0, batch = 1;
  Buffer* a = nullptr;
  std::int64_t a_offset = 0, a_stride_m = 0, a_stride_k = 0, a_stride_batch = 0;
  Buffer* b = nullptr;
  std::int64_t b_offset = 0, b_stride_k = 0, b_stride_n = 0, b_stride_batch = 0;
  Buffer* c = nullptr;
  std::int64_t c_offset = 0, c_stride_m = 0, c_stride_n = 0, c_stride_batch = 0;
};

class ContractionKernels {
 public:
  virtual ~ContractionKernels() = default;
  // dst = src element-wise over the common shape (permutes, diagonals, broadcasts).
  virtual void copy(const KernelView& src, const KernelView& dst) = 0;
  // dst[i...] = sum over the trailing `reduced_rank` axes of src[i..., j...].
  // src.shape = dst.shape ++ reduced extents.
  virtual void sum_trailing(const KernelView& src, const KernelView& dst, int reduced_rank) = 0;
  // dst = a * b element-wise over the common shape (Hadamard / outer products via strides).
  virtual void multiply(const KernelView& a, const KernelView& b, const KernelView& dst) = 0;
  virtual void gemm(const GemmProblem& problem) = 0;
  // dst[i...] = sum over the trailing `reduced_rank` axes of a[i..., j...] * b[i..., j...], in
  // one pass without a GEMM (a.shape = b.shape = dst.shape ++ reduced extents; stride 0
  // broadcasts). The executor asks for it only where a GEMM would first permute-copy a large
  // operand it reads once, and only from kernels that say has_multiply_sum(); the others get
  // the copy and the GEMM.
  virtual bool has_multiply_sum() const { return false; }
  virtual void multiply_sum(const KernelView& /*a*/, const KernelView& /*b*/,
                            const KernelView& /*dst*/, int /*reduced_rank*/) {
    throw_error(ErrorKind::Unsupported, ErrorPhase::Execute, "einsum",
                "these einsum kernels have no one-pass multiply-sum");
  }
  virtual void fill_zero(const KernelView& dst) = 0;
  // dst += src element-wise over the common shape: sums the slices of a sliced plan. Every
  // backend's kernels implement it; the default (an internal error) is for kernel sets
  // written for tests.
  virtual void accumulate(const KernelView& /*src*/, const KernelView& /*dst*/) {
    throw_error(ErrorKind::Unsupported, ErrorPhase::Execute, "einsum",
                "these einsum kernels cannot accumulate the slices of a sliced plan");
  }
  // The host threads independent slices of a sliced plan may be spread over (1: they run one
  // after the other), and the way to do it: body(part) for every part in [0, parts), each on
  // one thread whose kernels (BLAS included) stay on that thread; waits for all and rethrows
  // the first error. Which thread runs which part never changes a part's result.
  virtual int slice_threads() { return 1; }
  virtual void run_parts(int parts, const std::function<void(int)>& body) {
    for (int part = 0; part < parts; ++part) body(part);
  }
};

}  // namespace tenferro::einsum_internal
