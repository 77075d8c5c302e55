// Small CUDA kernels around the cuSOLVER calls of the linalg family: the non-finite input
// check, triangle and adjoint extraction, the QR sign gauge and identity fills. Matrices are
// column-major [rows, cols] per batch entry; `ld` and `batch_stride` are in elements.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "backends/cuda/strided_kernels.hpp"

namespace tenferro::cuda_kernels {

// *first_bad = min(*first_bad, b) for every batch entry b whose first `count` elements (at
// data + b * batch_stride) hold a NaN or Inf. *first_bad must be initialised by the caller.
cudaError_t launch_first_nonfinite(Element e, const void* data, std::int64_t count,
                                   std::int64_t batch_stride, std::int64_t batch, int* first_bad,
                                   cudaStream_t stream);
// dst (compact [rows, cols, batch]) = upper triangle of src (zeros below the diagonal).
cudaError_t launch_upper_triangle(Element e, const void* src, std::int64_t ld,
                                  std::int64_t batch_stride, void* dst, std::int64_t rows,
                                  std::int64_t cols, std::int64_t batch, cudaStream_t stream);
// dst (compact [rows, cols, batch]) = conj(src)^T, i.e. dst[i, j] = conj(src[j, i]).
cudaError_t launch_adjoint(Element e, const void* src, std::int64_t ld, std::int64_t batch_stride,
                           void* dst, std::int64_t rows, std::int64_t cols, std::int64_t batch,
                           cudaStream_t stream);
// For j < k: phase = R[j,j]/|R[j,j]|; R row j *= conj(phase), Q column j *= phase (Q R kept).
cudaError_t launch_positive_diagonal(Element e, void* q, std::int64_t m, std::int64_t q_cols,
                                     void* r, std::int64_t r_rows, std::int64_t n, std::int64_t k,
                                     std::int64_t batch, cudaStream_t stream);
// dst (compact [n, n, batch]) = identity.
cudaError_t launch_identity(Element e, void* dst, std::int64_t n, std::int64_t batch,
                            cudaStream_t stream);
// As launch_first_nonfinite, over one triangle of compact [n, n] entries only (the part the
// Hermitian, Cholesky and triangular routines read): lower or upper, with or without the
// diagonal.
cudaError_t launch_first_nonfinite_triangle(Element e, const void* data, std::int64_t n,
                                            std::int64_t batch, bool lower, bool with_diagonal,
                                            int* first_bad, cudaStream_t stream);
// info[b * info_stride] = 1 + the first i < n with A[i, i] == 0 in batch entry b (at
// data + b * batch_stride, leading dimension ld), else 0.
cudaError_t launch_zero_diagonal_info(Element e, const void* data, std::int64_t n, std::int64_t ld,
                                      std::int64_t batch_stride, std::int64_t batch, int* info,
                                      std::int64_t info_stride, cudaStream_t stream);
// From getrf's compact LU [m, n, batch] (k = min(m, n)) and 1-based pivots [k, batch]:
// P [m, m] (SciPy's A = P L U; must be zeroed first), unit lower L [m, k], upper U [k, n].
// `perm` is scratch of m ints per batch entry.
cudaError_t launch_lu_unpack(Element e, const void* lu, const int* ipiv, std::int64_t m,
                             std::int64_t n, std::int64_t batch, void* p, void* l, void* u,
                             int* perm, cudaStream_t stream);
// Zeroes the strict upper triangle of compact [n, n, batch] in place.
cudaError_t launch_zero_strict_upper(Element e, void* data, std::int64_t n, std::int64_t batch,
                                     cudaStream_t stream);
// From getrf's compact LU [n, n, batch] and 1-based pivots [n, batch]: det (A's dtype) =
// the product of U's diagonal with a sign per row swap; sign (A's dtype, unit modulus or 0)
// and logabs (real, -inf when singular) for slogdet. Any output may be null.
cudaError_t launch_lu_determinants(Element e, const void* lu, const int* ipiv, std::int64_t n,
                                   std::int64_t batch, void* det, void* sign, void* logabs,
                                   cudaStream_t stream);
// dst[0..count) = value.
cudaError_t launch_fill_int(int* dst, std::int64_t count, int value, cudaStream_t stream);

}  // namespace tenferro::cuda_kernels
