// Small tensor utilities the rules share, each built from public eager ops (so they run on the
// backend that owns the data).
#pragma once

#include <cstdint>
#include <vector>

#include "tenferro/prims.hpp"
#include "tenferro/runtime/eager_tensor.hpp"

namespace tenferro::ad {

// a + b, where an undefined operand counts as zero.
EagerTensor add_opt(const EagerTensor& a, const EagerTensor& b);
// Sums a broadcast cotangent back to `shape` (NumPy broadcasting: leading axes and stretched
// size-1 axes are summed).
EagerTensor sum_to(const EagerTensor& g, const Shape& shape);
// The cotangent of an input with metadata `like`: summed over broadcast axes, the real part
// when the input is real, cast to the input's precision.
EagerTensor fit(const EagerTensor& g, const TensorMeta& like);
// x in dtype `to` (real -> complex, precision changes), or x itself when it already is.
EagerTensor to_dtype(const EagerTensor& x, DType to);
// Reshape in column-major order, copying first when the layout needs it.
EagerTensor reshape_any(const EagerTensor& x, Shape shape);
// Batched matrices [m, n, batch...]: a b, a^H, and the transpose.
EagerTensor matmul(const EagerTensor& a, const EagerTensor& b);
EagerTensor adjoint(const EagerTensor& a);
EagerTensor mtranspose(const EagerTensor& a);
// (a + a^H) / 2: the Hermitian part of batched square matrices.
EagerTensor hermitian_part(const EagerTensor& a);
// The n x n identity shaped [n, n, 1...] to broadcast against a rank-`rank` batch.
EagerTensor eye_batched(const EagerTensor& like, std::int64_t n, std::int64_t rank);
// diag(v): [n, batch...] -> [n, n, batch...].
EagerTensor diag_embed(const EagerTensor& v);
// The diagonal of [n, n, batch...] as [n, batch...].
EagerTensor diag_part(const EagerTensor& a);
// v as a row [1, n, batch...] or a column [n, 1, batch...], to scale columns or rows.
EagerTensor as_row(const EagerTensor& v);
EagerTensor as_col(const EagerTensor& v);
// Re(a) as a complex value of a's dtype, and i * x.
EagerTensor times_i(const EagerTensor& x);
// <a, b> = Re sum conj(a) b, a 0-d real tensor.
EagerTensor real_inner(const EagerTensor& a, const EagerTensor& b);

}  // namespace tenferro::ad

namespace tenferro::ad {
// The 0/1 mask of the entries (i, j) of an n x n matrix with j - i >= k (triu(k)) or
// i - j >= k (tril(k)), shaped [n, n, 1...] for a rank-`rank` batch, in like's real dtype.
EagerTensor triu_mask(const EagerTensor& like, std::int64_t n, std::int64_t k, std::int64_t rank);
EagerTensor tril_mask(const EagerTensor& like, std::int64_t n, std::int64_t k, std::int64_t rank);
// 1 / (x_j - x_i) off the diagonal and 0 on it for a spectrum x [n, batch...], broadened to
// (x_j - x_i) / ((x_j - x_i)^2 + eps) when eps > 0. [n, n, batch...].
EagerTensor inverse_gaps(const EagerTensor& x, double eps);
}  // namespace tenferro::ad
