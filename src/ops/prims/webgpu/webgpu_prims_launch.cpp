#include "ops/prims/webgpu/webgpu_prims_launch.hpp"

#include "ops/prims/webgpu/wgsl_prims_sources.hpp"
#include "tenferro/core/error.hpp"

namespace tenferro::prims_webgpu {

using prims_internal::PrimKind;

void fail(ErrorKind kind, PrimKind op, const std::string& message) {
  throw_error(kind, ErrorPhase::Execute, std::string(prims_internal::prim_name(op)),
              "WebGPU: " + message);
}

void check_count(std::int64_t n, PrimKind op, std::string_view what) {
  if (n > kMaxI32) {
    fail(ErrorKind::Unsupported, op,
         std::string(what) + " of " + std::to_string(n) +
             " exceed 2^31-1, which WGSL's 32-bit indices cannot address");
  }
}

const WebGpuBuffer& checked_buffer(const prims_internal::StridedOperand& o, PrimKind op,
                                   std::string_view operand) {
  const TensorLayout& l = o.layout;
  if (o.buffer == nullptr)
    fail(ErrorKind::RuntimeState, op, std::string(operand) + " has no buffer");
  if (l.dtype != DType::F32 && l.dtype != DType::C32) {
    fail(ErrorKind::Unsupported, op,
         std::string(operand) + " is " + std::string(dtype_name(l.dtype)) +
             "; WebGPU kernels run F32 and C32 only (WGSL has no f64)");
  }
  if (l.shape.size() != l.strides.size()) {
    fail(ErrorKind::RuntimeState, op, std::string(operand) + " has a rank/stride mismatch");
  }
  const WebGpuBuffer& buffer =
      WebGpuBackend::buffer_of(*o.buffer, "prims." + std::string(prims_internal::prim_name(op)));
  check_count(l.numel(), op, std::string(operand) + "'s elements");
  // The elements the view reaches, [lo, hi]: a negative stride (flip's input, read backwards)
  // reaches below the offset.
  std::int64_t lo = l.offset, hi = l.offset;
  for (std::size_t a = 0; a < l.shape.size(); ++a) {
    if (l.shape[a] == 0) return buffer;  // touches nothing
    (l.strides[a] < 0 ? lo : hi) += (l.shape[a] - 1) * l.strides[a];
  }
  const auto elements = static_cast<std::int64_t>(buffer.size_bytes() / dtype_size(l.dtype));
  if (lo < 0 || hi >= elements) {
    fail(ErrorKind::Validation, op,
         std::string(operand) + " reaches elements [" + std::to_string(lo) + ", " +
             std::to_string(hi) + "] of a buffer holding " + std::to_string(elements));
  }
  check_count(hi, op, std::string(operand) + "'s element indices");
  return buffer;
}

InOutBuffers checked_in_out(const prims_internal::StridedOperand& in,
                            const prims_internal::StridedOperand& out, PrimKind op) {
  const WebGpuBuffer& in_buffer = checked_buffer(in, op, "the input");
  const WebGpuBuffer& out_buffer = checked_buffer(out, op, "the output");
  if (&in_buffer == &out_buffer) {
    fail(ErrorKind::RuntimeState, op, "the input shares its buffer with the output");
  }
  return {in_buffer, out_buffer};
}

}  // namespace tenferro::prims_webgpu
