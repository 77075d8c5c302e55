// Conjugate gradients (Hestenes & Stiefel). The step lengths stay on the device as 0-d
// tensors, so an iteration reads one pair of scalars: the new residual norm (convergence) and
// p^H A p (a non-positive value means the operator is not positive definite). The answer is
// checked against the true residual b - A x (one more matvec), never the recurrence's.
#include <array>
#include <cmath>
#include <string>

#include "ops/krylov/solve_common.hpp"
#include "tenferro/einsum.hpp"
#include "tenferro/prims.hpp"

namespace tenferro::krylov {
namespace {

// Re <x, y> as a 0-d real tensor.
EagerTensor real_inner(const EagerTensor& x, const EagerTensor& y) {
  const EagerTensor xc = is_complex(x.dtype()) ? prims::conj(x) : x;
  const EagerTensor d = einsum("n,n->", {xc, y});
  return is_complex(d.dtype()) ? prims::real(d) : d;
}

}  // namespace

SolveResult cg(const LinearOperator& a, const EagerTensor& b, const SolveOptions& options) {
  const std::string op = "krylov.cg";
  krylov_internal::SolveSetup setup = krylov_internal::solve_setup(op, a, b, options);
  if (setup.b_norm == 0) return krylov_internal::zero_solution(setup);
  auto& space = *setup.space;
  const std::int64_t maxiter = options.maxiter > 0 ? options.maxiter : 10 * space.dim();

  return krylov_internal::solve_in_passes(
      setup, op, maxiter,
      [&](EagerTensor& x, const krylov_internal::Residual& start, std::int64_t& iterations,
          const auto& give_up) {
        // The pass runs on its start residual scaled by a power of two (exact) to about unit
        // norm, and builds its correction d on that scale: r^H r and p^H A p then stay in
        // range for any scale of A and b. Unscaled, p^H A p ~ ||A|| ||b||^2 under- or
        // overflowed for a well-conditioned system with entries of 1e-120 or 1e150, a
        // Numerical error where gmres and minres solve it (an adversarial sweep found it).
        const int exponent = std::ilogb(start.norm);
        const double down = std::ldexp(1.0, -exponent), up = std::ldexp(1.0, exponent);
        const EagerTensor x_start = x;
        EagerTensor d;  // the scaled correction, undefined until the first step
        const auto current_x = [&] {
          return d.defined() ? x_start + prims::scale(d, up) : x_start;
        };
        const double target = setup.target * down;
        double residual = start.norm * down;
        EagerTensor r = prims::scale(start.r, down);
        EagerTensor p = r;
        EagerTensor rr = real_inner(r, r);
        while (residual > target) {
          if (iterations >= maxiter) {
            x = current_x();
            give_up();
          }
          const EagerTensor ap = space.apply(p);
          const EagerTensor pap = real_inner(p, ap);
          const EagerTensor alpha = rr / pap;
          const EagerTensor d_next = d.defined() ? d + alpha * p : alpha * p;
          const EagerTensor r_next = r - alpha * ap;
          const EagerTensor rr_next = real_inner(r_next, r_next);
          const std::array<EagerTensor, 2> pair{prims::reshape(rr_next, Shape{1}),
                                                prims::reshape(pap, Shape{1})};
          const auto values = space.read(prims::concatenate(pair, 0));
          if (!(values[1].real() > 0)) {
            throw_error(ErrorKind::Numerical, ErrorPhase::Execute, op,
                        "p^H A p = " + std::to_string(values[1].real()) + " <= 0 at iteration " +
                            std::to_string(iterations) +
                            ": the operator is not Hermitian positive definite; use gmres");
          }
          d = d_next;
          r = r_next;
          residual = std::sqrt(std::max(0.0, values[0].real()));
          p = r + (rr_next / rr) * p;
          rr = rr_next;
          ++iterations;
        }
        x = current_x();
      });
}

}  // namespace tenferro::krylov
