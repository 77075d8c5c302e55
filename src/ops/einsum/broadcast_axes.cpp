#include "ops/einsum/broadcast_axes.hpp"

#include <algorithm>
#include <utility>

namespace tenferro::einsum_internal {

namespace {

constexpr std::uint64_t bit(std::size_t axis) {
  return std::uint64_t{1} << axis;
}

template <class Vector>
Vector without(const Vector& values, std::uint64_t axes) {
  Vector kept;
  for (std::size_t a = 0; a < values.size(); ++a)
    if (a >= kBroadcastAxesLimit || (axes & bit(a)) == 0) kept.push_back(values[a]);
  return kept;
}

}  // namespace

std::uint64_t broadcast_axes(const EagerTensor& operand) {
  const Shape& shape = operand.shape();
  const Strides& strides = operand.strides();
  const std::size_t looked_at = std::min(shape.size(), kBroadcastAxesLimit);
  std::uint64_t axes = 0;
  for (std::size_t a = 0; a < looked_at; ++a)
    if (strides[a] == 0 && shape[a] > 1) axes |= bit(a);
  return axes;
}

std::vector<std::uint64_t> drop_broadcast_axes(EinsumExpression& expr, std::vector<Shape>& shapes,
                                               std::span<const std::int64_t> sizes,
                                               std::span<const std::uint64_t> broadcast) {
  const std::size_t n = expr.inputs.size();
  const auto is_broadcast = [&](std::size_t i, std::size_t a) {
    return i < broadcast.size() && a < kBroadcastAxesLimit && (broadcast[i] & bit(a)) != 0;
  };
  // A carrier of a label is an input axis at the label's whole extent (an extent of 1 that
  // broadcasts against it is none: left alone with the label, it would be its only carrier).
  // `stored`: the label has a carrier that is not a broadcast axis, so every broadcast axis of
  // its goes. `reads`: what each operand reads as planned so far, its other axes' extents.
  std::vector<char> stored(sizes.size(), 0);
  std::vector<double> reads(n, 1.0);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t a = 0; a < expr.inputs[i].size(); ++a) {
      if (is_broadcast(i, a)) continue;
      const auto l = static_cast<std::size_t>(expr.inputs[i][a]);
      if (shapes[i][a] == sizes[l]) stored[l] = 1;
      reads[i] *= static_cast<double>(shapes[i][a]);
    }
  // A label only broadcast axes carry keeps one of them (its product or sum needs a carrier):
  // the one in the operand that reads the fewest elements so far (the first such), so that
  // ij,ij-> of a number and a column, both broadcast along j, reads j,i-> (2N elements), not
  // ,ij-> (N^2).
  std::vector<char> decided(sizes.size(), 0);
  std::vector<std::uint64_t> dropped(n, 0);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t a = 0; a < expr.inputs[i].size(); ++a) {
      if (!is_broadcast(i, a)) continue;
      const auto l = static_cast<std::size_t>(expr.inputs[i][a]);
      if (stored[l] != 0) {
        dropped[i] |= bit(a);
        continue;
      }
      if (decided[l] != 0) continue;  // with the label's first broadcast carrier, below
      decided[l] = 1;
      std::vector<std::pair<std::size_t, std::size_t>> carriers;  // (operand, axis), from (i, a)
      for (std::size_t j = i; j < n; ++j)
        for (std::size_t b = 0; b < expr.inputs[j].size(); ++b)
          if (is_broadcast(j, b) && expr.inputs[j][b] == expr.inputs[i][a])
            carriers.emplace_back(j, b);
      const auto keep = std::min_element(
          carriers.begin(), carriers.end(),
          [&](const auto& x, const auto& y) { return reads[x.first] < reads[y.first]; });
      for (auto c = carriers.begin(); c != carriers.end(); ++c)
        if (c != keep) dropped[c->first] |= bit(c->second);
      reads[keep->first] *= static_cast<double>(sizes[l]);
    }
  bool any = false;
  for (std::size_t i = 0; i < n; ++i) {
    if (dropped[i] == 0) continue;
    any = true;
    expr.inputs[i] = without(expr.inputs[i], dropped[i]);
    shapes[i] = without(shapes[i], dropped[i]);
  }
  if (!any) return {};
  return dropped;
}

std::vector<EagerTensor> without_axes(std::span<const EagerTensor> operands,
                                      std::span<const std::uint64_t> dropped) {
  std::vector<EagerTensor> views(operands.begin(), operands.end());
  for (std::size_t i = 0; i < views.size() && i < dropped.size(); ++i) {
    if (dropped[i] == 0) continue;
    TensorLayout layout = views[i].layout();
    layout.shape = without(layout.shape, dropped[i]);
    layout.strides = without(layout.strides, dropped[i]);
    views[i] = EagerTensor(views[i].runtime(), views[i].buffer(), std::move(layout));
  }
  return views;
}

}  // namespace tenferro::einsum_internal
