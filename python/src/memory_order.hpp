// NumPy's memory order across the boundary. The library's owned tensors are column-major, but a
// NumPy user's arrays are C-ordered: copying one into column-major order on upload (and back on
// download) costs a strided transpose of every element. Instead a dense array of any axis
// order is moved as one block and keeps its strides: the C-order batch of matrices a user
// uploads stays a batch of contiguous (transposed) matrices that BLAS and LAPACK take as is.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "tenferro/core/tensor.hpp"
#include "tenferro/runtime/eager_tensor.hpp"
#include "tenferro/runtime/runtime.hpp"

namespace tenferro::python {

// The permutation P for which layout.permuted(P) is compact column-major (a C-order layout
// gives the reversal), or nullopt when the elements do not fill one block (gaps, overlaps).
std::optional<std::vector<std::int64_t>> dense_order(const TensorLayout& layout);

// runtime->upload(host) that copies a dense host tensor as one block, keeping its strides.
EagerTensor upload_keeping_order(EagerRuntime& runtime, const Tensor& host);
// t.download() that reads a dense tensor as one block and returns it with t's strides.
Tensor download_keeping_order(const EagerTensor& t);

}  // namespace tenferro::python
