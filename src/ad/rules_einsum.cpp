// VJP/JVP rules of einsum, for any notation. The primal runs the user's subscripts unchanged;
// the rules use the parsed label form (ellipsis expanded, implicit output resolved).
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

#include "ad/helpers.hpp"
#include "ad/tape.hpp"
#include "ops/einsum/expression.hpp"

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

Variable einsum(std::string_view subscripts, std::span<const Variable> operands,
                const EinsumOptions& options) {
  std::vector<T> xs;
  std::vector<Shape> shapes;
  std::vector<std::int64_t> ranks;
  for (const auto& v : operands) {
    xs.push_back(v.value());
    shapes.push_back(v.shape());
    ranks.push_back(v.rank());
  }
  T y = tenferro::einsum(subscripts, xs, options);
  auto expr =
      std::make_shared<EinsumExpression>(einsum_internal::parse_subscripts(subscripts, ranks));
  auto sizes = einsum_internal::label_sizes(*expr, shapes);
  std::string sub(subscripts);
  return record1(
      "einsum", operands, y,
      [expr, sizes, xs](std::span<const T> g, const std::vector<bool>& needs) {
        std::vector<T> r(xs.size());
        for (std::size_t k = 0; k < xs.size(); ++k) {
          if (needs[k]) r[k] = operand_cotangent(*expr, sizes, xs, g[0], k);
        }
        return r;
      },
      [sub, xs, options](std::span<const T> t) {
        T sum;
        for (std::size_t k = 0; k < xs.size(); ++k) {
          if (!t[k].defined()) continue;
          std::vector<T> ops = xs;
          ops[k] = t[k];
          sum = add_opt(sum, tenferro::einsum(sub, ops, options));
        }
        return std::vector<T>{sum};
      });
}

Variable einsum(std::string_view subscripts, std::initializer_list<Variable> operands,
                const EinsumOptions& options) {
  return einsum(subscripts, std::span<const Variable>(operands.begin(), operands.size()), options);
}

}  // namespace tenferro::ad
