// Restarted GMRES (Saad & Schultz): Arnoldi with CGS2 on the device, the least-squares problem
// on the host by Givens rotations, which give the residual norm of every step for free.
#include <cmath>
#include <string>

#include "ops/krylov/basis.hpp"
#include "ops/krylov/small_dense.hpp"
#include "ops/krylov/solve_common.hpp"
#include "tenferro/prims.hpp"

namespace tenferro::krylov {
namespace {

using krylov_internal::Basis;
using krylov_internal::cplx;
using krylov_internal::HostMatrix;
using krylov_internal::Projection;

struct Givens {
  double c = 1;
  cplx s{};
};

// The rotation that zeroes b below a: [c, s; -conj(s), c] [a; b] = [r; 0].
Givens make_givens(cplx a, cplx b) {
  if (std::abs(b) == 0) return {1, {}};
  if (std::abs(a) == 0) return {0, std::conj(b) / std::abs(b)};
  const double t = std::hypot(std::abs(a), std::abs(b));
  return {std::abs(a) / t, (a / std::abs(a)) * std::conj(b) / t};
}

void rotate(const Givens& g, cplx& x, cplx& y) {
  const cplx top = g.c * x + g.s * y;
  y = -std::conj(g.s) * x + g.c * y;
  x = top;
}

}  // namespace

SolveResult gmres(const LinearOperator& a, const EagerTensor& b, const SolveOptions& options) {
  const std::string op = "krylov.gmres";
  krylov_internal::SolveSetup setup = krylov_internal::solve_setup(op, a, b, options);
  auto& space = *setup.space;
  const std::int64_t m = std::min(options.restart, space.dim());
  if (options.restart < 1) throw_validation(op, "restart must be >= 1");
  const std::int64_t cycles = options.maxiter > 0 ? options.maxiter : 100;

  SolveResult out;
  EagerTensor x = setup.x;
  double best_residual = INFINITY;
  Basis basis(space, m + 1);
  for (std::int64_t cycle = 0;; ++cycle) {
    // The true residual at the start of every cycle: the estimate is never what we report.
    const EagerTensor r = setup.x_is_zero ? setup.b : setup.b - space.apply(x);
    setup.x_is_zero = false;
    const double beta = space.norm(r);
    best_residual = beta;
    if (beta <= setup.target) {
      out.x = space.shaped(x);
      out.residual_norm = beta;
      out.matvecs = space.matvecs();
      return out;
    }
    if (cycle >= cycles) break;
    basis.reset(prims::scale(r, 1.0 / beta));
    HostMatrix h(m + 1, m);
    std::vector<Givens> rotations;
    std::vector<cplx> g(static_cast<std::size_t>(m + 1));
    g[0] = beta;
    std::int64_t steps = 0;
    for (std::int64_t j = 0; j < m; ++j) {
      const Projection pr = basis.orthogonalize(space.apply(basis.column(j)));
      for (std::int64_t i = 0; i <= j; ++i) h(i, j) = pr.h[static_cast<std::size_t>(i)];
      h(j + 1, j) = pr.beta;
      for (std::int64_t i = 0; i < j; ++i)
        rotate(rotations[static_cast<std::size_t>(i)], h(i, j), h(i + 1, j));
      rotations.push_back(make_givens(h(j, j), h(j + 1, j)));
      rotate(rotations.back(), h(j, j), h(j + 1, j));
      rotate(rotations.back(), g[static_cast<std::size_t>(j)], g[static_cast<std::size_t>(j + 1)]);
      steps = j + 1;
      ++out.iterations;
      const bool lucky = pr.beta <= 10 * space.eps() * std::abs(h(j, j));
      if (lucky || std::abs(g[static_cast<std::size_t>(j + 1)]) <= setup.target || j + 1 == m)
        break;
      basis.append(prims::scale(pr.w, 1.0 / pr.beta));
    }
    // y = R^{-1} g by back substitution; a zero pivot means A is singular on the subspace.
    std::vector<cplx> y(static_cast<std::size_t>(steps));
    for (std::int64_t i = steps - 1; i >= 0; --i) {
      cplx s = g[static_cast<std::size_t>(i)];
      for (std::int64_t l = i + 1; l < steps; ++l) s -= h(i, l) * y[static_cast<std::size_t>(l)];
      if (std::abs(h(i, i)) == 0) {
        throw_error(ErrorKind::Numerical, ErrorPhase::Execute, op,
                    "the operator is singular on the Krylov subspace (a zero pivot in the "
                    "least-squares problem)");
      }
      y[static_cast<std::size_t>(i)] = s / h(i, i);
    }
    x = x + basis.combine(y, steps);
  }
  throw NotConvergedError(op,
                          "not converged after " + std::to_string(cycles) + " restart cycles (" +
                              std::to_string(space.matvecs()) + " matvecs): residual norm " +
                              std::to_string(best_residual) + " > target " +
                              std::to_string(setup.target) + "; raise maxiter or restart",
                          {space.shaped(x)}, {best_residual});
}

}  // namespace tenferro::krylov
