// Conjugate gradients (Hestenes & Stiefel). The step lengths stay on the device as 0-d
// tensors, so an iteration reads one pair of scalars: the new residual norm (convergence) and
// p^H A p (a non-positive value means the operator is not positive definite).
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
  auto& space = *setup.space;
  const std::int64_t maxiter = options.maxiter > 0 ? options.maxiter : 10 * space.dim();

  SolveResult out;
  EagerTensor x = setup.x;
  EagerTensor r = setup.x_is_zero ? setup.b : setup.b - space.apply(x);
  double residual = setup.x_is_zero ? setup.b_norm : space.norm(r);
  EagerTensor p = r;
  EagerTensor rr = real_inner(r, r);
  for (std::int64_t it = 0; residual > setup.target; ++it) {
    if (it >= maxiter) {
      throw NotConvergedError(op,
                              "not converged after " + std::to_string(maxiter) +
                                  " iterations: residual norm " + std::to_string(residual) +
                                  " > target " + std::to_string(setup.target) +
                                  "; raise maxiter, or precondition the operator",
                              {space.shaped(x)}, {residual});
    }
    const EagerTensor ap = space.apply(p);
    const EagerTensor pap = real_inner(p, ap);
    const EagerTensor alpha = rr / pap;
    const EagerTensor x_next = x + alpha * p;
    const EagerTensor r_next = r - alpha * ap;
    const EagerTensor rr_next = real_inner(r_next, r_next);
    const std::array<EagerTensor, 2> pair{prims::reshape(rr_next, Shape{1}),
                                          prims::reshape(pap, Shape{1})};
    const auto values = space.read(prims::concatenate(pair, 0));
    if (!(values[1].real() > 0)) {
      throw_error(ErrorKind::Numerical, ErrorPhase::Execute, op,
                  "p^H A p = " + std::to_string(values[1].real()) + " <= 0 at iteration " +
                      std::to_string(it) +
                      ": the operator is not Hermitian positive definite; use gmres");
    }
    x = x_next;
    r = r_next;
    residual = std::sqrt(std::max(0.0, values[0].real()));
    p = r + (rr_next / rr) * p;
    rr = rr_next;
    ++out.iterations;
  }
  out.x = space.shaped(x);
  out.residual_norm = residual;
  out.matvecs = space.matvecs();
  return out;
}

}  // namespace tenferro::krylov
