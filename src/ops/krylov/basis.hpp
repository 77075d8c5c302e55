// An orthonormal Krylov basis kept on the device as the columns of one [N, j] matrix, with the
// classical Gram-Schmidt step done twice (CGS2: two matrix-vector products per pass, so the
// device runs a few large kernels instead of j small ones; the second pass restores
// orthogonality to working precision, which is what lets the Ritz estimates be trusted).
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
  explicit Basis(VectorSpace& space) : space_(space) {}

  std::int64_t size() const noexcept { return size_; }
  const EagerTensor& matrix() const noexcept { return matrix_; }
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

 private:
  EagerTensor leading(std::int64_t cols) const;  // V[:, 0:cols]
  VectorSpace& space_;
  EagerTensor matrix_;
  EagerTensor last_;  // the last column as the flat vector it was appended as (no copy back)
  std::int64_t size_ = 0;
};

}  // namespace tenferro::krylov_internal
