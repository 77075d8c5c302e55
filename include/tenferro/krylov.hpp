// Krylov solvers on any backend: eigsh (thick-restart Lanczos), eigs (Krylov-Schur Arnoldi),
// svds, gmres, cg, minres and expm_multiply, for a linear operator given as a callable.
//
//   auto heff = [&](const EagerTensor& x) { return einsum("abc,bdec,...->ade", {l, x, w, r}); };
//   auto ground = krylov::eigsh(heff, x0, {.k = 1, .which = krylov::Which::SmallestAlgebraic});
//   double e0 = ground.eigenvalues[0];
//   EagerTensor psi = ground.eigenvectors[0];            // x0's shape, runtime and dtype
//
// Where the work runs: the operator is written with eager ops and every vector operation of
// the solvers (projections, orthogonalisation, updates, the Ritz vectors) is an eager op on
// the runtime that owns v0/b, so the solvers run on CPU, CUDA and WebGPU alike and never
// move a vector. Only the small projected problems (a tridiagonal or Hessenberg matrix of
// ncv x ncv, a least-squares problem, a small exponential) are solved on the host, by LAPACK.
// Their inputs arrive by explicit scalar reads and their coefficients go back by explicit
// scalar writes, both counted in RuntimeStats (scalar_reads / scalar_writes), apart from the
// caller's uploads and downloads:
//   - eigsh, eigs, gmres, expm_multiply: one read per matvec (the projections of the new
//     vector on the basis and its norm, read together), one read for the start vector's norm,
//     one write per restart (the rotation that keeps the wanted Ritz vectors) and one at the
//     end (the combination that forms the result);
//   - cg, minres: one read per iteration (cg: the residual norm and p^H A p; minres: the
//     Lanczos pair alpha, beta); their step lengths need no write (device 0-d tensors, or host
//     scalars passed to a kernel).
//
// The vector inner product is <x, y> = sum conj(x) y over all elements of the operator's
// tensors (any shape; the operator must return its argument's shape, dtype and runtime).
//
// Non-convergence within maxiter is a NotConvergedError (a Numerical error) that carries the
// best iterate and its residual norm: never a silently unconverged result. Bad arguments
// (k >= dimension, an empty or zero v0, an operator that changes shape or dtype or returns a
// tensor of another runtime) are typed errors raised before the solver uses the result.
#pragma once

#include <complex>
#include <cstdint>
#include <functional>
#include <optional>
#include <string_view>
#include <vector>

#include "tenferro/core/error.hpp"
#include "tenferro/runtime/eager_tensor.hpp"

// The public API: exported from the shared library (the rest of it is hidden).
#pragma GCC visibility push(default)

