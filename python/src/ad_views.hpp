// views.hpp's NumPy views for traced values: the same permutations and C-order reshapes,
// recorded with the ad view ops (permute, reshape, slice) so cotangents flow back through them.
#pragma once

#include <nanobind/nanobind.h>

#include <cstdint>
#include <vector>

#include "tenferro/ad.hpp"

namespace tenferro::python {

namespace nb = nanobind;

ad::Variable permute_v(const ad::Variable& x, const std::vector<std::int64_t>& perm);
ad::Variable matrix_transpose_v(const ad::Variable& x);
ad::Variable reshape_c_v(const ad::Variable& x, Shape shape);
// A C-contiguous copy (NumPy's ascontiguousarray on a traced value).
ad::Variable c_contiguous_v(const ad::Variable& x);
// Basic indexing with integers, slices (positive steps) and Ellipsis.
ad::Variable index_v(const ad::Variable& x, nb::handle key);
// NumPy's matmul rules (1-D operands promoted and removed, broadcast batch axes) as einsum.
ad::Variable matmul_v(const ad::Variable& a, const ad::Variable& b);
// The linalg layout ([..., m, n] in Python, [m, n, ...] in C++).
ad::Variable batch_to_cpp_v(const ad::Variable& x, int core_axes);
ad::Variable batch_from_cpp_v(const ad::Variable& x, int core_axes);

}  // namespace tenferro::python
