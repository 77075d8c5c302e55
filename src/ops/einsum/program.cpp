#include "ops/einsum/program.hpp"

#include <algorithm>
#include <span>
#include <string>
#include <utility>

#include "ops/einsum/direct_gemm.hpp"
#include "ops/einsum/live_order.hpp"
#include "ops/einsum/replay.hpp"
#include "tenferro/core/error.hpp"

namespace tenferro::einsum_internal {
namespace {

bool contains(std::span<const Label> labels, Label l) {
  return std::find(labels.begin(), labels.end(), l) != labels.end();
}

bool has_repeats(const std::vector<Label>& labels) {
  for (std::size_t i = 0; i < labels.size(); ++i)
    for (std::size_t j = i + 1; j < labels.size(); ++j)
      if (labels[i] == labels[j]) return true;
  return false;
}

std::vector<Label> unique_labels(const std::vector<Label>& labels) {
  std::vector<Label> out;
  for (Label l : labels)
    if (!contains(out, l)) out.push_back(l);
  return out;
}

// Two operands, each label used once per operand, no broadcast extents, nothing summed by
// one operand alone, at least one contracted label: one GEMM could compute it.
bool is_direct_candidate(const EinsumPlan& plan) {
  if (plan.expr.inputs.size() != 2 || plan.output_has_repeats) return false;
  const auto& a = plan.expr.inputs[0];
  const auto& b = plan.expr.inputs[1];
  if (has_repeats(a) || has_repeats(b)) return false;
  for (std::size_t t = 0; t < 2; ++t) {
    const auto& labels = plan.expr.inputs[t];
    const auto& other = plan.expr.inputs[1 - t];
    for (std::size_t axis = 0; axis < labels.size(); ++axis) {
      if (plan.input_shapes[t][axis] != plan.sizes[labels[axis]]) return false;
      if (!contains(other, labels[axis]) && !plan.in_output[labels[axis]]) return false;
    }
  }
  for (Label l : a)
    if (contains(b, l) && !plan.in_output[l]) return true;
  return false;
}

}  // namespace

std::size_t EinsumPlan::retained_bytes() const {
  std::size_t bytes = sizeof(EinsumPlan) + sizes.size() * 8 + output_shape.size() * 8;
  for (const auto& in : expr.inputs) bytes += in.size() * sizeof(Label) + 32;
  for (const auto& s : input_shapes) bytes += s.size() * 8 + 32;
  for (const auto& s : steps)
    bytes += (s.kept.size() + s.next_contracted.size()) * sizeof(Label) + sizeof(ProgramStep);
  bytes += direct_gemms.size() * sizeof(DirectGemm) + dropped_axes.size() * 8;
  // A replay is recorded later, outside the cache's count: charged here ahead.
  const std::size_t slots = (replay ? 1 : 0) + (slice_replay ? 1 : 0);
  bytes += slots * ReplaySlot::kKept * Replay::bytes_estimate(steps.size());
  return bytes + path.steps.size() * sizeof(std::pair<int, int>);
}

EinsumPlan build_plan(EinsumExpression expr, std::vector<std::int64_t> sizes, EinsumPath path,
                      DType dtype, std::vector<Shape> input_shapes) {
  EinsumPlan plan;
  plan.expr = std::move(expr);
  plan.sizes = std::move(sizes);
  plan.path = std::move(path);
  plan.dtype = dtype;
  plan.input_shapes = std::move(input_shapes);
  const std::size_t num_labels = plan.sizes.size();
  plan.in_output.assign(num_labels, 0);
  for (Label l : plan.expr.output) {
    plan.in_output.at(static_cast<std::size_t>(l)) = 1;
    plan.output_shape.push_back(plan.sizes[static_cast<std::size_t>(l)]);
  }
  plan.output_has_repeats = has_repeats(plan.expr.output);
  // Before any stride or size arithmetic on the output (the direct binary path computes its
  // strides first): e.g. (2^40, 0) x (0, 2^40) -> (2^40, 2^40) is refused here, typed.
  if (const std::string why = shape_size_violation(plan.output_shape, dtype_size(dtype));
      !why.empty())
    throw_validation("einsum", "output " + why);

  // Simulate the operand list of the path to know, per step, which labels stay needed. Terms
  // by slot (inputs, then one per step); `live` maps the list's positions to slots and
  // `holders[label]` counts the live terms carrying the label, so a step costs O(its labels +
  // log n + all labels), not a scan of every live term (O(n^2) on 200000 operands).
  // A term's labels are views: of the input's own labels (or of a copy without repeats), and
  // of a step's `kept` (plan.steps is reserved, so they stay put): copying every term was an
  // allocation per operand and per step.
  const int n = static_cast<int>(plan.expr.inputs.size());
  std::vector<std::span<const Label>> terms;
  terms.reserve(plan.expr.inputs.size() + plan.path.steps.size());
  plan.steps.reserve(plan.path.steps.size());
  std::vector<std::vector<Label>> deduplicated;
  deduplicated.reserve(plan.expr.inputs.size());
  std::vector<int> made_by;  // per slot: the step that produced it, or -1 (an input)
  made_by.reserve(terms.capacity());
  std::vector<int> holders(num_labels, 0);
  for (const auto& in : plan.expr.inputs) {
    terms.push_back(has_repeats(in) ? deduplicated.emplace_back(unique_labels(in))
                                    : std::span<const Label>(in));
    made_by.push_back(-1);
    for (Label l : terms.back()) ++holders[static_cast<std::size_t>(l)];
  }
  LiveOrder live(n + static_cast<int>(plan.path.steps.size()), n);
  for (const auto& [i, j] : plan.path.steps) {
    const int current = live.size();
    if (i < 0 || j < 0 || i >= current || j >= current || i == j)
      throw_validation("einsum", "path step (" + std::to_string(i) + ", " + std::to_string(j) +
                                     ") does not name two of the " + std::to_string(current) +
                                     " current operands");
    ProgramStep step;
    step.lhs = i;
    step.rhs = j;
    step.lhs_slot = live.slot_at(i);
    step.rhs_slot = live.slot_at(j);
    const std::span<const Label> a = terms[static_cast<std::size_t>(step.lhs_slot)];
    const std::span<const Label> b = terms[static_cast<std::size_t>(step.rhs_slot)];
    for (const auto* side : {&a, &b})
      for (Label l : *side) --holders[static_cast<std::size_t>(l)];
    // The labels of the two operands the output or a waiting operand carries.
    std::vector<Label> result;
    for (const auto* side : {&a, &b})
      for (Label l : *side)
        if ((plan.in_output[static_cast<std::size_t>(l)] ||
             holders[static_cast<std::size_t>(l)] > 0) &&
            !contains(result, l))
          result.push_back(l);
    // This step contracts, of an intermediate it consumes, the labels it shares with the other
    // operand that no one needs afterwards: tell the step that made it.
    for (const auto& [mine, other] :
         {std::pair{step.lhs_slot, step.rhs_slot}, std::pair{step.rhs_slot, step.lhs_slot}}) {
      const int maker = made_by[static_cast<std::size_t>(mine)];
      if (maker < 0) continue;
      std::vector<Label>& next = plan.steps[static_cast<std::size_t>(maker)].next_contracted;
      for (Label l : terms[static_cast<std::size_t>(mine)])
        if (contains(terms[static_cast<std::size_t>(other)], l) && !contains(result, l))
          next.push_back(l);
    }
    for (Label l : result) ++holders[static_cast<std::size_t>(l)];
    step.kept = std::move(result);
    live.remove(step.lhs_slot);
    live.remove(step.rhs_slot);
    live.add(static_cast<int>(terms.size()));
    made_by.push_back(static_cast<int>(plan.steps.size()));
    terms.push_back(plan.steps.emplace_back(std::move(step)).kept);
  }
  if (live.size() != 1)
    throw_validation("einsum", "the contraction path leaves " + std::to_string(live.size()) +
                                   " operands; it must reduce them to one");
  plan.direct_candidate = is_direct_candidate(plan);
  plan.direct_gemms = plan_direct_gemms(plan);
  if (plan.steps.size() <= kMaxReplaySteps) {
    plan.replay = std::make_shared<ReplaySlot>();
    if (!plan.path.sliced_labels.empty()) plan.slice_replay = std::make_shared<ReplaySlot>();
  }
  return plan;
}

BlasMatrix blas_matrix(std::int64_t rows, std::int64_t cols, std::int64_t row_stride,
                       std::int64_t col_stride) {
  const bool rows_free = rows <= 1, cols_free = cols <= 1;
  if ((rows_free || row_stride == 1) &&
      (cols_free || col_stride >= std::max<std::int64_t>(1, rows)))
    return {true, false, cols_free ? std::max<std::int64_t>(1, rows) : col_stride};
  if ((cols_free || col_stride == 1) &&
      (rows_free || row_stride >= std::max<std::int64_t>(1, cols)))
    return {true, true, rows_free ? std::max<std::int64_t>(1, cols) : row_stride};
  return {};
}

}  // namespace tenferro::einsum_internal
