// Shapes and strides (in elements) with overflow-checked arithmetic.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace tenferro {

using Shape = std::vector<std::int64_t>;
using Strides = std::vector<std::int64_t>;

// Number of elements; throws Validation on a negative extent or on overflow of int64.
std::int64_t checked_numel(std::span<const std::int64_t> shape);
// Bytes for `numel` elements of `elem_size`; throws Validation on overflow.
std::size_t checked_bytes(std::int64_t numel, std::size_t elem_size);
// Compact column-major strides (first index fastest).
Strides col_major_strides(std::span<const std::int64_t> shape);
// Compact row-major strides (last index fastest), as NumPy's C order.
Strides row_major_strides(std::span<const std::int64_t> shape);
bool is_col_major_compact(std::span<const std::int64_t> shape,
                          std::span<const std::int64_t> strides);
std::string shape_to_string(std::span<const std::int64_t> shape);  // "[2, 3]"

}  // namespace tenferro
