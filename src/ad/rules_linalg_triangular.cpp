// VJP/JVP rules of triangular_solve and lu.
//
// triangular_solve with M = op(tri(A)) (the triangle read, with a unit diagonal when asked):
//   left  X = M^-1 B:  dX = M^-1 (dB - dM X),  gB = M^-H gX,  gM = -gB X^H
//   right X = B M^-1:  dX = (dB - X dM) M^-1,  gB = gX M^-H,  gM = -X^H gB
//   and gA = the triangle of op^-1(gM) (the other triangle, and a unit diagonal, are not read).
// lu, A = P L U for square A (P is piecewise constant: no derivative):
//   JVP: F = L^-1 P^T dA U^-1, dL = L tril(F, -1), dU = triu(F) U
//   VJP: gA = P L^-H (tril(L^H gL, -1) + triu(gU U^H)) U^-H
// (Giles 2008; de Hoog, Anderssen & Lukas 2011 for LU; the same as PyTorch's lu rules.)
#include "ad/helpers.hpp"
#include "ad/tape.hpp"
#include "tenferro/runtime/errors.hpp"

namespace tenferro::ad {
namespace {
using T = EagerTensor;
using linalg::TriangularOp;

T apply_op(const T& x, TriangularOp op) {
  switch (op) {
    case TriangularOp::None:
      return x;
    case TriangularOp::Transpose:
      return mtranspose(x);
    case TriangularOp::ConjugateTranspose:
      break;
  }
  return adjoint(x);
}
// op^-1 of apply_op (each op is an involution).
T undo_op(const T& x, TriangularOp op) {
  return apply_op(x, op);
}

// The entries of A that triangular_solve reads: its triangle, without the diagonal when unit.
T read_mask(const T& a, const linalg::TriangularSolveOptions& o) {
  const std::int64_t n = a.shape()[0];
  const std::int64_t k = o.unit_diagonal ? 1 : 0;
  return o.lower ? tril_mask(a, n, k, a.rank()) : triu_mask(a, n, k, a.rank());
}

linalg::TriangularSolveOptions solve_with(bool lower, bool left, TriangularOp op) {
  linalg::TriangularSolveOptions o;
  o.lower = lower;
  o.left = left;
  o.transpose = op;
  return o;
}
}  // namespace

Variable triangular_solve(const Variable& a, const Variable& b,
                          const linalg::TriangularSolveOptions& options) {
  const T av = a.value();
  const T x = linalg::triangular_solve(av, b.value(), options);
  const std::int64_t n = av.shape()[0];
  // M = op(tri(A)) as a dense matrix, triangular on the side `lower_m` says.
  T tri = prims::mul(av, read_mask(av, options));
  if (options.unit_diagonal) tri = prims::add(tri, eye_batched(av, n, av.rank()));
  const T m = apply_op(tri, options.transpose);
  const bool lower_m = options.transpose == TriangularOp::None ? options.lower : !options.lower;
  const bool vec = b.rank() == a.rank() - 1;
  const bool left = options.left;
  const auto as_mat = [vec, left](const T& v) { return !vec ? v : (left ? as_col(v) : as_row(v)); };
  const Shape bshape = b.shape();
  const Variable in[] = {a, b};
  return record1(
      "triangular_solve", in, x,
      [=](std::span<const T> g, const std::vector<bool>&) {
        const T gx = as_mat(g[0]), xm = as_mat(x);
        const T gb = linalg::triangular_solve(
            m, gx, solve_with(lower_m, left, TriangularOp::ConjugateTranspose));
        const T gm =
            left ? prims::neg(matmul(gb, adjoint(xm))) : prims::neg(matmul(adjoint(xm), gb));
        const T ga = prims::mul(undo_op(gm, options.transpose), read_mask(av, options));
        return std::vector<T>{ga, reshape_any(gb, bshape)};
      },
      [=](std::span<const T> t) {
        const T xm = as_mat(x);
        T rhs = t[1].defined() ? as_mat(t[1]) : T();
        if (t[0].defined()) {
          const T dm = apply_op(prims::mul(t[0], read_mask(av, options)), options.transpose);
          const T term = left ? matmul(dm, xm) : matmul(xm, dm);
          rhs = rhs.defined() ? prims::sub(rhs, term) : prims::neg(term);
        }
        return std::vector<T>{reshape_any(
            linalg::triangular_solve(m, rhs, solve_with(lower_m, left, TriangularOp::None)),
            x.shape())};
      });
}

LuVariables lu(const Variable& a) {
  if (a.shape()[0] != a.shape()[1]) {
    throw_error(ErrorKind::Unsupported, ErrorPhase::Input, "ad.lu",
                "the LU rule covers square matrices (got " + shape_to_string(a.shape()) + ")");
  }
  auto res = linalg::lu(a.value());
  const T p = res.p, l = res.l, u = res.u;
  const std::int64_t n = a.shape()[0], rank = a.rank();
  linalg::TriangularSolveOptions unit_lower;
  unit_lower.lower = true;
  unit_lower.unit_diagonal = true;
  auto outs = record(
      "lu", std::span<const Variable>(&a, 1), {p, l, u},
      [=](std::span<const T> g, const std::vector<bool>&) {
        T inner;
        if (g[1].defined()) inner = prims::mul(matmul(adjoint(l), g[1]), tril_mask(l, n, 1, rank));
        if (g[2].defined())
          inner = add_opt(inner, prims::mul(matmul(g[2], adjoint(u)), triu_mask(u, n, 0, rank)));
        if (!inner.defined()) return std::vector<T>{T()};
        // L^-H inner, then (.) U^-H, then P (.).
        linalg::TriangularSolveOptions lh = unit_lower;
        lh.transpose = TriangularOp::ConjugateTranspose;
        T y = linalg::triangular_solve(l, inner, lh);
        y = linalg::triangular_solve(u, y,
                                     solve_with(false, false, TriangularOp::ConjugateTranspose));
        return std::vector<T>{matmul(p, y)};
      },
      [=](std::span<const T> t) {
        T f = linalg::triangular_solve(l, matmul(mtranspose(p), t[0]), unit_lower);
        f = linalg::triangular_solve(u, f, solve_with(false, false, TriangularOp::None));
        const T dl = matmul(l, prims::mul(f, tril_mask(f, n, 1, rank)));
        const T du = matmul(prims::mul(f, triu_mask(f, n, 0, rank)), u);
        return std::vector<T>{prims::zeros(p.runtime(), p.dtype(), p.shape()), dl, du};
      });
  return {outs[0], outs[1], outs[2]};
}

}  // namespace tenferro::ad
