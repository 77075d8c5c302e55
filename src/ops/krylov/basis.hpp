// An orthonormal Krylov basis kept on the device as the leading columns of one preallocated
// [N, capacity] matrix, with the classical Gram-Schmidt step done twice (CGS2: two
// matrix-vector products per pass, so the device runs a few large kernels instead of j small
// ones; the second pass restores orthogonality to working precision, which is what lets the
// Ritz estimates be trusted). A Hermitian operator's steps take the Lanczos recurrence's two
// terms out first and then need one pass (orthogonalize_lanczos), with DGKS's test deciding
// when a second is due.
//
// A new column is written in place into the spare columns (einsum_internal::write_into): an
// append by concatenation copied the whole basis at every step, 13% of a DMRG sweep at D=64.
// Written columns never change afterwards (a restart writes a new matrix), so views of them
// can be handed out.
#pragma once

#include <cstdint>
#include <vector>

#include "ops/krylov/vector_space.hpp"

namespace tenferro::krylov_internal {

// The new vector's coefficients on the basis (h, j values), its norm after orthogonalisation
// (beta) and the orthogonalised, unnormalised vector w.
struct Projection {
  std::vector<cplx> h;
  double beta = 0;
  EagerTensor w;
  // True when w was numerically in the basis's span (an invariant subspace: the projection is
  // exact): beta is at rounding level of ||A v|| = sqrt(|h|^2 + beta^2).
  bool invariant(double eps) const;
};

class Basis {
 public:
  // `capacity`: the most columns the caller expects to hold; the storage grows past it.
  Basis(VectorSpace& space, std::int64_t capacity) : space_(space), capacity_(capacity) {}

  std::int64_t size() const noexcept { return size_; }
  EagerTensor column(std::int64_t i) const;  // a [N] view

  // Starts over with one unit vector.
  void reset(const EagerTensor& unit);
  // Appends a unit vector orthogonal to the basis.
  void append(const EagerTensor& unit);
  // Keeps the columns V[:, 0:cols] C for a host [cols, p] coefficient matrix (one scalar
  // write), then appends `next` (the residual direction) when it is defined.
  void rotate(const std::vector<cplx>& c, std::int64_t cols, std::int64_t p,
              const EagerTensor& next);
  // V[:, 0:cols] y for host coefficients y (one scalar write): a flat vector.
  EagerTensor combine(const std::vector<cplx>& y, std::int64_t cols) const;
  // V[:, 0:cols] Y for a host [cols, p] matrix: p flat vectors (one scalar write).
  std::vector<EagerTensor> combine_columns(const std::vector<cplx>& y, std::int64_t cols,
                                           std::int64_t p) const;

  // CGS2 of w against the basis; h and beta arrive together in one scalar read.
  Projection orthogonalize(const EagerTensor& w) const;
  // The same projection for w = A v_j, v_j the last column, when A is Hermitian and the basis
  // follows the Lanczos recurrence (v_j was appended after v_{j-1} with norm previous_beta):
  // w less alpha v_j and previous_beta v_{j-1} first, then one CGS pass, and a second only
  // when DGKS asks for it. Two passes over the basis instead of CGS2's four (the
  // orthogonalisation was a fifth of a DMRG sweep), one scalar read (two when DGKS asks).
  // Exact for any operator: what the recurrence misses, the pass takes out.
  Projection orthogonalize_lanczos(const EagerTensor& w, double previous_beta) const;

 private:
  EagerTensor leading(std::int64_t cols) const;  // V[:, 0:cols], a view
  // Fresh [N, max(capacity_, cols)] storage (nothing written; the old one stays with its views).
  EagerTensor fresh_storage(std::int64_t cols);
  // Writes `values` ([N] or [N, p]) into the columns from `first` on.
  void write_columns(const EagerTensor& values, std::int64_t first, std::int64_t count);
  VectorSpace& space_;
  std::int64_t capacity_;
  // [N, >= capacity_] (wider after growth): columns [0, size_) hold the basis.
  EagerTensor storage_;
  EagerTensor last_;  // the last column as the flat vector it was appended as
  std::int64_t size_ = 0;
};

}  // namespace tenferro::krylov_internal
