// What gmres, cg and minres share: the checks of b and x0, the working vectors and the target
// residual; for the short recurrences (cg, minres) the passes checked by the true residual.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>

#include "ops/krylov/vector_space.hpp"

namespace tenferro::krylov_internal {

struct SolveSetup {
  std::unique_ptr<VectorSpace> space;
  EagerTensor b;  // flat
  EagerTensor x;  // flat start (zeros without x0)
  bool x_is_zero = true;
  double b_norm = 0;
  double target = 0;  // max(rtol ||b||, atol)
};

SolveSetup solve_setup(const std::string& op, const krylov::LinearOperator& a, const EagerTensor& b,
                       const krylov::SolveOptions& options);

// The answer for b = 0: x = 0 solves A x = 0 exactly, whatever A is (no matvec). Iterating
// from a nonzero x0 instead chases a residual that can only underflow.
krylov::SolveResult zero_solution(const SolveSetup& setup);

// The true residual b - A x (one matvec) and its norm.
struct Residual {
  EagerTensor r;
  double norm = 0;
};
Residual true_residual(SolveSetup& setup, const EagerTensor& x);
// The residual at the start vector: b and its norm (no matvec) when the start is zero, else
// the true residual.
Residual start_residual(SolveSetup& setup);

// Between two passes of a short recurrence (cg, minres), whose own residual drifts from the
// true one on an ill-conditioned operator: a pass that ended below the target by its recurrence
// but left the true residual above it is restarted from the true residual, as long as each pass
// at least halves it. A pass that ended above the target without doing so (`residual` >=
// `pass_start` / 2) means rounding bounds the attainable accuracy: NotConvergedError with x.
void require_progress(const SolveSetup& setup, const std::string& op, const EagerTensor& x,
                      double residual, double pass_start, std::int64_t iterations);

// NotConvergedError after `maxiter` iterations of a short recurrence: the iterate of the smaller
// true residual of x and the pass's start (whose true residual `start_norm` is known), with
// that residual (one matvec), never the recurrence's estimate.
[[noreturn]] void throw_after_maxiter(SolveSetup& setup, const std::string& op,
                                      std::int64_t maxiter, const EagerTensor& x,
                                      const EagerTensor& start, double start_norm);

// A short recurrence (cg, minres) run in passes until the true residual meets the target:
// pass(x, start, iterations, give_up) runs one pass from x and its true residual `start`,
// updating x and counting iterations, and calls give_up() (which throws) when the iterations
// reach maxiter; between passes the true residual is recomputed and require_progress judges it.
template <class Pass>
krylov::SolveResult solve_in_passes(SolveSetup& setup, const std::string& op, std::int64_t maxiter,
                                    Pass&& pass) {
  krylov::SolveResult out;
  EagerTensor x = setup.x;
  Residual residual = start_residual(setup);
  while (residual.norm > setup.target) {
    const EagerTensor pass_x = x;
    const double pass_start = residual.norm;
    const auto give_up = [&] { throw_after_maxiter(setup, op, maxiter, x, pass_x, pass_start); };
    pass(x, std::as_const(residual), out.iterations, give_up);
    residual = true_residual(setup, x);
    require_progress(setup, op, x, residual.norm, pass_start, out.iterations);
  }
  out.x = setup.space->shaped(x);
  out.residual_norm = residual.norm;
  out.matvecs = setup.space->matvecs();
  return out;
}

}  // namespace tenferro::krylov_internal
