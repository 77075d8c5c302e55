// eigsh and eigs: argument checks, then the Krylov-Schur driver.
#include <string>

#include "core/enum_check.hpp"
#include "ops/krylov/krylov_schur.hpp"
#include "tenferro/prims.hpp"

namespace tenferro::krylov {
namespace {

using krylov_internal::VectorSpace;

void check_options(const std::string& op, const EigOptions& o, std::int64_t n, std::int64_t k_limit,
                   const char* k_rule) {
  if (o.k < 1 || o.k >= k_limit) {
    throw_validation(op, "k = " + std::to_string(o.k) + " is out of range: " + k_rule +
                             " (the dimension is " + std::to_string(n) +
                             "); for all eigenpairs use linalg::eigh/eig on the dense matrix");
  }
  // ncv = k + 1 below the dimension keeps only the k Ritz vectors at each restart, which makes
  // every eigenvector a fixed point: 'LM' settled on the wrong end of the spectrum and called
  // it converged. From k + 2 on a restart keeps more than the wanted vectors.
  const std::int64_t least = std::min(n, o.k + 2);
  if (o.ncv != 0 && (o.ncv < least || o.ncv > n)) {
    throw_validation(op, "ncv = " + std::to_string(o.ncv) + " must satisfy " +
                             std::to_string(least) + " <= ncv <= " + std::to_string(n) +
                             " (at least k + 2 below the dimension; or 0 for the default)");
  }
  // Written as "not >= 0" so that a NaN tolerance is refused too.
  if (!(o.tol >= 0) || o.maxiter < 0) throw_validation(op, "tol and maxiter must be >= 0");
  require_enumerator(o.which, Which::SmallestImaginary, op, "EigOptions::which");
}

}  // namespace

EigshResult eigsh(const LinearOperator& a, const EagerTensor& v0, const EigOptions& options) {
  const std::string op = "krylov.eigsh";
  if (!v0.defined()) throw_validation(op, "v0 is an empty handle");
  VectorSpace space(op, a, v0, v0.dtype());
  check_options(op, options, space.dim(), space.dim(), "1 <= k < dimension");
  if (options.which == Which::LargestImaginary || options.which == Which::SmallestImaginary) {
    throw_validation(op,
                     "which = 'LI'/'SI' has no meaning for a Hermitian operator's real "
                     "eigenvalues: use 'LA', 'SA', 'LM' or 'SM'");
  }
  auto outcome = krylov_internal::krylov_schur(space, space.flat(v0, "v0"), options, true);
  EigshResult r;
  for (const auto& z : outcome.values) r.eigenvalues.push_back(z.real());
  for (const auto& x : outcome.vectors) r.eigenvectors.push_back(space.shaped(x));
  r.residual_norms = std::move(outcome.residuals);
  r.matvecs = space.matvecs();
  r.restarts = outcome.restarts;
  return r;
}

EigsResult eigs(const LinearOperator& a, const EagerTensor& v0, const EigOptions& options) {
  const std::string op = "krylov.eigs";
  if (!v0.defined()) throw_validation(op, "v0 is an empty handle");
  VectorSpace space(op, a, v0, complex_dtype(v0.dtype()));
  check_options(op, options, space.dim(), space.dim() - 1, "1 <= k < dimension - 1");
  auto outcome = krylov_internal::krylov_schur(space, space.flat(v0, "v0"), options, false);
  EigsResult r;
  r.eigenvalues = std::move(outcome.values);
  for (const auto& x : outcome.vectors) r.eigenvectors.push_back(space.shaped(x));
  r.residual_norms = std::move(outcome.residuals);
  r.matvecs = space.matvecs();
  r.restarts = outcome.restarts;
  return r;
}

}  // namespace tenferro::krylov
