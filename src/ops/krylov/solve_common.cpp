#include "ops/krylov/solve_common.hpp"

#include <cmath>
#include <string>

#include "ops/krylov/scientific.hpp"
#include "tenferro/prims.hpp"

namespace tenferro::krylov_internal {

SolveSetup solve_setup(const std::string& op, const krylov::LinearOperator& a, const EagerTensor& b,
                       const krylov::SolveOptions& options) {
  if (!b.defined()) throw_validation(op, "b is an empty handle");
  if (!(options.rtol >= 0) || !(options.atol >= 0) || options.maxiter < 0) {
    throw_validation(op, "rtol, atol and maxiter must be >= 0");
  }
  DType dtype = b.dtype();
  if (options.x0 && is_complex(options.x0->dtype())) dtype = complex_dtype(dtype);
  SolveSetup s;
  s.space = std::make_unique<VectorSpace>(op, a, b, dtype);
  s.b = s.space->flat(b, "b");
  if (options.x0) {
    s.x = s.space->flat(*options.x0, "x0");
    s.x_is_zero = false;
  } else {
    s.x = prims::zeros(s.space->runtime(), dtype, Shape{s.space->dim()});
  }
  s.b_norm = s.space->norm(s.b);
  s.target = std::max(options.rtol * s.b_norm, options.atol);
  return s;
}

krylov::SolveResult zero_solution(const SolveSetup& setup) {
  krylov::SolveResult out;
  out.x = setup.space->shaped(
      prims::zeros(setup.space->runtime(), setup.space->dtype(), Shape{setup.space->dim()}));
  out.matvecs = setup.space->matvecs();
  return out;
}

Residual true_residual(SolveSetup& setup, const EagerTensor& x) {
  Residual out;
  out.r = setup.b - setup.space->apply(x);
  out.norm = setup.space->norm(out.r);
  return out;
}

Residual start_residual(SolveSetup& setup) {
  if (setup.x_is_zero) return {setup.b, setup.b_norm};
  return true_residual(setup, setup.x);
}

void require_progress(const SolveSetup& setup, const std::string& op, const EagerTensor& x,
                      double residual, double pass_start, std::int64_t iterations) {
  if (residual <= setup.target || residual < 0.5 * pass_start) return;
  throw krylov::NotConvergedError(
      op,
      "the true residual norm ||b - A x|| = " + scientific(residual) + " stays above the target " +
          scientific(setup.target) + " after " + std::to_string(iterations) +
          " iterations, although the recurrence's estimate fell below it: rounding limits the "
          "accuracy reachable on this ill-conditioned operator; loosen rtol/atol or "
          "precondition the operator",
      {setup.space->shaped(x)}, {residual});
}

void throw_after_maxiter(SolveSetup& setup, const std::string& op, std::int64_t maxiter,
                         const EagerTensor& x, const EagerTensor& start, double start_norm) {
  const Residual t = true_residual(setup, x);
  const bool here = t.norm <= start_norm;
  const double best = here ? t.norm : start_norm;
  throw krylov::NotConvergedError(op,
                                  "not converged after " + std::to_string(maxiter) +
                                      " iterations: residual norm " + scientific(best) +
                                      " > target " + scientific(setup.target) +
                                      "; raise maxiter, or precondition the operator",
                                  {setup.space->shaped(here ? x : start)}, {best});
}

}  // namespace tenferro::krylov_internal
