// VJP/JVP rules of einsum, for any notation. The rules use the parsed label form (ellipsis
// expanded, implicit output resolved). A tracked contraction of three or more plain operands is
// recorded as its planned pairwise steps (the forward intermediates are then reused by reverse
// mode); anything else runs the user's subscripts unchanged as one node.
//
// Einsum is multilinear, so the JVP is the sum over operands of the same einsum with that
// operand replaced by its tangent, and the cotangent of operand k is the einsum of the output
// cotangent with the conjugates of the other operands, written to operand k's labels:
// - a label repeated in operand k (a trace or diagonal) comes out as a diagonal embedding
//   (einsum accepts a repeated output label);
// - a label only operand k carries (summed away in the primal) is broadcast back by a ones
//   vector carrying it;
// - ellipsis axes of extent 1 that broadcast in the primal are broadcast explicitly first;
//   the cotangent then has the full extent there and the reverse pass sums it back (fit()).
#include <algorithm>
#include <functional>

#include "ad/helpers.hpp"
#include "ad/tape.hpp"
#include "ops/einsum/expression.hpp"
#include "ops/einsum/path.hpp"

namespace tenferro::ad {
namespace {

using T = EagerTensor;
using einsum_internal::EinsumExpression;

bool contains(const std::vector<einsum_internal::Label>& v, einsum_internal::Label l) {
  return std::find(v.begin(), v.end(), l) != v.end();
}

// x with every axis at its label's full extent (stride-0 where x broadcasts).
T at_full_extent(const T& x, const std::vector<einsum_internal::Label>& labels,
                 const std::vector<std::int64_t>& sizes) {
  Shape full;
  for (auto l : labels) full.push_back(sizes[static_cast<std::size_t>(l)]);
  return full == x.shape() ? x : prims::broadcast_to(x, full);
}

T operand_cotangent(const EinsumExpression& expr, const std::vector<std::int64_t>& sizes,
                    const std::vector<T>& xs, const T& g, std::size_t k) {
  EinsumLabels labels;
  std::vector<T> ops;
  labels.inputs.push_back(std::vector<int>(expr.output.begin(), expr.output.end()));
  ops.push_back(g);
  for (std::size_t j = 0; j < xs.size(); ++j) {
    if (j == k) continue;
    labels.inputs.push_back(std::vector<int>(expr.inputs[j].begin(), expr.inputs[j].end()));
    T x = at_full_extent(xs[j], expr.inputs[j], sizes);
    ops.push_back(is_complex(x.dtype()) ? prims::conj(x) : x);
  }
  std::vector<einsum_internal::Label> seen;
  for (auto l : expr.inputs[k]) {
    if (contains(seen, l)) continue;
    seen.push_back(l);
    bool elsewhere = contains(expr.output, l);
    for (std::size_t j = 0; j < xs.size() && !elsewhere; ++j) {
      elsewhere = j != k && contains(expr.inputs[j], l);
    }
    if (!elsewhere) {
      labels.inputs.push_back({static_cast<int>(l)});
      ops.push_back(prims::ones(g.runtime(), g.dtype(), {sizes[static_cast<std::size_t>(l)]}));
    }
  }
  labels.output.assign(expr.inputs[k].begin(), expr.inputs[k].end());
  return einsum(labels, ops);
}

}  // namespace

namespace {

// One einsum node in the label form: the primal, the N-ary VJP (one einsum per operand) and
// the JVP (one einsum per operand with a tangent).
Variable einsum_node(std::shared_ptr<const EinsumExpression> expr,
                     std::span<const Variable> operands,
                     const std::function<T(std::span<const T>)>& forward) {
  std::vector<T> xs;
  std::vector<Shape> shapes;
  for (const auto& v : operands) {
    xs.push_back(v.value());
    shapes.push_back(v.shape());
  }
  T y = forward(xs);
  auto sizes = einsum_internal::label_sizes(*expr, shapes);
  return record1(
      "einsum", operands, y,
      [expr, sizes, xs](std::span<const T> g, const std::vector<bool>& needs) {
        std::vector<T> r(xs.size());
        for (std::size_t k = 0; k < xs.size(); ++k) {
          if (needs[k]) r[k] = operand_cotangent(*expr, sizes, xs, g[0], k);
        }
        return r;
      },
      [xs, forward](std::span<const T> t) {
        T sum;
        for (std::size_t k = 0; k < xs.size(); ++k) {
          if (!t[k].defined()) continue;
          std::vector<T> ops = xs;
          ops[k] = t[k];
          sum = add_opt(sum, forward(ops));
        }
        return std::vector<T>{sum};
      });
}

// Whether the contraction can be recorded as its planned pairwise steps: three or more
// operands, no label repeated inside an operand or the output (traces and diagonals stay in
// the N-ary rule), no ellipsis broadcasting and no memory limit (the steps would hold
// intermediates whole).
bool pairwise_ok(const EinsumExpression& expr, const std::vector<std::int64_t>& sizes,
                 std::span<const Shape> shapes, const EinsumOptions& options) {
  if (expr.inputs.size() < 3 || options.memory_limit != 0) return false;
  const auto distinct = [](const std::vector<einsum_internal::Label>& l) {
    for (std::size_t a = 0; a < l.size(); ++a)
      for (std::size_t b = a + 1; b < l.size(); ++b)
        if (l[a] == l[b]) return false;
    return true;
  };
  if (!distinct(expr.output)) return false;
  for (std::size_t k = 0; k < expr.inputs.size(); ++k) {
    if (!distinct(expr.inputs[k])) return false;
    for (std::size_t a = 0; a < expr.inputs[k].size(); ++a) {
      if (shapes[k][a] != sizes[static_cast<std::size_t>(expr.inputs[k][a])]) return false;
    }
  }
  return true;
}

EinsumLabels to_labels(const std::vector<std::vector<einsum_internal::Label>>& inputs,
                       const std::vector<einsum_internal::Label>& output) {
  EinsumLabels l;
  for (const auto& in : inputs) l.inputs.emplace_back(in.begin(), in.end());
  l.output.assign(output.begin(), output.end());
  return l;
}

}  // namespace

Variable einsum(std::string_view subscripts, std::span<const Variable> operands,
                const EinsumOptions& options) {
  std::vector<Shape> shapes;
  std::vector<std::int64_t> ranks;
  for (const auto& v : operands) {
    shapes.push_back(v.shape());
    ranks.push_back(v.rank());
  }
  auto expr = std::make_shared<const EinsumExpression>(
      einsum_internal::parse_subscripts(subscripts, ranks));
  const auto sizes = einsum_internal::label_sizes(*expr, shapes);
  const bool tracked = grad_enabled() && std::any_of(operands.begin(), operands.end(),
                                                     [](const Variable& v) { return v.tracked(); });
  if (!tracked || !pairwise_ok(*expr, sizes, shapes, options)) {
    std::string sub(subscripts);
    return einsum_node(expr, operands, [sub, options](std::span<const T> xs) {
      return tenferro::einsum(sub, xs, options);
    });
  }
  // Record the planned pairwise steps: reverse mode then reuses the forward intermediates
  // (two binary contractions per step, so backward costs about twice the forward) instead of
  // recontracting the whole network once per operand.
  const EinsumPath path = einsum_internal::plan_path(*expr, sizes, options);
  std::vector<Variable> live(operands.begin(), operands.end());
  std::vector<std::vector<einsum_internal::Label>> labels = expr->inputs;
  for (std::size_t step = 0; step < path.steps.size(); ++step) {
    auto [i, j] = path.steps[step];
    if (i > j) std::swap(i, j);
    const auto a = static_cast<std::size_t>(i), b = static_cast<std::size_t>(j);
    std::vector<einsum_internal::Label> out;
    if (step + 1 == path.steps.size()) {
      out = expr->output;
    } else {
      // Keep a label when the output or an operand outside this pair still needs it.
      const auto needed = [&](einsum_internal::Label l) {
        if (contains(expr->output, l)) return true;
        for (std::size_t k = 0; k < labels.size(); ++k)
          if (k != a && k != b && contains(labels[k], l)) return true;
        return false;
      };
      for (const auto* side : {&labels[a], &labels[b]})
        for (auto l : *side)
          if (needed(l) && !contains(out, l)) out.push_back(l);
    }
    // The step's own expression, its labels renumbered densely (label_sizes wants every id
    // from 0 up to appear in an input).
    auto step_expr = std::make_shared<EinsumExpression>();
    std::vector<einsum_internal::Label> ids;
    const auto dense = [&](const std::vector<einsum_internal::Label>& in) {
      std::vector<einsum_internal::Label> r;
      for (auto l : in) {
        auto it = std::find(ids.begin(), ids.end(), l);
        if (it == ids.end()) {
          ids.push_back(l);
          it = ids.end() - 1;
        }
        r.push_back(static_cast<einsum_internal::Label>(it - ids.begin()));
      }
      return r;
    };
    step_expr->inputs = {dense(labels[a]), dense(labels[b])};
    step_expr->output = dense(out);
    for (auto l : ids)
      step_expr->label_names.push_back(expr->label_names[static_cast<std::size_t>(l)]);
    const EinsumLabels step_labels = to_labels(step_expr->inputs, step_expr->output);
    const Variable pair[] = {live[a], live[b]};
    Variable r = einsum_node(step_expr, pair, [step_labels](std::span<const T> xs) {
      return tenferro::einsum(step_labels, xs);
    });
    live.erase(live.begin() + static_cast<std::ptrdiff_t>(b));
    live.erase(live.begin() + static_cast<std::ptrdiff_t>(a));
    labels.erase(labels.begin() + static_cast<std::ptrdiff_t>(b));
    labels.erase(labels.begin() + static_cast<std::ptrdiff_t>(a));
    live.push_back(std::move(r));
    labels.push_back(std::move(out));
  }
  return live.back();
}

Variable einsum(std::string_view subscripts, std::initializer_list<Variable> operands,
                const EinsumOptions& options) {
  return einsum(subscripts, std::span<const Variable>(operands.begin(), operands.size()), options);
}

}  // namespace tenferro::ad
