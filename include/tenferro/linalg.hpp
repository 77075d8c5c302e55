// Batched dense linear algebra: QR, SVD (thin, full, truncated), eigh, eig, LU, Cholesky,
// solve, triangular_solve, lstsq, inv, det, slogdet.
//
// Matrices are [m, n, batch...]: column-major with trailing batch axes; every op is batched
// and every batch entry is independent. Vectors (right-hand sides, eigenvalues, singular
// values) are [k, batch...]. Batch shapes of several inputs must be equal (no broadcasting).
// Results live in the inputs' runtime. Shape errors are Validation errors; numerical failures
// (singular, not positive definite, non-convergence, non-finite input) are Numerical errors
// naming the op and the batch index.
//
//   auto [q, r] = tenferro::linalg::qr(a);
//   auto x = tenferro::linalg::solve(a, b);
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "tenferro/runtime/admission.hpp"
#include "tenferro/runtime/eager_tensor.hpp"

// The public API: exported from the shared library (the rest of it is hidden).
#pragma GCC visibility push(default)

namespace tenferro::linalg {

// ---- QR: A = Q R ---------------------------------------------------------------------------
enum class QrMode : std::uint8_t {
  Reduced,   // Q [m, k], R [k, n], k = min(m, n)
  Complete,  // Q [m, m], R [m, n]
};
enum class QrGauge : std::uint8_t {
  Raw,               // as LAPACK returns it
  PositiveDiagonal,  // diag(R) real and >= 0 (Q compensated)
};
struct QrOptions {
  QrMode mode = QrMode::Reduced;
  QrGauge gauge = QrGauge::Raw;
};
struct QrResult {
  EagerTensor q, r;
};
QrResult qr(const EagerTensor& a, const QrOptions& options = {});

// ---- SVD: A = U diag(S) Vh -------------------------------------------------------------------
enum class CutoffKind : std::uint8_t {
  None,                     // no cutoff
  RelativeSingularValue,    // keep s_i > cutoff * s_0
  AbsoluteSingularValue,    // keep s_i > cutoff
  RelativeDiscardedWeight,  // smallest rank with sum_{i>=r} s_i^2 <= cutoff * sum_i s_i^2
  AbsoluteDiscardedWeight,  // smallest rank with sum_{i>=r} s_i^2 <= cutoff
};
// Rank rule, per batch entry: r = min(max_rank, max(min_rank, r_cutoff)) and never above
// min(m, n): max_rank wins over both the cutoff and min_rank. A batched call keeps one common
// rank, the largest per-entry rank over the batch (so no entry discards more than its own rule
// allows), then capped by max_rank.
struct SvdTruncation {
  std::optional<std::int64_t> max_rank;  // >= 0
  CutoffKind cutoff_kind = CutoffKind::None;
  double cutoff = 0.0;        // >= 0, finite
  std::int64_t min_rank = 0;  // >= 0
  bool active() const noexcept { return max_rank.has_value() || cutoff_kind != CutoffKind::None; }
};
enum class SvdGauge : std::uint8_t {
  // As the kernel returns it: LAPACK's, or for batches of small real matrices the batched
  // Jacobi kernel's, so a pair's signs can differ between calls whose batches differ (a
  // matrix alone, or beside one that sends its group to LAPACK). Canonical where they matter.
  Raw,
  Canonical,  // the largest-magnitude entry of each kept U column is real > 0; Vh compensated
};
struct SvdOptions {
  bool full_matrices = false;  // U [m, m], Vh [n, n]; cannot be combined with truncation
  bool compute_uv = true;      // false: only S (and the discarded weight)
  SvdTruncation truncation;
  SvdGauge gauge = SvdGauge::Raw;
};
struct SvdResult {
  EagerTensor u;   // [m, r, batch...] (undefined when compute_uv is false)
  EagerTensor s;   // [r, batch...], real dtype, descending, >= 0
  EagerTensor vh;  // [r, n, batch...] (undefined when compute_uv is false)
  // [batch...], real dtype: sum of the squared singular values dropped by truncation for each
  // batch entry (absolute, not normalised; zero without truncation). A tensor of the runtime,
  // so a device backend can produce it without a host round trip.
  EagerTensor discarded_weight;
};
SvdResult svd(const EagerTensor& a, const SvdOptions& options = {});

// ---- Eigen-decompositions --------------------------------------------------------------------
struct EighOptions {
  bool values_only = false;
};
struct EighResult {
  EagerTensor w;  // [n, batch...], real dtype, ascending
  // [n, n, batch...], orthonormal columns; undefined when values_only. Each column's sign (or
  // phase) is the kernel's: LAPACK's or, for batches of small real matrices, the batched
  // Jacobi kernel's, so it can differ between calls whose batches differ.
  EagerTensor v;
};
// Hermitian (symmetric) A; only the lower triangle is read. A V = V diag(w).
EighResult eigh(const EagerTensor& a, const EighOptions& options = {});

struct EigResult {
  EagerTensor w;  // [n, batch...], complex dtype, LAPACK's order
  EagerTensor v;  // [n, n, batch...], complex dtype, unit-norm columns
};
// General square A (CPU only): A V = V diag(w). Real input yields complex conjugate pairs.
EigResult eig(const EagerTensor& a);

// ---- LU, Cholesky ---------------------------------------------------------------------------
struct LuResult {
  EagerTensor p;  // [m, m, batch...], a permutation matrix in A's dtype
  EagerTensor l;  // [m, k, batch...], unit lower trapezoidal, k = min(m, n)
  EagerTensor u;  // [k, n, batch...], upper trapezoidal
};
// A = P L U, SciPy's convention (scipy.linalg.lu). A singular A is not an error here.
LuResult lu(const EagerTensor& a);
// A = L L^H for Hermitian positive-definite A (only the lower triangle is read); returns L
// (lower, upper part zero). Not positive definite -> Numerical.
EagerTensor cholesky(const EagerTensor& a);

// ---- Solvers --------------------------------------------------------------------------------
// A X = B with A [n, n, batch...] and B [n, batch...] (vector) or [n, k, batch...] (matrix):
// B's rank tells which (rank(A) - 1: vector). Singular A -> Numerical.
EagerTensor solve(const EagerTensor& a, const EagerTensor& b);

enum class TriangularOp : std::uint8_t { None, Transpose, ConjugateTranspose };
struct TriangularSolveOptions {
  bool lower = true;  // which triangle of A is read (the other is ignored)
  bool left = true;   // left: op(A) X = B; right: X op(A) = B
  TriangularOp transpose = TriangularOp::None;
  bool unit_diagonal = false;  // assume diag(A) = 1 (A's diagonal is not read)
};
// A [n, n, batch...]; B [n, k, batch...] when left, [k, n, batch...] when right, or a vector
// [n, batch...] either way. A zero on the diagonal -> Numerical.
EagerTensor triangular_solve(const EagerTensor& a, const EagerTensor& b,
                             const TriangularSolveOptions& options = {});

// Least squares: the minimum-norm X among those minimising |A X - B|_2, for any A (rank
// deficient included), as numpy.linalg.lstsq: A [m, n, batch...]; B [m, batch...] or
// [m, k, batch...]; X [n(, k), batch...]. Rank-revealing: A's singular values s_i <= rcond *
// s_max count as zero (LAPACK gelsd on the CPU). Non-convergence -> Numerical.
// CUDA: the same rule from the device SVD (cuSOLVER), X = V diag(1/s_i kept) U^H B.
//
//   A = [[1,2,3],[2,4,6],[1,1,1]] (rows), b = [1,0,0]: rank 2, x = [-0.1, 0, 0.1],
//   |A x - b| = 0.894 (NumPy's answer).
struct LstsqOptions {
  // Relative cutoff on the singular values; unset: eps(dtype) * max(m, n), NumPy's default.
  // Must lie in (0, 1) (LAPACK would silently use eps for any other value).
  std::optional<double> rcond;
};
struct LstsqResult {
  EagerTensor x;     // [n(, k), batch...]
  EagerTensor rank;  // [batch...], real dtype: each A's effective rank (an integer value)
  EagerTensor s;     // [min(m, n), batch...], real dtype: A's singular values, descending
};
LstsqResult lstsq_with_rank(const EagerTensor& a, const EagerTensor& b,
                            const LstsqOptions& options = {});
// X alone (the x of lstsq_with_rank).
EagerTensor lstsq(const EagerTensor& a, const EagerTensor& b, const LstsqOptions& options = {});

// ---- Inverse and determinants ---------------------------------------------------------------
EagerTensor inv(const EagerTensor& a);  // singular -> Numerical
EagerTensor det(const EagerTensor& a);  // [batch...], A's dtype; singular -> 0
struct SlogdetResult {
  EagerTensor sign;  // [batch...], A's dtype: +-1 (real), unit modulus (complex), 0 if singular
  EagerTensor logabsdet;  // [batch...], real dtype; -inf if singular
};
SlogdetResult slogdet(const EagerTensor& a);

}  // namespace tenferro::linalg

namespace tenferro::linalg_family {
inline constexpr std::string_view kFamily = "tenferro.linalg.v1";
// Ops: qr svd eigh eig lu cholesky solve triangular_solve lstsq inv det slogdet.
const AdmissionTable& admission_table();
}  // namespace tenferro::linalg_family

#pragma GCC visibility pop
