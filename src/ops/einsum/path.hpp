// Contraction-order planning: greedy, optimal (DP over subsets), explicit and auto.
#pragma once

#include <span>

#include "ops/einsum/expression.hpp"
#include "tenferro/einsum.hpp"

namespace tenferro::einsum_internal {

// Plans the pairwise order for `expr` with `sizes` (from label_sizes). A single-operand
// expression yields an empty path. Validates explicit paths (Validation on a bad step).
EinsumPath plan_path(const EinsumExpression& expr, std::span<const std::int64_t> sizes,
                     const EinsumOptions& options);

}  // namespace tenferro::einsum_internal
