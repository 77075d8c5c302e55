#include "ops/krylov/krylov_schur.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "ops/krylov/basis.hpp"
#include "ops/krylov/ritz_order.hpp"
#include "ops/krylov/scientific.hpp"
#include "ops/krylov/small_dense.hpp"
#include "tenferro/prims.hpp"

namespace tenferro::krylov_internal {
namespace {

// Ritz pairs of the leading size x size block of the projected matrix.
struct Ritz {
  std::vector<cplx> values;
  HostMatrix vectors;
};

Ritz ritz_pairs(const HostMatrix& h, std::int64_t size, bool hermitian, bool real,
                const std::string& op) {
  const HostMatrix block = h.block(size, size);
  if (hermitian) {
    HermitianEigen e = hermitian_eigen(block, real, op);
    return {std::vector<cplx>(e.values.begin(), e.values.end()), std::move(e.vectors)};
  }
  GeneralEigen e = general_eigen(block, op);
  return {std::move(e.values), std::move(e.vectors)};
}

// The columns `order[0:count)` of a matrix.
HostMatrix pick_columns(const HostMatrix& y, const std::vector<std::int64_t>& order,
                        std::int64_t count) {
  HostMatrix out(y.rows, count);
  for (std::int64_t c = 0; c < count; ++c)
    for (std::int64_t i = 0; i < y.rows; ++i) out(i, c) = y(i, order[static_cast<std::size_t>(c)]);
  return out;
}

// How far one step's projections stray from what a Hermitian operator gives, all rounding for
// one: alpha's imaginary part and, on a Lanczos step (`lanczos`), what the full pass found on
// the basis beyond the recurrence's two terms (v_i^H A v_j for i < j - 1, and v_{j-1}^H A v_j
// less the previous beta, which for a Hermitian A is its conjugate, v_j^H A v_{j-1}).
double hermitian_defect(const Projection& pr, std::int64_t j, bool lanczos, double previous_beta) {
  double defect = std::abs(pr.h[static_cast<std::size_t>(j)].imag());
  if (lanczos) {
    for (std::int64_t i = 0; i < j; ++i) {
      const cplx off = pr.h[static_cast<std::size_t>(i)] - (i == j - 1 ? previous_beta : 0.0);
      defect = std::max(defect, std::abs(off));
    }
  }
  return defect;
}

}  // namespace

RitzOutcome krylov_schur(VectorSpace& space, const EagerTensor& v0_flat,
                         const krylov::EigOptions& options, bool hermitian) {
  const std::string& op = space.op();
  const std::int64_t n = space.dim();
  const std::int64_t k = options.k;
  const std::int64_t m =
      options.ncv > 0 ? options.ncv : std::min(n, std::max<std::int64_t>(2 * k + 1, 20));
  const double tol = options.tol > 0 ? options.tol : space.eps();
  const std::int64_t maxiter = options.maxiter > 0 ? options.maxiter : 300;
  const double eps23 = std::pow(space.eps(), 2.0 / 3.0);
  const bool real = !space.complex();

  const double v0_norm = space.norm(v0_flat);
  if (v0_norm == 0) throw_validation(op, "v0 is the zero vector: give a nonzero start vector");
  Basis basis(space, m + 1);
  basis.reset(prims::scale(v0_flat, 1.0 / v0_norm));

  HostMatrix h(m + 1, m);  // A V[:, 0:m] = V[:, 0:m+1] h
  std::int64_t kept = 0;   // columns of h fixed by the last restart
  std::uint64_t seed = 0x6b72796c6f76ULL;
  double h_scale = 0;  // the largest projection seen: ||A|| as far as the basis shows it
  RitzOutcome out;
  // The Ritz pairs of the leading size x size block, the wanted ones' values and residual
  // estimates |h(size, :) y| in `out`, and whether all of them have converged.
  struct Assessment {
    Ritz ritz;
    std::vector<std::int64_t> order;
    bool converged = true;
  };
  const auto assess = [&](std::int64_t size, bool invariant) {
    Assessment a{ritz_pairs(h, size, hermitian, real, op), {}, true};
    a.order = ritz_order(a.ritz.values, options.which);
    double anorm = 0;
    for (const cplx& t : a.ritz.values) anorm = std::max(anorm, std::abs(t));
    out.values.clear();
    out.residuals.clear();
    for (std::int64_t c = 0; c < k; ++c) {
      const std::int64_t i = a.order[static_cast<std::size_t>(c)];
      cplx r{};
      if (!invariant)
        for (std::int64_t l = 0; l < size; ++l) r += h(size, l) * a.ritz.vectors(l, i);
      const double res = std::abs(r);
      const cplx theta = a.ritz.values[static_cast<std::size_t>(i)];
      out.values.push_back(theta);
      out.residuals.push_back(res);
      // ARPACK's test, with a floor at rounding level: a residual of eps ||H|| is as small as
      // the arithmetic can make one, so tol = 0 ("machine precision") cannot stall an
      // eigenvalue small next to ||H|| on a residual the basis cannot lower any further.
      const double target =
          std::max(tol * std::max(std::abs(theta), eps23 * anorm), space.eps() * anorm);
      if (!(res <= target)) a.converged = false;
    }
    return a;
  };
  const auto finish = [&](const Assessment& a, std::int64_t size) {
    const HostMatrix yk = pick_columns(a.ritz.vectors, a.order, k);
    out.vectors = basis.combine_columns(yk.a, size, k);
  };

  for (std::int64_t restart = 0;; ++restart) {
    out.restarts = restart;
    std::int64_t size = m;
    bool invariant = false;
    for (std::int64_t j = kept; j < m; ++j) {
      // Past the first column after a (re)start the Hermitian basis follows the three-term
      // recurrence; that first column's product has large components on every kept vector
      // (the arrowhead), so it gets the full CGS2.
      const EagerTensor av = space.apply(basis.column(j));
      const bool lanczos = hermitian && j > kept;
      const double previous_beta = lanczos ? h(j, j - 1).real() : 0.0;
      const Projection pr =
          lanczos ? basis.orthogonalize_lanczos(av, previous_beta) : basis.orthogonalize(av);
      for (std::int64_t i = 0; i <= j; ++i) h(i, j) = pr.h[static_cast<std::size_t>(i)];
      // An operator that is not Hermitian (a matrix or a callable) gives eigsh an eigenvalue of
      // neither it nor anything asked for, with no error: its projections show it at once
      // (for a Hermitian one they are rounding, ~eps ||A||), so it is refused at sqrt(eps).
      if (hermitian) {
        for (const cplx& c : pr.h) h_scale = std::max(h_scale, std::abs(c));
        h_scale = std::max(h_scale, pr.beta);
        const double defect = hermitian_defect(pr, j, lanczos, previous_beta);
        if (defect > std::sqrt(space.eps()) * h_scale) {
          throw_error(ErrorKind::Validation, ErrorPhase::Execute, op,
                      "the operator is not Hermitian: at Lanczos step " + std::to_string(j) +
                          " its projections differ from their conjugate transposes by " +
                          scientific(defect) + " against a scale of " + scientific(h_scale) +
                          "; eigsh is for Hermitian operators, use eigs for a general one");
        }
      }
      if (!pr.invariant(space.eps())) {
        h(j + 1, j) = pr.beta;
        basis.append(prims::scale(pr.w, 1.0 / pr.beta));
        // Converged before the basis is full (options.eager only)? The projected problem is
        // tiny next to a matvec, so it is checked after every step: a good start vector (the
        // previous DMRG state) stops after a few matvecs instead of a whole ncv-step cycle. Not
        // by default: a start vector near an unwanted eigenvector has a converged Ritz pair
        // after one step, while the wanted ones need the whole basis to show up.
        if (options.eager && j + 1 >= k && j + 1 < m) {
          const Assessment early = assess(j + 1, false);
          if (early.converged) {
            finish(early, j + 1);
            return out;
          }
        }
        continue;
      }
      // The basis spans an invariant subspace: its Ritz pairs are exact.
      h(j + 1, j) = 0;
      if (j + 1 == m) {
        size = m;
        invariant = true;
        break;
      }
      // Go on in a random direction orthogonal to it (the decomposition stays valid with
      // h(j+1, j) = 0), so eigenvalues outside the subspace can still be found.
      const Projection r = basis.orthogonalize(space.random_vector(seed++));
      basis.append(prims::scale(r.w, 1.0 / r.beta));
    }

    // A basis of the whole space leaves nothing outside it: the projection is exact.
    if (size == n) invariant = true;
    const Assessment assessment = assess(size, invariant);
    const Ritz& ritz = assessment.ritz;
    const std::vector<std::int64_t>& order = assessment.order;
    if (assessment.converged || restart >= maxiter) {
      finish(assessment, size);
      if (assessment.converged) return out;
      std::vector<EagerTensor> best;
      for (const EagerTensor& x : out.vectors) best.push_back(space.shaped(x));
      throw krylov::NotConvergedError(
          op,
          "not converged after " + std::to_string(restart) + " restarts (" +
              std::to_string(space.matvecs()) + " matvecs): the worst residual norm is " +
              scientific(*std::max_element(out.residuals.begin(), out.residuals.end())) +
              " for tol " + scientific(tol) +
              "; raise maxiter or ncv, or loosen tol. The best Ritz vectors are in best()",
          std::move(best), out.residuals);
    }

    // Restart: keep the `kept` best Ritz (Schur) vectors and the residual direction V[:, m].
    kept = std::clamp<std::int64_t>(k + (m - k) / 2, k, m - 1);
    HostMatrix q, leading;
    if (hermitian) {
      q = pick_columns(ritz.vectors, order, kept);
      leading = HostMatrix(kept, kept);
      for (std::int64_t i = 0; i < kept; ++i)
        leading(i, i) = ritz.values[static_cast<std::size_t>(order[static_cast<std::size_t>(i)])];
    } else {
      std::vector<bool> select(ritz.values.size(), false);
      for (std::int64_t c = 0; c < kept; ++c)
        select[static_cast<std::size_t>(order[static_cast<std::size_t>(c)])] = true;
      const Schur schur = ordered_schur(h.block(m, m), select, ritz.values, op);
      q = schur.q.block(m, kept);
      leading = schur.t.block(kept, kept);
    }
    HostMatrix next(m + 1, m);
    for (std::int64_t j = 0; j < kept; ++j) {
      for (std::int64_t i = 0; i < kept; ++i) next(i, j) = leading(i, j);
      cplx b{};
      for (std::int64_t l = 0; l < m; ++l) b += h(m, l) * q(l, j);
      next(kept, j) = b;
    }
    h = std::move(next);
    basis.rotate(q.a, m, kept, basis.column(m));
  }
}

}  // namespace tenferro::krylov_internal