namespace tenferro::krylov {

// x -> A x, written with eager ops; must return a tensor of x's shape, dtype and runtime.
using LinearOperator = std::function<EagerTensor(const EagerTensor&)>;

// Which eigenvalues (SciPy's codes in parentheses).
enum class Which : std::uint8_t {
  LargestMagnitude,   // "LM"
  SmallestMagnitude,  // "SM" (converges slowly: no shift-invert here)
  LargestAlgebraic,   // "LA" (eigsh) / "LR" (eigs): largest real part
  SmallestAlgebraic,  // "SA" (eigsh) / "SR" (eigs): smallest real part
  LargestImaginary,   // "LI" (eigs only)
  SmallestImaginary,  // "SI" (eigs only)
};
// "LM", "SM", "LA", "SA", "LR", "SR", "LI", "SI"; anything else is a Validation error.
Which which_from_string(std::string_view code);
std::string_view which_name(Which which);

struct EigOptions {
  std::int64_t k = 1;  // how many eigenpairs; 1 <= k < dimension (eigs: k < dimension - 1)
  Which which = Which::LargestMagnitude;
  // Converged when ||A x - theta x|| <= tol * max(|theta|, eps^(2/3) ||H||); 0 means the
  // dtype's machine epsilon (SciPy's tol=0).
  double tol = 0.0;
  std::int64_t maxiter = 0;  // restarts; 0 means 300
  std::int64_t ncv = 0;      // basis size; 0 means min(dimension, max(2k + 1, 20))
  // Judge convergence after every step (KrylovKit's `eager`), not only on a full ncv-step basis
  // (ARPACK's way, the default). From a start vector close to a wanted eigenvector (a DMRG
  // sweep's previous state) it stops after a few matvecs; but a start vector close to an
  // unwanted eigenvector then passes too (its Ritz pair is converged before the basis reaches
  // the wanted ones), so take it only where the start vector is known to be good.
  bool eager = false;
};

struct EigshResult {
  std::vector<double> eigenvalues;        // k, ordered by `which` (best first)
  std::vector<EagerTensor> eigenvectors;  // k unit vectors of v0's shape
  std::vector<double> residual_norms;     // ||A x - theta x|| per pair (the Lanczos estimate)
  std::int64_t matvecs = 0;
  std::int64_t restarts = 0;
};
// Thick-restart Lanczos (Wu & Simon) with full reorthogonalisation for a Hermitian operator.
// Eigenvectors of a degenerate eigenvalue span its eigenspace (any orthonormal basis of it).
EigshResult eigsh(const LinearOperator& a, const EagerTensor& v0, const EigOptions& options = {});

struct EigsResult {
  std::vector<std::complex<double>> eigenvalues;
  std::vector<EagerTensor> eigenvectors;  // complex (v0's complex dtype), unit norm
  std::vector<double> residual_norms;
  std::int64_t matvecs = 0;
  std::int64_t restarts = 0;
};
// Krylov-Schur (Stewart) for a general operator. Works in v0's complex dtype: a real v0 is
// cast to complex first, so the operator must accept complex vectors (the prims promote a real
// tensor meeting a complex one; einsum wants one dtype, so cast a real matrix to x.dtype()).
EigsResult eigs(const LinearOperator& a, const EagerTensor& v0, const EigOptions& options = {});

struct SvdsResult {
  EagerTensor u;                        // [m, k], orthonormal columns
  EagerTensor s;                        // [k], real, descending, on the matrix's runtime
  EagerTensor vh;                       // [k, n]
  std::vector<double> singular_values;  // the same k values on the host
  std::int64_t matvecs = 0;
};
// The k largest singular triplets of a matrix a [m, n] (1 <= k <= min(m, n): SciPy's svds
// wants k < min(m, n), but a bond that is not truncated needs all of them), on any backend,
// through eigsh on the smaller Gram matrix (A^H A or A A^H, formed once on the device). Singular
// values below sqrt(eps) times the largest (float32: about 3e-4) have no relative accuracy; their
// vectors still complete an orthonormal basis (the other side is orthonormalised on the device), so
// U S Vh stays within them of A, which is what truncation needs. For a full or accurate SVD use
// linalg::svd (CPU, CUDA); svds is how a backend without dense decompositions (WebGPU) truncates.
// The start vector is seeded: the same call gives the same result.
SvdsResult svds(const EagerTensor& a, std::int64_t k, double tol = 0.0, std::uint64_t seed = 0);

struct SolveOptions {
  // Converged when ||b - A x|| <= max(rtol * ||b||, atol) (SciPy's rule).
  double rtol = 1e-5;
  double atol = 0.0;
  std::int64_t restart = 20;  // gmres: basis size per cycle
  std::int64_t maxiter = 0;   // gmres: cycles (0: 100); cg/minres: iterations (0: 10 N / 5 N)
  std::optional<EagerTensor> x0 = std::nullopt;  // start (zeros when absent)
};
struct SolveResult {
  EagerTensor x;
  double residual_norm = 0;  // ||b - A x||, the true residual (recomputed, never the
                             // recurrence's estimate); 0 for b = 0 (x = 0)
  std::int64_t matvecs = 0;
  std::int64_t iterations = 0;  // gmres: Arnoldi steps; cg, minres: iterations
};
// Restarted GMRES (Saad & Schultz) for a general nonsingular operator.
SolveResult gmres(const LinearOperator& a, const EagerTensor& b, const SolveOptions& options = {});
// Conjugate gradients for a Hermitian positive-definite operator.
SolveResult cg(const LinearOperator& a, const EagerTensor& b, const SolveOptions& options = {});
// MINRES (Paige & Saunders) for a Hermitian, possibly indefinite operator (maxiter 0: 5 N).
SolveResult minres(const LinearOperator& a, const EagerTensor& b, const SolveOptions& options = {});

struct ExpmOptions {
  // Target relative error: each substep's a-posteriori estimate, relative to the norm of the
  // vector it starts from, stays below tol times its share of the time span; 0 means 100 times
  // the dtype's machine epsilon.
  double tol = 0.0;
  std::int64_t ncv = 30;  // Krylov basis size per substep
  std::int64_t max_substeps = 10000;
};
struct ExpmResult {
  EagerTensor x;              // exp(t A) v
  double error_estimate = 0;  // sum of the substeps' relative a-posteriori estimates
  std::int64_t substeps = 0;
  std::int64_t matvecs = 0;
};
// exp(t A) v by Krylov projection with automatic substeps (Hochbruck & Lubich; Saad's
// a-posteriori estimate). t may be complex (exp(-i H dt) v for time evolution); a complex t
// or a complex operator needs a complex v: a real v is cast to complex when t is complex.
ExpmResult expm_multiply(const LinearOperator& a, const EagerTensor& v, std::complex<double> t,
                         const ExpmOptions& options = {});

// Non-convergence within maxiter: a Numerical error that carries the best iterate(s) and their
// residual norms, so the caller can decide what to do with them.
class NotConvergedError : public Error {
 public:
  NotConvergedError(std::string op, std::string message, std::vector<EagerTensor> best,
                    std::vector<double> residual_norms);
  const std::vector<EagerTensor>& best() const noexcept { return best_; }
  const std::vector<double>& residual_norms() const noexcept { return residual_norms_; }

 private:
  std::vector<EagerTensor> best_;
  std::vector<double> residual_norms_;
};

}  // namespace tenferro::krylov

#pragma GCC visibility pop
