// Contraction-order planning: greedy, optimal (DP over subsets), explicit and auto.
#pragma once

#include <span>

#include "ops/einsum/expression.hpp"
#include "ops/einsum/planner_registry.hpp"
#include "tenferro/einsum.hpp"

namespace tenferro::einsum_internal {

// Plans the pairwise order for `expr` with `sizes` (from label_sizes). A single-operand
// expression yields an empty path. Validates explicit paths (Validation on a bad step).
EinsumPath plan_path(const EinsumExpression& expr, std::span<const std::int64_t> sizes,
                     const EinsumOptions& options);
// The same with the planner already chosen (choose_planner(options)), so that a caller that
// keys a cache by the choice plans with exactly that choice.
EinsumPath plan_path(const EinsumExpression& expr, std::span<const std::int64_t> sizes,
                     const EinsumOptions& options, const PlannerChoice& choice);

}  // namespace tenferro::einsum_internal
