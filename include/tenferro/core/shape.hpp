// Shapes and strides (in elements) with overflow-checked arithmetic.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "tenferro/core/dim_vector.hpp"

// The public API: exported from the shared library (the rest of it is hidden).
#pragma GCC visibility push(default)

namespace tenferro {

// Extents and element strides: inline up to rank DimVector::kInline (no allocation).
using Shape = DimVector;
using Strides = DimVector;

// Number of elements; throws Validation on a negative extent or on overflow of int64.
std::int64_t checked_numel(std::span<const std::int64_t> shape);
// Bytes for `numel` elements of `elem_size`; throws Validation on overflow.
std::size_t checked_bytes(std::int64_t numel, std::size_t elem_size);
// Why no tensor of `shape` with `item_size`-byte elements can exist, or "" when one can: every
// extent is non-negative and the product of the non-zero extents times item_size fits in int64.
// Zero extents are skipped on purpose: an empty tensor's strides and byte offsets are built from
// the other extents, so they too must stay representable. The one size limit that tensor
// builders, einsum plans and the .npy loader and saver share.
std::string shape_size_violation(std::span<const std::int64_t> shape, std::size_t item_size);
// Compact column-major strides (first index fastest); Validation when a stride overflows int64.
Strides col_major_strides(std::span<const std::int64_t> shape);
// Compact row-major strides (last index fastest), as NumPy's C order; Validation on overflow.
Strides row_major_strides(std::span<const std::int64_t> shape);
bool is_col_major_compact(std::span<const std::int64_t> shape,
                          std::span<const std::int64_t> strides);
std::string shape_to_string(std::span<const std::int64_t> shape);  // "[2, 3]"

}  // namespace tenferro

#pragma GCC visibility pop
