#include "ops/prims/resolve.hpp"

#include <string>

#include "runtime/borrowed_tensor.hpp"
#include "tenferro/core/error.hpp"
#include "tenferro/prims.hpp"
#include "tenferro/runtime/errors.hpp"

namespace tenferro::prims_internal {

Shape broadcast_shapes(std::string_view op, const Shape& a, const Shape& b) {
  if (a == b) return a;  // the common case, one compare
  const std::size_t rank = std::max(a.size(), b.size());
  Shape out(rank);
  for (std::size_t j = 0; j < rank; ++j) {
    // Axis j of the result is axis j - (rank - size) of each operand, when that is >= 0.
    const bool in_a = j + a.size() >= rank, in_b = j + b.size() >= rank;
    const std::int64_t ea = in_a ? a[j + a.size() - rank] : 1;
    const std::int64_t eb = in_b ? b[j + b.size() - rank] : 1;
    if (ea == eb || eb == 1) {
      out[j] = ea;
    } else if (ea == 1) {
      out[j] = eb;
    } else {
      throw_validation(std::string(op),
                       "operands do not broadcast: operand 0 has shape " + shape_to_string(a) +
                           " and operand 1 has shape " + shape_to_string(b) + "; axis " +
                           std::to_string(j + a.size() - rank) + " of operand 0 (extent " +
                           std::to_string(ea) + ") meets axis " +
                           std::to_string(j + b.size() - rank) + " of operand 1 (extent " +
                           std::to_string(eb) + "), and neither is 1");
    }
  }
  return out;
}

DType promote(DType a, DType b) {
  const bool wide = is_double(a) || is_double(b);
  if (is_complex(a) || is_complex(b)) return wide ? DType::C64 : DType::C32;
  return wide ? DType::F64 : DType::F32;
}

void require_defined(std::string_view op, const EagerTensor& x) {
  if (!x.defined()) throw ContextMismatchError(std::string(op), 0, 0, 0);
}

std::int64_t normalize_axis(std::string_view op, std::int64_t axis, std::int64_t rank) {
  if (axis < -rank || axis >= rank) {
    throw_validation(std::string(op), "axis " + std::to_string(axis) +
                                          " is out of range for a tensor of rank " +
                                          std::to_string(rank));
  }
  return axis < 0 ? axis + rank : axis;
}

std::array<std::uint8_t, 64> axes_mask(std::string_view op, const std::optional<prims::Axes>& axes,
                                       std::int64_t rank) {
  std::array<std::uint8_t, 64> mask{};
  if (rank > 64)
    throw_validation(std::string(op), std::string(op) + " takes tensors of rank <= 64");
  if (!axes) {
    for (std::int64_t a = 0; a < rank; ++a) mask[static_cast<std::size_t>(a)] = 1;
    return mask;
  }
  for (const std::int64_t axis : *axes) {
    const auto a = static_cast<std::size_t>(normalize_axis(op, axis, rank));
    if (mask[a])
      throw_validation(std::string(op), "axis " + std::to_string(axis) + " is listed twice");
    mask[a] = 1;
  }
  return mask;
}

EagerTensor kernel_operand(const EagerTensor& x, DType dtype) {
  return x.dtype() == dtype ? runtime_internal::BorrowedTensor::of(x) : prims::cast(x, dtype);
}

void check_shape(std::string_view op, const Shape& shape, DType dtype) {
  const std::string why = shape_size_violation(shape, dtype_size(dtype));
  if (!why.empty()) throw_validation(std::string(op), why);
}

}  // namespace tenferro::prims_internal
