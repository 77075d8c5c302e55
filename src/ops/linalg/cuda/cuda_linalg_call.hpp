// Shared pieces of the CUDA linalg executor: the per-call context (backend, stream, handle),
// compact device copies of inputs, and the one status read-back per call that reports
// non-finite inputs and cuSOLVER `info` values after all the work has been queued.
#pragma once

#include <cuComplex.h>
#include <cusolverDn.h>

#include <climits>
#include <cstdint>
#include <string>
#include <vector>

#include "backends/cuda/cuda_backend.hpp"
#include "backends/cuda/cuda_check.hpp"
#include "backends/cuda/strided_kernels.hpp"
#include "ops/linalg/linalg_op.hpp"
#include "tenferro/runtime/extension.hpp"

namespace tenferro::linalg_cuda {

using Inputs = std::span<const EagerTensor>;

template <class T>
struct Types;
template <>
struct Types<float> {
  static constexpr DType kDType = DType::F32;
  using Real = float;
  static constexpr cuda_kernels::Element kElement = cuda_kernels::Element::F32;
};
template <>
struct Types<double> {
  static constexpr DType kDType = DType::F64;
  using Real = double;
  static constexpr cuda_kernels::Element kElement = cuda_kernels::Element::F64;
};
template <>
struct Types<cuComplex> {
  static constexpr DType kDType = DType::C32;
  using Real = float;
  static constexpr cuda_kernels::Element kElement = cuda_kernels::Element::C32;
};
template <>
struct Types<cuDoubleComplex> {
  static constexpr DType kDType = DType::C64;
  using Real = double;
  static constexpr cuda_kernels::Element kElement = cuda_kernels::Element::C64;
};

// Calls f(T{}) with T the cuSOLVER element type of `dtype`.
template <class F>
decltype(auto) visit_cuda_type(DType dtype, F&& f) {
  switch (dtype) {
    case DType::F32:
      return f(float{});
    case DType::F64:
      return f(double{});
    case DType::C32:
      return f(cuComplex{});
    case DType::C64:
      return f(cuDoubleComplex{});
  }
  return f(double{});
}

struct CudaCall {
  const ExecutionContext& ctx;
  const linalg_internal::LinalgOp& op;
  CudaBackend& backend;
  std::string op_name() const { return std::string(op.name()); }
  cudaStream_t stream() const { return backend.stream(); }
  template <class T>
  T* data(const EagerTensor& t) const {
    return static_cast<T*>(backend.device_pointer(*t.buffer(), op.name())) + t.layout().offset;
  }
};

// cuSOLVER's 32-bit API: extents above INT_MAX are refused before anything runs.
int as_int(const CudaCall& call, std::int64_t v, const char* what);

// A fresh compact [rows, cols_alloc, batch...] value of the input's dtype whose first
// `a.shape()[1]` columns hold `a` (any strides). cols_alloc >= a.shape()[1].
EagerTensor compact_copy(const CudaCall& call, const EagerTensor& a, std::int64_t cols_alloc);

// A fresh compact copy of `t` (any rank, any strides).
EagerTensor compact(const CudaCall& call, const EagerTensor& t);

// A fresh compact copy of the leading `block` of `t` (same rank, block[i] <= shape[i]).
EagerTensor leading_block(const CudaCall& call, const EagerTensor& t, const Shape& block);

// Device status of one call: slot 0 collects the first batch entry with a non-finite input,
// slots 1.. are cuSOLVER info values (an op may keep other device-computed scalars there too,
// as the SVD does its truncation rank). Read back once with one synchronization.
class DeviceStatus {
 public:
  DeviceStatus(const CudaCall& call, std::int64_t info_slots);
  int* first_nonfinite() const { return base_; }
  int* info(std::int64_t slot) const { return base_ + 1 + slot; }
  // Queues the non-finite check of `count` elements per batch entry of `data`.
  void check_finite(cuda_kernels::Element e, const void* data, std::int64_t count,
                    std::int64_t batch_stride, std::int64_t batch) const;
  // Copies the slots to the host (the call's one synchronization) and throws Numerical for a
  // non-finite input. Returns the info values.
  std::vector<int> finish(const Shape& batch_shape, const char* input_name) const;

 private:
  const CudaCall& call_;
  EagerTensor storage_;
  int* base_;
  std::int64_t slots_;
};

// A cuSOLVER parameter object (gesvdjInfo_t, syevjInfo_t) at cuSOLVER's default tolerance
// and sweeps, owned for one call. Keep it alive until the call's status read-back: cuSOLVER
// may report into it after the queued work.
template <class Info, cusolverStatus_t (*Create)(Info*), cusolverStatus_t (*Destroy)(Info)>
class SolverParams {
 public:
  explicit SolverParams(const CudaCall& call) {
    cuda_detail::cuda_check(Create(&info_), call.op_name());
  }
  ~SolverParams() { Destroy(info_); }
  SolverParams(const SolverParams&) = delete;
  SolverParams& operator=(const SolverParams&) = delete;
  Info get() const { return info_; }

 private:
  Info info_ = nullptr;
};
using JacobiParams =
    SolverParams<gesvdjInfo_t, cusolverDnCreateGesvdjInfo, cusolverDnDestroyGesvdjInfo>;
using SyevjParams =
    SolverParams<syevjInfo_t, cusolverDnCreateSyevjInfo, cusolverDnDestroySyevjInfo>;

[[noreturn]] void throw_numerical(const CudaCall& call, std::int64_t batch_index,
                                  const Shape& batch_shape, const std::string& what);
[[noreturn]] void throw_info_argument(const CudaCall& call, const char* routine, int info);

std::vector<EagerTensor> run_qr(const CudaCall& call, Inputs inputs);
std::vector<EagerTensor> run_svd(const CudaCall& call, Inputs inputs);
std::vector<EagerTensor> run_eigh(const CudaCall& call, Inputs inputs);
std::vector<EagerTensor> run_cholesky(const CudaCall& call, Inputs inputs);
std::vector<EagerTensor> run_solve(const CudaCall& call, Inputs inputs);
std::vector<EagerTensor> run_inv(const CudaCall& call, Inputs inputs);
std::vector<EagerTensor> run_det(const CudaCall& call, Inputs inputs);
std::vector<EagerTensor> run_slogdet(const CudaCall& call, Inputs inputs);
std::vector<EagerTensor> run_lu(const CudaCall& call, Inputs inputs);
std::vector<EagerTensor> run_triangular_solve(const CudaCall& call, Inputs inputs);
std::vector<EagerTensor> run_lstsq(const CudaCall& call, Inputs inputs);

}  // namespace tenferro::linalg_cuda
