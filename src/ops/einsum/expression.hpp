// The parsed, validated form of an einsum call, shared by the planner and the executors.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "tenferro/core/shape.hpp"
#include "tenferro/einsum.hpp"

namespace tenferro::einsum_internal {

using Label = std::int32_t;

// The most distinct labels one expression may have. Not the alphabet (any non-ASCII code
// point is a label) but the plan: the planners keep one bit per label in every operand's
// label set, so a million labels over a thousand operands is already 128 MiB of sets.
inline constexpr std::size_t kMaxDistinctLabels = std::size_t{1} << 20;

struct EinsumExpression {
  std::vector<std::vector<Label>> inputs;  // one label per operand axis (ellipsis expanded)
  std::vector<Label> output;               // explicit, or NumPy's implicit rule
  // Labels that stand for ellipsis ('...') dimensions (the implicit output starts with them).
  // Any label's extent 1 broadcasts (label_sizes; the executor reads it with stride 0).
  std::vector<Label> broadcast_labels;
  // A readable name per label id, for messages and path reports: the letter itself, "..0",
  // "..1" for ellipsis dimensions (leftmost first), or the integer of the integer-label form.
  std::vector<std::string> label_names;
};

// Whether code point `c` is a label of the subscripts form (ASCII letters and digits, and any
// non-ASCII code point that is not whitespace), and its UTF-8 spelling.
bool is_label_code_point(char32_t c);
std::string utf8_of(char32_t c);

// Number of distinct labels (max label id + 1 over inputs and output; 0 when none).
std::int32_t num_labels(const EinsumExpression& expr);

// Parses UTF-8 subscripts ("ij,jk->ik", "...ij,...jk", "àβ,βγ->àγ", implicit output,
// whitespace) for operands of the given ranks. Throws Validation naming the byte position
// (0-based) or operand index. Implicit output: ellipsis dims first, then the labels that
// appear exactly once in code-point order (uppercase before lowercase, as NumPy). Unlike NumPy, an
// explicit output may repeat a label ("i->ii", diagonal embedding); see expression.cpp for the full
// rules.
EinsumExpression parse_subscripts(std::string_view subscripts, std::span<const std::int64_t> ranks);
// Validates the integer-label form against the ranks (Validation errors name the operand).
EinsumExpression from_labels(const EinsumLabels& labels, std::span<const std::int64_t> ranks);

// Size of every label (indexed by label id; labels are dense 0..num_labels-1 after parsing).
// Checks sizes agree across operands; size-1 extents broadcast as NumPy does for ellipsis
// labels. Throws Validation naming the operand and axis on a mismatch.
std::vector<std::int64_t> label_sizes(const EinsumExpression& expr, std::span<const Shape> shapes);

}  // namespace tenferro::einsum_internal
