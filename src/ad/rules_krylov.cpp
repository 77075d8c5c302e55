// AD through the Krylov solvers (declared in tenferro/ad.hpp, explained there): the primal
// solve runs untracked, then the result is recorded as primal + a zero-valued correction whose
// rules are the implicit function's linear solves.
#include <algorithm>
#include <array>
#include <string>
#include <utility>

#include "ad/krylov_operator.hpp"
#include "ad/tape.hpp"
#include "ops/krylov/scientific.hpp"
#include "tenferro/einsum.hpp"
#include "tenferro/prims.hpp"

namespace tenferro::ad {
namespace {

using T = EagerTensor;

// The options of the solves inside the rules: the caller's tolerances, no start vector.
krylov::SolveOptions without_start(const krylov::SolveOptions& o) {
  return {.rtol = o.rtol, .atol = o.atol, .restart = o.restart, .maxiter = o.maxiter};
}

T flat(const T& x) {
  return prims::reshape(prims::contiguous(x), Shape{x.numel()});
}

// Records `output = primal + correction(r)` where the correction's value is zero and its
// derivative is the linear map `solve` (forward) / `adjoint_solve` (reverse) applied to r's.
Variable corrected(std::string op, const T& primal, const Variable& r,
                   std::function<T(const T&)> solve, std::function<T(const T&)> adjoint_solve) {
  const T zero = prims::zeros(primal.runtime(), primal.dtype(), primal.shape());
  const std::array<Variable, 1> in{r};
  Variable correction = record1(
      std::move(op), in, zero,
      [adjoint_solve](std::span<const T> g, const std::vector<bool>&) {
        return std::vector<T>{adjoint_solve(g[0])};
      },
      [solve](std::span<const T> t) { return std::vector<T>{solve(t[0])}; });
  return add(Variable(primal), correction);
}

// z in the complement of the unit vector x with P (A - lambda) P z = P g, P = 1 - x x^H.
T complement_solve(const krylov::LinearOperator& a, const T& x, double lambda, const T& g,
                   const krylov::SolveOptions& options) {
  const bool cplx = is_complex(x.dtype());
  const T xf = flat(x);
  const auto project = [xf, cplx](const T& v) {
    const T vf = flat(v);
    const T c = tenferro::einsum("n,n->", {cplx ? prims::conj(xf) : xf, vf});
    return prims::reshape(vf - c * xf, v.shape());
  };
  const krylov::LinearOperator shifted = [a, project, lambda](const T& z) {
    const T pz = project(z);
    return project(a(pz) - prims::scale(pz, lambda));
  };
  // The tolerance is relative to g, not to P g: when g lies along x up to rounding (the
  // gradient of <x|H|x>, of |x|^2, a tangent dA proportional to A), P g is rounding noise whose
  // solve is both meaningless and, relative to itself, out of reach; its answer is 0 to within
  // rtol ||g||, the accuracy asked of every other cotangent.
  krylov::SolveOptions o = without_start(options);
  const double g_norm = prims::cast(prims::norm(g), DType::F64).download().at<double>({});
  o.atol = std::max(o.atol, o.rtol * g_norm);
  return project(krylov::gmres(shifted, project(g), o).x);
}

}  // namespace

EigshVariables eigsh(const VariableOperator& a, const EagerTensor& v0,
                     const krylov::EigOptions& options,
                     const krylov::SolveOptions& derivative_solve, bool vectors) {
  const krylov::LinearOperator plain = untracked(a);
  EigshVariables out;
  out.primal = krylov::eigsh(plain, v0, options);
  for (std::size_t i = 0; i < out.primal.eigenvectors.size(); ++i) {
    const T x = out.primal.eigenvectors[i];
    const double lambda = out.primal.eigenvalues[i];
    const Variable y = a(Variable(x));  // tracks the captured parameters
    const Variable yf = reshape(y, Shape{x.numel()});
    const T xf = flat(x);
    const T xc = is_complex(x.dtype()) ? prims::conj(xf) : xf;
    Variable rq = einsum("n,n->", {Variable(xc), yf});
    out.eigenvalues.push_back(is_complex(x.dtype()) ? real(rq) : rq);
    if (!vectors) {
      out.eigenvectors.emplace_back(x);
      continue;
    }
    const Variable r = reshape(sub(yf, Variable(prims::scale(xf, lambda))), x.shape());
    // x = x* - (A - lambda)^+ P r: the map is Hermitian, so both rules are the same solve.
    const auto solve = [plain, x, lambda, derivative_solve, i](const T& g) {
      try {
        return prims::neg(complement_solve(plain, x, lambda, g, derivative_solve));
      } catch (const Error& e) {
        if (e.kind() != ErrorKind::Numerical) throw;
        throw_error(ErrorKind::Numerical, ErrorPhase::Execute, "krylov.eigsh",
                    "the derivative of eigenvector " + std::to_string(i) + " (eigenvalue " +
                        krylov_internal::scientific(lambda) + ") was not found to rtol " +
                        krylov_internal::scientific(derivative_solve.rtol) +
                        ": either the eigenvalue is degenerate or nearly so (an eigenvector of a "
                        "degenerate eigenspace has no derivative: differentiate the eigenvalues "
                        "alone, return_eigenvectors=False / vectors=false, or a function of the "
                        "whole eigenspace), or that tolerance is beyond the dtype's precision "
                        "(pass a looser derivative_solve) (" +
                        e.what() + ")");
      }
    };
    out.eigenvectors.push_back(corrected("krylov.eigsh", x, r, solve, solve));
  }
  return out;
}

namespace {

using Solver = std::function<krylov::SolveResult(const krylov::LinearOperator&, const T&,
                                                 const krylov::SolveOptions&)>;

// x* = solve(A, b), recorded as x* + A^{-1}(b - A x*): `solve` with A for tangents, with the
// adjoint operator (when there is one) for cotangents.
Variable linear_solve(std::string op, const Solver& solver, const VariableOperator& a,
                      const Variable& b, const krylov::SolveOptions& options,
                      const krylov::LinearOperator& adjoint) {
  const krylov::LinearOperator plain = untracked(a);
  const T x = solver(plain, b.value(), options).x;
  const Variable r = sub(b, a(Variable(x)));
  const krylov::SolveOptions o = without_start(options);
  const auto solve = [solver, plain, o](const T& g) { return solver(plain, g, o).x; };
  const auto adjoint_solve = [solver, adjoint, o, op](const T& g) {
    if (!adjoint) {
      throw_error(ErrorKind::Unsupported, ErrorPhase::Input, op,
                  "reverse mode needs the adjoint operator x -> A^H x: pass it as `adjoint` "
                  "(forward mode needs only A)");
    }
    return solver(adjoint, g, o).x;
  };
  return corrected(std::move(op), x, r, solve, adjoint_solve);
}

}  // namespace

Variable cg(const VariableOperator& a, const Variable& b, const krylov::SolveOptions& options) {
  // Hermitian: A is its own adjoint.
  return linear_solve("krylov.cg", krylov::cg, a, b, options, untracked(a));
}

Variable gmres(const VariableOperator& a, const Variable& b, const krylov::SolveOptions& options,
               const VariableOperator& adjoint) {
  return linear_solve("krylov.gmres", krylov::gmres, a, b, options,
                      adjoint ? untracked(adjoint) : krylov::LinearOperator{});
}

}  // namespace tenferro::ad
