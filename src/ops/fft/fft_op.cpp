#include "ops/fft/fft_op.hpp"

#include <string>

#include "runtime/op_cast.hpp"
#include "tenferro/core/error.hpp"

namespace tenferro::fft_internal {

std::string_view FftOp::family() const noexcept {
  return fft_family::kFamily;
}

bool FftOp::payload_equals(const ExtensionOp& other) const noexcept {
  const auto* o = runtime_internal::op_as<FftOp>(other);
  return o != nullptr && o->request_ == request_;
}

std::vector<TensorMeta> FftOp::infer_outputs(std::span<const TensorMeta> inputs) const {
  if (inputs.size() != 1) {
    throw_validation(std::string(name()), "takes one input, got " + std::to_string(inputs.size()));
  }
  FftSpec scratch;
  const FftSpec& spec = spec_for(inputs[0].dtype, inputs[0].shape, scratch);
  return {TensorMeta{spec.out_dtype, spec.out_shape}};
}

const FftSpec& FftOp::spec_for(DType dtype, const Shape& shape, FftSpec& scratch) const {
  if (resolved_ && resolved_->dtype == dtype && resolved_->shape == shape) return resolved_->spec;
  scratch = resolve(request_, dtype, shape);
  return scratch;
}

}  // namespace tenferro::fft_internal
