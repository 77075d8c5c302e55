#include "ops/linalg/cuda/cuda_linalg_call.hpp"

#include "backends/cuda/strided_layout.hpp"
#include "ops/linalg/cpu/common.hpp"
#include "ops/linalg/cuda/linalg_kernels.hpp"
#include "runtime/runtime_access.hpp"
#include "tenferro/runtime/runtime.hpp"

namespace tenferro::linalg_cuda {

using cuda_detail::cuda_check;

int as_int(const CudaCall& call, std::int64_t v, const char* what) {
  if (v > INT_MAX) {
    throw_error(
        ErrorKind::Unsupported, ErrorPhase::Execute, call.op_name(),
        std::string(what) + " = " + std::to_string(v) + " exceeds cuSOLVER's 32-bit range on CUDA");
  }
  return static_cast<int>(v);
}

EagerTensor compact_copy(const CudaCall& call, const EagerTensor& a, std::int64_t cols_alloc) {
  Shape shape = a.shape();
  const std::int64_t rows = shape[0], cols = shape[1];
  Shape alloc_shape = shape;
  alloc_shape[1] = cols_alloc;
  EagerTensor out = call.ctx.allocate(a.dtype(), alloc_shape);
  if (a.numel() == 0) return out;
  const Strides& dst_strides = out.strides();  // compact over [rows, cols_alloc, batch...]
  (void)rows;
  (void)cols;
  const auto ix = cuda_layout::coalesce<2>(shape, {dst_strides, a.strides()});
  const auto size = static_cast<std::int64_t>(dtype_size(a.dtype()));
  auto* d = static_cast<std::byte*>(call.backend.device_pointer(*out.buffer(), call.op.name()));
  const auto* s =
      static_cast<const std::byte*>(call.backend.device_pointer(*a.buffer(), call.op.name())) +
      a.layout().offset * size;
  cuda_check(
      cuda_kernels::launch_copy(static_cast<int>(size), d, s, ix.index, ix.count, call.stream()),
      call.op.name());
  return out;
}

EagerTensor compact(const CudaCall& call, const EagerTensor& t) {
  EagerTensor out = call.ctx.allocate(t.dtype(), t.shape());
  if (t.numel() == 0) return out;
  const auto ix = cuda_layout::coalesce<2>(t.shape(), {out.strides(), t.strides()});
  const auto size = static_cast<std::int64_t>(dtype_size(t.dtype()));
  auto* d = static_cast<std::byte*>(call.backend.device_pointer(*out.buffer(), call.op.name()));
  const auto* s =
      static_cast<const std::byte*>(call.backend.device_pointer(*t.buffer(), call.op.name())) +
      t.layout().offset * size;
  cuda_check(
      cuda_kernels::launch_copy(static_cast<int>(size), d, s, ix.index, ix.count, call.stream()),
      call.op.name());
  return out;
}

EagerTensor leading_block(const CudaCall& call, const EagerTensor& t, const Shape& block) {
  const EagerTensor view(t.runtime(), t.buffer(),
                         TensorLayout{t.dtype(), block, t.strides(), t.layout().offset});
  return compact(call, view);
}

DeviceStatus::DeviceStatus(const CudaCall& call, std::int64_t info_slots)
    : call_(call), slots_(1 + info_slots) {
  // F32 storage of the same byte size holds the ints (a runtime buffer, stream-ordered).
  storage_ = call.ctx.allocate(DType::F32, Shape{slots_});
  base_ = static_cast<int*>(call.backend.device_pointer(*storage_.buffer(), call.op.name()));
  cuda_check(cuda_kernels::launch_fill_int(base_, 1, INT_MAX, call.stream()), call.op.name());
  cuda_check(cuda_kernels::launch_fill_int(base_ + 1, info_slots, 0, call.stream()),
             call.op.name());
}

void DeviceStatus::check_finite(cuda_kernels::Element e, const void* data, std::int64_t count,
                                std::int64_t batch_stride, std::int64_t batch) const {
  cuda_check(cuda_kernels::launch_first_nonfinite(e, data, count, batch_stride, batch, base_,
                                                  call_.stream()),
             call_.op.name());
}

std::vector<int> DeviceStatus::finish(const Shape& batch_shape, const char* input_name) const {
  std::vector<int> host(static_cast<std::size_t>(slots_));
  cuda_check(cudaMemcpyAsync(host.data(), base_, host.size() * sizeof(int), cudaMemcpyDeviceToHost,
                             call_.stream()),
             call_.op.name());
  cuda_check(cudaStreamSynchronize(call_.stream()), call_.op.name());
  runtime_internal::RuntimeAccess::count_status_read(call_.ctx.runtime(),
                                                     host.size() * sizeof(int));
  if (host[0] != INT_MAX) {
    throw_numerical(call_, host[0], batch_shape,
                    std::string("input ") + input_name +
                        " contains a non-finite value (NaN or Inf); results were discarded");
  }
  return std::vector<int>(host.begin() + 1, host.end());
}

void throw_numerical(const CudaCall& call, std::int64_t batch_index, const Shape& batch_shape,
                     const std::string& what) {
  throw_error(ErrorKind::Numerical, ErrorPhase::Execute, call.op_name(),
              linalg_cpu::batch_label(batch_index, batch_shape) + ": " + what);
}

void throw_info_argument(const CudaCall& call, const char* routine, int info) {
  throw_error(ErrorKind::Backend, ErrorPhase::Execute, call.op_name(),
              std::string(routine) + " rejected argument " + std::to_string(-info) +
                  " (an internal error in tenferro's cuSOLVER call; please report it)");
}

}  // namespace tenferro::linalg_cuda
