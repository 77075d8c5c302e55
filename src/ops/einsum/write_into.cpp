#include "ops/einsum/write_into.hpp"

#include <string>

#include "ops/einsum/kernel_session.hpp"
#include "runtime/call_scope.hpp"
#include "tenferro/runtime/errors.hpp"

namespace tenferro::einsum_internal {
namespace {

KernelView view_of(const EagerTensor& t) {
  return KernelView{t.buffer().get(), t.dtype(), t.shape(), t.strides(), t.layout().offset};
}

}  // namespace

void write_into(const EagerTensor& src, const EagerTensor& dst, std::string_view op) {
  const auto name = [op] { return std::string(op); };  // built only to throw
  if (!src.defined() || !dst.defined())
    throw_validation(name(), "internal: write_into got an empty handle");
  if (src.runtime() != dst.runtime()) {
    throw_error(ErrorKind::ContextMismatch, ErrorPhase::Input, name(),
                "internal: write_into between two runtimes (no transfer happens here)");
  }
  if (src.dtype() != dst.dtype() || src.shape() != dst.shape()) {
    throw_validation(name(), "internal: write_into of " + std::string(dtype_name(src.dtype())) +
                                 " " + shape_to_string(src.shape()) + " into " +
                                 std::string(dtype_name(dst.dtype())) + " " +
                                 shape_to_string(dst.shape()));
  }
  EagerRuntime& runtime = *dst.runtime();
  ContractionKernels* kernels = contraction_kernels_for(runtime);
  if (kernels == nullptr) {
    throw_error(ErrorKind::Unsupported, ErrorPhase::Input, name(),
                "this build has no einsum kernels for the " +
                    std::string(backend_kind_name(runtime.backend_kind())) + " backend");
  }
  const RuntimeCallScope call_scope(runtime);
  run_on_own_kernels(runtime, op, [&] { kernels->copy(view_of(src), view_of(dst)); });
}

}  // namespace tenferro::einsum_internal
