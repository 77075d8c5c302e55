#include "tenferro/core/shape.hpp"

#include <limits>

#include "tenferro/core/error.hpp"

namespace tenferro {

std::int64_t checked_numel(std::span<const std::int64_t> shape) {
  // One pass: the product and whether it overflowed, a negative extent or a zero read off
  // the same loop (every op asks for its output's count, so this runs several times a call).
  std::int64_t n = 1;
  bool overflow = false, negative = false, zero = false;
  for (std::int64_t d : shape) {
    negative |= d < 0;
    zero |= d == 0;
    overflow |= __builtin_mul_overflow(n, d, &n);
  }
  if (negative) {
    for (std::int64_t d : shape) {
      if (d < 0)
        throw_validation("shape",
                         "negative extent " + std::to_string(d) + " in " + shape_to_string(shape));
    }
  }
  if (zero) return 0;  // a zero extent makes any product of the others empty, overflow or not
  if (overflow) {
    throw_validation("shape", "element count of " + shape_to_string(shape) + " overflows int64");
  }
  return n;
}

std::size_t checked_bytes(std::int64_t numel, std::size_t elem_size) {
  if (numel < 0) throw_validation("shape", "negative element count");
  std::size_t bytes = 0;
  if (__builtin_mul_overflow(static_cast<std::size_t>(numel), elem_size, &bytes) ||
      bytes > static_cast<std::size_t>(std::numeric_limits<std::int64_t>::max())) {
    throw_validation("shape", "byte count of " + std::to_string(numel) + " elements overflows");
  }
  return bytes;
}

std::string shape_size_violation(std::span<const std::int64_t> shape, std::size_t item_size) {
  constexpr auto kMax = static_cast<std::size_t>(std::numeric_limits<std::int64_t>::max());
  if (item_size > kMax) return "item size " + std::to_string(item_size) + " overflows int64";
  auto product = static_cast<std::int64_t>(item_size);
  for (std::int64_t d : shape) {
    if (d < 0) return "negative extent " + std::to_string(d) + " in " + shape_to_string(shape);
    if (d != 0 && __builtin_mul_overflow(product, d, &product)) {
      return "shape " + shape_to_string(shape) + " of " + std::to_string(item_size) +
             "-byte elements is too large: the byte count of its non-zero extents overflows "
             "int64";
    }
  }
  return {};
}

namespace {
// Strides of a compact layout visiting axes in `order` (0..n-1 or n-1..0). Zero extents count as
// 1 so every stride of an empty tensor is still a usable number; only strides that are stored
// are multiplied, so a valid shape never computes an unused, overflowing product.
template <class AxisOrder>
Strides compact_strides(std::span<const std::int64_t> shape, AxisOrder axis_at) {
  Strides s(shape.size());
  std::int64_t acc = 1;
  for (std::size_t k = 0; k < shape.size(); ++k) {
    const std::size_t i = axis_at(k);
    s[i] = acc;
    if (k + 1 == shape.size()) break;
    if (__builtin_mul_overflow(acc, shape[i] > 0 ? shape[i] : 1, &acc)) {
      throw_validation("shape", "strides of " + shape_to_string(shape) + " overflow int64");
    }
  }
  return s;
}
}  // namespace

Strides col_major_strides(std::span<const std::int64_t> shape) {
  return compact_strides(shape, [](std::size_t k) { return k; });
}

Strides row_major_strides(std::span<const std::int64_t> shape) {
  return compact_strides(shape, [&](std::size_t k) { return shape.size() - 1 - k; });
}

bool is_col_major_compact(std::span<const std::int64_t> shape,
                          std::span<const std::int64_t> strides) {
  if (shape.size() != strides.size()) return false;
  std::int64_t acc = 1;
  for (std::size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] == 0) return true;  // an empty tensor is trivially compact
    if (shape[i] != 1 && strides[i] != acc) return false;
    // A product that overflows before the last axis belongs to a shape no tensor can have.
    if (__builtin_mul_overflow(acc, shape[i], &acc)) return i + 1 == shape.size();
  }
  return true;
}

std::string shape_to_string(std::span<const std::int64_t> shape) {
  std::string s = "[";
  for (std::size_t i = 0; i < shape.size(); ++i) {
    if (i) s += ", ";
    s += std::to_string(shape[i]);
  }
  return s + "]";
}

}  // namespace tenferro
