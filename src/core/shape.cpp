#include "tenferro/core/shape.hpp"

#include <limits>

#include "tenferro/core/error.hpp"

namespace tenferro {

std::int64_t checked_numel(std::span<const std::int64_t> shape) {
  std::int64_t n = 1;
  bool has_zero = false;
  for (std::int64_t d : shape) {
    if (d < 0)
      throw_validation("shape",
                       "negative extent " + std::to_string(d) + " in " + shape_to_string(shape));
    if (d == 0) has_zero = true;
  }
  if (has_zero) return 0;
  for (std::int64_t d : shape) {
    if (__builtin_mul_overflow(n, d, &n)) {
      throw_validation("shape", "element count of " + shape_to_string(shape) + " overflows int64");
    }
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

Strides col_major_strides(std::span<const std::int64_t> shape) {
  Strides s(shape.size());
  std::int64_t acc = 1;
  for (std::size_t i = 0; i < shape.size(); ++i) {
    s[i] = acc;
    acc *= shape[i] > 0 ? shape[i] : 1;
  }
  return s;
}

Strides row_major_strides(std::span<const std::int64_t> shape) {
  Strides s(shape.size());
  std::int64_t acc = 1;
  for (std::size_t i = shape.size(); i-- > 0;) {
    s[i] = acc;
    acc *= shape[i] > 0 ? shape[i] : 1;
  }
  return s;
}

bool is_col_major_compact(std::span<const std::int64_t> shape,
                          std::span<const std::int64_t> strides) {
  if (shape.size() != strides.size()) return false;
  std::int64_t acc = 1;
  for (std::size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] == 0) return true;  // an empty tensor is trivially compact
    if (shape[i] != 1 && strides[i] != acc) return false;
    acc *= shape[i];
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
