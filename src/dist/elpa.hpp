// ELPA's eigensolver for dist::eigh, present when the library is built with TENFERRO_WITH_ELPA
// (elpa_eigh.cpp is compiled only then).
#pragma once

#include "dist/blacs.hpp"
#include "tenferro/dist.hpp"

#ifndef TENFERRO_DIST_HAS_ELPA
#define TENFERRO_DIST_HAS_ELPA 0
#endif

namespace tenferro::dist::detail {

inline constexpr bool kHaveElpa = TENFERRO_DIST_HAS_ELPA != 0;

#if TENFERRO_DIST_HAS_ELPA
// Eigenvalues (ascending, every rank) into `w` and eigenvectors into `z` of the Hermitian
// matrix `full` (both triangles set, overwritten), with ELPA's two-stage solver on the
// context's grid. Numerical on a solver failure, Backend when ELPA refuses the set-up.
void elpa_eigh(const Context::Impl& ctx, const Grid& g, Matrix& full, Matrix& z, Tensor& w);
#endif

}  // namespace tenferro::dist::detail
