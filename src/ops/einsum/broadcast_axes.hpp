// Operand axes that repeat one element: stride 0 and an extent above 1 (prims::broadcast_to,
// writable NumPy views with zero strides through DLPack). An operand is constant along such an
// axis, so where another axis of the call's operands carries the same label, the operand can leave
// the axis out: every product and every sum over that label is unchanged, and the executor reads
// the operand's distinct elements instead of copying the repeated ones into a compact block where
// a step needs one (einsum("ij,jk->ik", broadcast_to(s, (60000, 60000)), b) asked for 27 GiB).
// A label keeps one carrier: left out everywhere, a contracted label would lose its sum's factor
// and an output label its operand.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "ops/einsum/expression.hpp"
#include "tenferro/runtime/eager_tensor.hpp"

namespace tenferro::einsum_internal {

// Axes of at most this index are looked at (a bit each); a broadcast axis past it stays.
inline constexpr std::size_t kBroadcastAxesLimit = 64;

// Bit a set for each axis a of `operand` with stride 0 and an extent above 1.
std::uint64_t broadcast_axes(const EagerTensor& operand);

// Whether any axis of `operand` has stride 0 (whatever its extent): the one test a warm call
// without broadcast views makes.
inline bool has_zero_stride(const EagerTensor& operand) {
  bool zero = false;
  for (const std::int64_t s : operand.strides()) zero = zero || s == 0;
  return zero;
}

// Leaves out of `expr` and `shapes` (validated: `sizes` from label_sizes) the axes of
// `broadcast` (per operand, as broadcast_axes gives it): every one whose label an axis that is
// not a broadcast one carries at the label's whole extent, and of a label that only broadcast
// axes carry, all but the one in the operand that reads the fewest elements. Returns the axes
// left out per operand, or an empty vector when none was.
std::vector<std::uint64_t> drop_broadcast_axes(EinsumExpression& expr, std::vector<Shape>& shapes,
                                               std::span<const std::int64_t> sizes,
                                               std::span<const std::uint64_t> broadcast);

// Views of `operands` without the axes of `dropped` (drop_broadcast_axes' answer): the same
// buffers and offsets.
std::vector<EagerTensor> without_axes(std::span<const EagerTensor> operands,
                                      std::span<const std::uint64_t> dropped);

}  // namespace tenferro::einsum_internal
