// The parsed, validated form of an einsum call, shared by the planner and the executors.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "tenferro/core/shape.hpp"
#include "tenferro/einsum.hpp"

namespace tenferro::einsum_internal {

using Label = std::int32_t;

struct EinsumExpression {
  std::vector<std::vector<Label>> inputs;  // one label per operand axis (ellipsis expanded)
  std::vector<Label> output;               // explicit, or NumPy's implicit rule
};

// Parses subscripts ("ij,jk->ik", "...ij,...jk", implicit output, whitespace) for operands
// of the given ranks. Throws Validation naming the character position or operand index.
EinsumExpression parse_subscripts(std::string_view subscripts, std::span<const std::int64_t> ranks);
// Validates the integer-label form against the ranks (Validation errors name the operand).
EinsumExpression from_labels(const EinsumLabels& labels, std::span<const std::int64_t> ranks);

// Size of every label (indexed by label id; labels are dense 0..num_labels-1 after parsing).
// Checks sizes agree across operands; size-1 extents broadcast as NumPy does for ellipsis
// labels. Throws Validation naming the operand and axis on a mismatch.
std::vector<std::int64_t> label_sizes(const EinsumExpression& expr, std::span<const Shape> shapes);

}  // namespace tenferro::einsum_internal
