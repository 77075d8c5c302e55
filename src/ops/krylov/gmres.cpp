// Restarted GMRES (Saad & Schultz): Arnoldi with CGS2 on the device, the least-squares problem
// on the host by Givens rotations, which give the residual norm of every step for free.
#include <cmath>
#include <string>

#include "ops/krylov/basis.hpp"
#include "ops/krylov/scientific.hpp"
#include "ops/krylov/small_dense.hpp"
#include "ops/krylov/solve_common.hpp"
#include "tenferro/prims.hpp"

namespace tenferro::krylov {
namespace {

using krylov_internal::Basis;
using krylov_internal::cplx;
using krylov_internal::HostMatrix;
using krylov_internal::Projection;
using krylov_internal::scientific;

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

// y = R^{-1} g over the leading `used` columns of the rotated (upper triangular) h.
std::vector<cplx> back_substitute(const HostMatrix& r, const std::vector<cplx>& g,
                                  std::int64_t used) {
  std::vector<cplx> y(static_cast<std::size_t>(used));
  for (std::int64_t i = used - 1; i >= 0; --i) {
    cplx s = g[static_cast<std::size_t>(i)];
    for (std::int64_t l = i + 1; l < used; ++l) s -= r(i, l) * y[static_cast<std::size_t>(l)];
    y[static_cast<std::size_t>(i)] = s / r(i, i);
  }
  return y;
}

// ||beta e1 - H y|| with the unrotated Hessenberg H: the residual of x + V y in the orthonormal
// Arnoldi basis, computed from y itself (a y made huge by a near-zero pivot shows here; the
// rotated right-hand side's last entry would not say so). Summed relative to beta: the squares
// of entries of 1e300 overflowed, every candidate's residual was inf, and a well-conditioned
// system with ||b|| ~ 1e300 stagnated (an adversarial sweep found it).
double arnoldi_residual(const HostMatrix& h, double beta, const std::vector<cplx>& y,
                        std::int64_t steps) {
  double sum = 0;
  for (std::int64_t i = 0; i <= steps; ++i) {
    cplx e = i == 0 ? cplx(beta) : cplx{};
    for (std::int64_t l = 0; l < static_cast<std::int64_t>(y.size()); ++l)
      e -= h(i, l) * y[static_cast<std::size_t>(l)];
    sum += std::norm(e / beta);
  }
  return beta * std::sqrt(sum);
}

}  // namespace

SolveResult gmres(const LinearOperator& a, const EagerTensor& b, const SolveOptions& options) {
  const std::string op = "krylov.gmres";
  krylov_internal::SolveSetup setup = krylov_internal::solve_setup(op, a, b, options);
  if (options.restart < 1) throw_validation(op, "restart must be >= 1");
  if (setup.b_norm == 0) return krylov_internal::zero_solution(setup);
  auto& space = *setup.space;
  const std::int64_t m = std::min(options.restart, space.dim());
  const std::int64_t cycles = options.maxiter > 0 ? options.maxiter : 100;

  SolveResult out;
  EagerTensor x = setup.x;
  EagerTensor best_x = x;  // the iterate of the smallest true residual so far
  double best_residual = INFINITY;
  constexpr int kStalledCycles = 10;
  int stalled = 0;  // cycles in a row that did not lower best_residual
  Basis basis(space, m + 1);
  for (std::int64_t cycle = 0;; ++cycle) {
    // The true residual at the start of every cycle: the estimate is never what we report.
    const EagerTensor r = setup.x_is_zero ? setup.b : setup.b - space.apply(x);
    setup.x_is_zero = false;
    const double beta = space.norm(r);
    if (beta <= setup.target) {
      out.x = space.shaped(x);
      out.residual_norm = beta;
      out.matvecs = space.matvecs();
      return out;
    }
    // A cycle minimises the residual over x + K, so it cannot grow in exact arithmetic. Cycles
    // that do not lower the best residual (rounding near the attainable accuracy, or an
    // operator singular on K) may still creep on from the new x, so a few are allowed; ten in
    // a row end the solve with the best iterate instead of spending the remaining cycles.
    if (beta < best_residual) {
      stalled = 0;
      best_residual = beta;
      best_x = x;
    } else if (++stalled >= kStalledCycles) {
      throw NotConvergedError(
          op,
          "stagnated after " + std::to_string(cycle) + " restart cycles (" +
              std::to_string(space.matvecs()) + " matvecs): " + std::to_string(kStalledCycles) +
              " cycles in a row did not reduce the residual norm " + scientific(best_residual) +
              " (target " + scientific(setup.target) +
              "); the operator is singular or too ill-conditioned on the Krylov space (b may "
              "not be in its range); the best iterate is in best()",
          {space.shaped(best_x)}, {best_residual});
    }
    if (cycle >= cycles) break;
    basis.reset(prims::scale(r, 1.0 / beta));
    HostMatrix h(m + 1, m), unrotated(m + 1, m);
    std::vector<Givens> rotations;
    std::vector<cplx> g(static_cast<std::size_t>(m + 1));
    g[0] = beta;
    std::int64_t steps = 0;
    for (std::int64_t j = 0; j < m; ++j) {
      const Projection pr = basis.orthogonalize(space.apply(basis.column(j)));
      for (std::int64_t i = 0; i <= j; ++i) h(i, j) = pr.h[static_cast<std::size_t>(i)];
      h(j + 1, j) = pr.beta;
      for (std::int64_t i = 0; i <= j + 1; ++i) unrotated(i, j) = h(i, j);
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
    // y = R^{-1} g. Where A is singular (or nearly) on the subspace a pivot of R is rounding
    // noise and the solve through it gives a huge, wrong y; so the leading columns before each
    // pivot below sqrt(eps) ||R|| are candidates too, and the y of the smallest residual
    // ||beta e1 - H y|| wins (a zero pivot leaves only the columns before it).
    double r_norm = 0;
    for (std::int64_t j = 0; j < steps; ++j)
      for (std::int64_t i = 0; i <= j; ++i) r_norm = std::max(r_norm, std::abs(h(i, j)));
    std::vector<cplx> y;
    double y_residual = beta;  // y empty: x unchanged
    for (std::int64_t used = 1; used <= steps; ++used) {
      if (std::abs(h(used - 1, used - 1)) == 0) break;
      const bool last = used == steps;
      if (!last && !(std::abs(h(used, used)) <= std::sqrt(space.eps()) * r_norm)) continue;
      std::vector<cplx> candidate = back_substitute(h, g, used);
      const double res = arnoldi_residual(unrotated, beta, candidate, steps);
      if (res < y_residual) {
        y = std::move(candidate);
        y_residual = res;
      }
    }
    const auto used = static_cast<std::int64_t>(y.size());
    if (used == 0) continue;  // no y lowers the residual: the cycle counts as stalled
    x = x + basis.combine(y, used);
  }
  throw NotConvergedError(op,
                          "not converged after " + std::to_string(cycles) + " restart cycles (" +
                              std::to_string(space.matvecs()) + " matvecs): residual norm " +
                              scientific(best_residual) + " > target " + scientific(setup.target) +
                              "; raise maxiter or restart",
                          {space.shaped(best_x)}, {best_residual});
}

}  // namespace tenferro::krylov
