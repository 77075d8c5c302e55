// The restarted Krylov eigensolver behind eigsh and eigs: Stewart's Krylov-Schur iteration.
// For a Hermitian operator it is thick-restart Lanczos (Wu & Simon): the projected matrix is
// diagonalised by dsyev/zheev and the kept Ritz vectors make an arrowhead matrix; for a general
// one the projected matrix is brought to an ordered complex Schur form (zgees + ztrsen).
#pragma once

#include <cstdint>
#include <vector>

#include "ops/krylov/vector_space.hpp"

namespace tenferro::krylov_internal {

struct RitzOutcome {
  std::vector<cplx> values;          // k, best first
  std::vector<EagerTensor> vectors;  // k flat unit vectors
  std::vector<double> residuals;
  std::int64_t restarts = 0;
};

// Throws NotConvergedError (with the current Ritz vectors) after options.maxiter restarts.
RitzOutcome krylov_schur(VectorSpace& space, const EagerTensor& v0_flat,
                         const krylov::EigOptions& options, bool hermitian);

}  // namespace tenferro::krylov_internal
