// MINRES (Paige & Saunders 1975) for a Hermitian, possibly indefinite operator: the Lanczos
// three-term recurrence (its tridiagonal matrix is real even for a complex Hermitian A) with
// plane rotations that minimise ||b - A x|| over the Krylov space. The Lanczos coefficient
// alpha stays on the device for the update that needs it, so an iteration reads one pair of
// scalars (alpha and the next beta); the rotations are host scalars passed to axpby. The answer
// is checked against the true residual b - A x (one more matvec), never the recurrence's.
#include <array>
#include <cmath>
#include <string>

#include "ops/krylov/solve_common.hpp"
#include "tenferro/einsum.hpp"
#include "tenferro/prims.hpp"

namespace tenferro::krylov {

SolveResult minres(const LinearOperator& a, const EagerTensor& b, const SolveOptions& options) {
  const std::string op = "krylov.minres";
  krylov_internal::SolveSetup setup = krylov_internal::solve_setup(op, a, b, options);
  if (setup.b_norm == 0) return krylov_internal::zero_solution(setup);
  auto& space = *setup.space;
  const std::int64_t maxiter = options.maxiter > 0 ? options.maxiter : 5 * space.dim();
  const bool cplx = space.complex();

  return krylov_internal::solve_in_passes(
      setup, op, maxiter,
      [&](EagerTensor& x, const krylov_internal::Residual& start, std::int64_t& iterations,
          const auto& give_up) {
        double beta = start.norm;
        EagerTensor r1 = start.r;
        EagerTensor r2 = r1;
        EagerTensor w = prims::zeros(space.runtime(), space.dtype(), Shape{space.dim()});
        EagerTensor w2 = w;
        double oldb = 0, dbar = 0, epsln = 0, phibar = beta, cs = -1, sn = 0;
        for (std::int64_t it = 0;; ++it) {
          if (iterations >= maxiter) give_up();
          const EagerTensor v = prims::scale(r2, 1.0 / beta);
          EagerTensor y = space.apply(v);
          if (it > 0) y = prims::axpby(1.0, y, -beta / oldb, r1);
          const EagerTensor alpha_t = prims::real(einsum("n,n->", {cplx ? prims::conj(v) : v, y}));
          y = y - alpha_t * prims::scale(r2, 1.0 / beta);
          const std::array<EagerTensor, 2> pair{
              prims::reshape(alpha_t, Shape{1}),
              prims::reshape(prims::cast(prims::norm(y), real_dtype(space.dtype())), Shape{1})};
          const auto values = space.read(prims::concatenate(pair, 0));
          const double alpha = values[0].real();
          r1 = r2;
          r2 = y;
          oldb = beta;
          beta = values[1].real();
          // The next plane rotation of the tridiagonal's QR factorisation.
          const double oldeps = epsln;
          const double delta = cs * dbar + sn * alpha;
          const double gbar = sn * dbar - cs * alpha;
          epsln = sn * beta;
          dbar = -cs * beta;
          const double gamma = std::hypot(gbar, beta);
          if (gamma == 0) {
            throw_error(ErrorKind::Numerical, ErrorPhase::Execute, op,
                        "the operator is singular on the Krylov space (a zero rotation)");
          }
          cs = gbar / gamma;
          sn = beta / gamma;
          const double phi = cs * phibar;
          phibar = sn * phibar;
          const EagerTensor w1 = w2;
          w2 = w;
          w = prims::scale(prims::axpby(-oldeps, w1, -delta, w2) + v, 1.0 / gamma);
          x = prims::axpby(1.0, x, phi, w);
          ++iterations;
          if (phibar <= setup.target || beta == 0) break;
        }
      });
}

}  // namespace tenferro::krylov
