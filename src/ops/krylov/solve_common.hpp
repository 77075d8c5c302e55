// What gmres and cg share: the checks of b and x0, the working vectors and the target residual.
#pragma once

#include <memory>
#include <string>

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

}  // namespace tenferro::krylov_internal
