// An in-place copy for the library's own solvers, which keep a growing set of vectors in one
// preallocated matrix (the Krylov basis): appending a column by concatenation would copy the
// whole basis at every step.
#pragma once

#include <string_view>

#include "tenferro/runtime/eager_tensor.hpp"

namespace tenferro::einsum_internal {

// Copies `src` into the elements of `dst`, on their runtime's own kernels (no transfer). `dst`
// must be a view of a buffer its caller owns and whose written elements no one else has seen:
// eager tensors are otherwise immutable. Same runtime, dtype and shape, else a typed error
// naming `op` before anything is written.
void write_into(const EagerTensor& src, const EagerTensor& dst, std::string_view op);

}  // namespace tenferro::einsum_internal
