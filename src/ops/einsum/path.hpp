// Contraction-order planning: greedy, optimal (DP over subsets), explicit and auto.
#pragma once

#include <optional>
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
                     const EinsumOptions& options, const PlannerChoice& choice,
                     bool step_text = true);

// The request's own Validation errors, without planning: the options, an explicit path's
// steps, a memory limit below an input or the output. For a caller that refuses a call before
// planning it (Unsupported on its backend): these checks come first, as planning would run them.
void validate_request(const EinsumExpression& expr, std::span<const std::int64_t> sizes,
                      const EinsumOptions& options);

// Path reuse across shapes (EinsumOptions::reuse_path_across_shapes). Whether a path planned for
// other shapes may stand in for `choice` at all: the option is on, a built-in search chose
// (Auto, Optimal, Hyper; greedy is the check itself), three or more operands.
bool may_reuse_path(const EinsumOptions& options, const PlannerChoice& choice,
                    std::size_t operands);
// `earlier` was planned for `expr` at other label sizes. Returns its steps evaluated, and sliced,
// at `sizes` when they cost no more there than the greedy path by `choice`'s objective (FLOPs
// for Optimal); nullopt when they do. Call it only when may_reuse_path holds.
std::optional<EinsumPath> reuse_path(const EinsumExpression& expr,
                                     std::span<const std::int64_t> sizes,
                                     const EinsumOptions& options, const PlannerChoice& choice,
                                     const EinsumPath& earlier, bool step_text = true);

// `step_text`: whether the report's text (the complete expression, the steps' subscripts and
// remaining expressions) is written (evaluate_path). An einsum call plans without them;
// add_step_text writes them into such a path (of `expr` at `sizes`) when einsum_path reports it,
// and leaves a path that has them. It polls options.interrupt as the planner does (the text of
// 200000 steps takes a while).
void add_step_text(const EinsumExpression& expr, std::span<const std::int64_t> sizes,
                   const EinsumOptions& options, EinsumPath& path);

}  // namespace tenferro::einsum_internal
