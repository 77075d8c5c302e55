#include "ops/einsum/einsum_op.hpp"

#include <string>

#include "runtime/op_cast.hpp"
#include "tenferro/core/error.hpp"
#include "tenferro/einsum.hpp"

namespace tenferro::einsum_internal {
namespace {

std::uint64_t mix(std::uint64_t h, std::uint64_t v) {
  return (h ^ v) * 0x100000001b3ULL + (h >> 29);
}

std::uint64_t hash_plan(const EinsumPlan& p) {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  h = mix(h, static_cast<std::uint64_t>(p.dtype));
  for (const auto& in : p.expr.inputs) {
    h = mix(h, in.size());
    for (Label l : in) h = mix(h, static_cast<std::uint64_t>(l));
  }
  h = mix(h, 0xffff);
  for (Label l : p.expr.output) h = mix(h, static_cast<std::uint64_t>(l));
  for (auto s : p.sizes) h = mix(h, static_cast<std::uint64_t>(s));
  for (const auto& [i, j] : p.path.steps) h = mix(mix(h, static_cast<std::uint64_t>(i)), j);
  for (int l : p.path.sliced_labels) h = mix(h, static_cast<std::uint64_t>(l) + 0x5117ce);
  return h;
}

}  // namespace

EinsumOp::EinsumOp(std::shared_ptr<const EinsumPlan> plan, SliceRange slices)
    : plan_(std::move(plan)), slices_(slices) {}

std::uint64_t EinsumOp::payload_hash() const noexcept {
  return mix(mix(hash_plan(*plan_), static_cast<std::uint64_t>(slices_.first)),
             static_cast<std::uint64_t>(slices_.count));
}

std::string_view EinsumOp::family() const noexcept {
  return einsum_family::kFamily;
}

bool EinsumOp::payload_equals(const ExtensionOp& other) const noexcept {
  const auto* o = runtime_internal::op_as<EinsumOp>(other);
  if (o == nullptr || o->slices_ != slices_) return false;
  if (o->plan_ == plan_) return true;
  const EinsumPlan &a = *plan_, &b = *o->plan_;
  return a.dtype == b.dtype && a.expr.inputs == b.expr.inputs && a.expr.output == b.expr.output &&
         a.sizes == b.sizes && a.path.steps == b.path.steps && a.input_shapes == b.input_shapes &&
         a.path.sliced_labels == b.path.sliced_labels;
}

std::vector<TensorMeta> EinsumOp::infer_outputs(std::span<const TensorMeta> inputs) const {
  const EinsumPlan& p = *plan_;
  if (inputs.size() != p.input_shapes.size())
    throw_validation("einsum", "expected " + std::to_string(p.input_shapes.size()) +
                                   " operands, got " + std::to_string(inputs.size()));
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    if (inputs[i].dtype != p.dtype)
      throw_validation("einsum", "operand " + std::to_string(i) + " has dtype " +
                                     std::string(dtype_name(inputs[i].dtype)) + ", the plan " +
                                     std::string(dtype_name(p.dtype)));
    if (inputs[i].shape != p.input_shapes[i])
      throw_validation("einsum", "operand " + std::to_string(i) + " has shape " +
                                     shape_to_string(inputs[i].shape) + ", the plan " +
                                     shape_to_string(p.input_shapes[i]));
  }
  return {TensorMeta{p.dtype, p.output_shape}};
}

}  // namespace tenferro::einsum_internal
