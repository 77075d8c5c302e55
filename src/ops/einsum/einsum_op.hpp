// The einsum ExtensionOp: family "tenferro.einsum.v1". Its payload is the plan (parsed
// expression, label sizes, path and dtype), immutable and shared with the plan cache.
#pragma once

#include <memory>

#include "ops/einsum/executor.hpp"
#include "ops/einsum/program.hpp"
#include "tenferro/runtime/extension.hpp"

namespace tenferro::einsum_internal {

class EinsumOp final : public ExtensionOp {
 public:
  // `slices`: the part of a sliced plan to run (PreparedEinsum::run_slices); all by default.
  explicit EinsumOp(std::shared_ptr<const EinsumPlan> plan, SliceRange slices = {});
  std::string_view family() const noexcept override;
  std::string_view name() const noexcept override { return "einsum"; }
  std::size_t arity() const noexcept override { return plan_->expr.inputs.size(); }
  // Computed when asked (only the contract tests ask), not on every eager call.
  std::uint64_t payload_hash() const noexcept override;
  bool payload_equals(const ExtensionOp& other) const noexcept override;
  // Checks the inputs against the plan (Validation naming the operand) and returns the
  // output's dtype and shape.
  std::vector<TensorMeta> infer_outputs(std::span<const TensorMeta> inputs) const override;

  const EinsumPlan& plan() const noexcept { return *plan_; }
  const SliceRange& slices() const noexcept { return slices_; }

 private:
  std::shared_ptr<const EinsumPlan> plan_;
  SliceRange slices_;
};

}  // namespace tenferro::einsum_internal
