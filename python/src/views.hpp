// NumPy's view semantics on tensors whose logical shape is NumPy's: C-order reshape, axis
// permutations, basic indexing, and the linalg batch layout ([..., m, n] in Python,
// [m, n, batch...] in C++). All are metadata-only views of the same buffer; reshape falls
// back to a copy made inside the runtime (a kernel, not a transfer) when no view exists, as
// NumPy's reshape does.
#pragma once

#include <nanobind/nanobind.h>

#include <cstdint>
#include <optional>
#include <vector>

#include "args.hpp"
#include "tenferro/runtime/eager_tensor.hpp"

namespace tenferro::python {

namespace nb = nanobind;

// Row-major (C-order) reshape; one extent may be -1.
EagerTensor reshape_c(const EagerTensor& x, Shape shape);
// A C-contiguous version of x (x itself when already C-contiguous).
EagerTensor c_contiguous(const EagerTensor& x);
// NumPy's transpose: axes reversed when `axes` is empty.
EagerTensor transpose_axes(const EagerTensor& x, std::vector<std::int64_t> axes);
// Swaps the last two axes (NumPy's matrix_transpose / .mT).
EagerTensor matrix_transpose(const EagerTensor& x);
// Basic indexing: integers, slices with positive steps, Ellipsis and None (a new axis).
EagerTensor index(const EagerTensor& x, nb::handle key);

// Linalg layout: [..., m, n] (Python) <-> [m, n, ...] (C++), and [..., k] <-> [k, ...].
EagerTensor batch_to_cpp(const EagerTensor& x, int core_axes);
EagerTensor batch_from_cpp(const EagerTensor& x, int core_axes);
// Their permutations, shared with the traced (ad::Variable) versions of the linalg calls.
std::vector<std::int64_t> batch_to_cpp_perm(std::int64_t rank, int core_axes);
std::vector<std::int64_t> batch_from_cpp_perm(std::int64_t rank, int core_axes);
// The permutation that reverses the axes (C order <-> the library's column-major order).
std::vector<std::int64_t> reversed_axes(std::int64_t rank);

}  // namespace tenferro::python
