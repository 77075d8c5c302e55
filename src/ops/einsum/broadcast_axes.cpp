#include "ops/einsum/broadcast_axes.hpp"

#include <algorithm>

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
  // How many remaining input axes carry each label at its whole extent (an extent of 1 that
  // broadcasts against it does not: left alone with the label, it would be its only carrier).
  std::vector<std::int64_t> carriers(sizes.size(), 0);
  for (std::size_t i = 0; i < expr.inputs.size(); ++i)
    for (std::size_t a = 0; a < expr.inputs[i].size(); ++a) {
      const auto l = static_cast<std::size_t>(expr.inputs[i][a]);
      if (shapes[i][a] == sizes[l]) ++carriers[l];
    }
  std::vector<std::uint64_t> dropped(expr.inputs.size(), 0);
  bool any = false;
  for (std::size_t i = 0; i < expr.inputs.size() && i < broadcast.size(); ++i) {
    for (std::size_t a = 0; a < expr.inputs[i].size() && a < kBroadcastAxesLimit; ++a) {
      if ((broadcast[i] & bit(a)) == 0) continue;
      std::int64_t& carried = carriers[static_cast<std::size_t>(expr.inputs[i][a])];
      if (carried < 2) continue;  // this axis alone carries the label
      --carried;
      dropped[i] |= bit(a);
      any = true;
    }
  }
  if (!any) return {};
  for (std::size_t i = 0; i < dropped.size(); ++i) {
    if (dropped[i] == 0) continue;
    expr.inputs[i] = without(expr.inputs[i], dropped[i]);
    shapes[i] = without(shapes[i], dropped[i]);
  }
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
