// The extra columns of a complete orthonormal basis (svd with full_matrices, complete qr) as a
// differentiable function of the thin factor, so those modes reuse the thin rules.
#pragma once

#include "tenferro/ad.hpp"

namespace tenferro::ad {

// X [m, k, batch...] with orthonormal columns (a tracked output of a thin rule) and X_perp
// [m, m - k, batch...] completing it to a unitary (from the same factorisation): returns the
// Variable [X | X_perp], where X_perp depends on X through the projector X_perp X_perp^H =
// I - X X^H only (see rules_linalg_complement.cpp for the rule and docs/ad.md for its derivation).
Variable complete_columns(const Variable& x, const EagerTensor& x_perp);
// The same for orthonormal rows: Xh [k, n, batch...], Xh_perp [n - k, n, batch...] -> the
// Variable [Xh; Xh_perp] (Vh of a full SVD).
Variable complete_rows(const Variable& xh, const EagerTensor& xh_perp);

// Columns [from, to) and rows [from, to) of batched matrices [m, n, batch...].
EagerTensor columns(const EagerTensor& x, std::int64_t from, std::int64_t to);
EagerTensor rows(const EagerTensor& x, std::int64_t from, std::int64_t to);

}  // namespace tenferro::ad
