#include "ops/linalg/cpu/common.hpp"

#include "backends/cpu/cpu_backend.hpp"
#include "tenferro/core/error.hpp"

namespace tenferro::linalg_cpu {

Tensor host_clone(const CpuCall& call, const Tensor& t) {
  Tensor out = host_empty(call.ctx, t.dtype(), t.shape());
  copy_into(t, out);
  return out;
}

Tensor compact_host(const CpuCall& call, const EagerTensor& value) {
  Tensor view = host_tensor_of(value);
  return view.is_compact() ? view : host_clone(call, view);
}

std::string batch_label(std::int64_t batch_index, const Shape& batch_shape) {
  if (batch_shape.empty()) return "the matrix";
  Shape index(batch_shape.size());
  std::int64_t rest = batch_index;
  for (std::size_t axis = 0; axis < batch_shape.size(); ++axis) {  // column-major batch order
    index[axis] = rest % batch_shape[axis];
    rest /= batch_shape[axis];
  }
  return "batch entry " + std::to_string(batch_index) + " (index " + shape_to_string(index) + ")";
}

void throw_numerical(const CpuCall& call, std::int64_t batch_index, const Shape& batch_shape,
                     const std::string& what) {
  throw_error(ErrorKind::Numerical, ErrorPhase::Execute, call.op_name(),
              batch_label(batch_index, batch_shape) + ": " + what);
}

void throw_lapack_argument(const CpuCall& call, const char* routine, lapack::lint info) {
  throw_error(ErrorKind::Backend, ErrorPhase::Execute, call.op_name(),
              std::string(routine) + " rejected argument " + std::to_string(-info) +
                  " (an internal error in tenferro's LAPACK call; please report it)");
}

void count_lapack_call() {
  count_cpu_kernel_launch();
}

}  // namespace tenferro::linalg_cpu
