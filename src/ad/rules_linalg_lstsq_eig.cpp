// VJP/JVP rules of lstsq (full column rank) and eig (general square, complex output).
//
// lstsq for A [m, n] of full column rank (m >= n), X = (A^H A)^-1 A^H B, residual R = B - A X:
//   JVP: dX = (A^H A)^-1 (dA^H R + A^H (dB - dA X))
//   VJP: Y = (A^H A)^-1 gX, gA = R Y^H - A Y X^H, gB = A Y
// and of full row rank (m < n), the minimum-norm X = A^H Y with Y = (A A^H)^-1 B and the
// null-space projector P = I - A^H (A A^H)^-1 A:
//   JVP: dX = P dA^H Y + A^H (A A^H)^-1 (dB - dA X)
//   VJP: Z = (A A^H)^-1 A gX, gA = Y (P gX)^H - Z X^H, gB = Z
// (Golub & Pereyra 1973 for the derivative of the pseudo-inverse; rank-deficient A has no
// derivative where the rank changes and is not covered.)
// eig, A V = V diag(w) with unit-norm columns (Magnus 1985; PyTorch's linalg_eig_backward and
// JAX's eig_jvp_rule), F_ij = 1/(w_j - w_i) off the diagonal:
//   JVP: C = V^-1 dA V, dw = diag(C), dV = V (F o C) - V Re diag(V^H V (F o C))
//   VJP: gA = V^-H (diag(gw) + conj(F) o (V^H gV - V^H V Re diag(V^H gV))) V^H
// Eigenvector losses must be invariant under the columns' phases (e.g. V diag(c) V^-1).
#include "ad/helpers.hpp"
#include "ad/tape.hpp"
#include "tenferro/runtime/errors.hpp"

namespace tenferro::ad {
namespace {
using T = EagerTensor;

// 1/(w_j - w_i) off the diagonal, 0 on it, for complex w (no broadening).
T complex_inverse_gaps(const T& w) {
  const std::int64_t n = w.shape()[0];
  const T e = prims::sub(as_row(w), as_col(w));
  const T eye = eye_batched(e, n, e.rank());
  return prims::sub(prims::reciprocal(prims::add(e, eye)), eye);
}
}  // namespace

namespace {

// Full row rank A (m < n): the minimum-norm X = A^H G^-1 B with G = A A^H.
Variable lstsq_wide(const Variable& a, const Variable& b) {
  const T av = a.value(), bv = b.value();
  const T x = linalg::lstsq(av, bv);
  const bool vec = b.rank() == a.rank() - 1;
  const auto as_mat = [vec](const T& v) { return vec ? as_col(v) : v; };
  const Shape bshape = b.shape(), xshape = x.shape();
  const T gram = matmul(av, adjoint(av));
  const T y = linalg::solve(gram, as_mat(bv));  // X = A^H Y
  const Variable in[] = {a, b};
  return record1(
      "lstsq", in, x,
      [=](std::span<const T> g, const std::vector<bool>&) {
        const T gx = as_mat(g[0]);
        const T z = linalg::solve(gram, matmul(av, gx));
        const T pgx = prims::sub(gx, matmul(adjoint(av), z));  // the null-space part of gX
        const T ga = prims::sub(matmul(y, adjoint(pgx)), matmul(z, adjoint(as_mat(x))));
        return std::vector<T>{ga, reshape_any(z, bshape)};
      },
      [=](std::span<const T> t) {
        // dX = P dA^H Y + A^H G^-1 (dB - dA X), P = I - A^H G^-1 A.
        T rhs = t[1].defined() ? as_mat(t[1]) : T();
        T null_part;
        if (t[0].defined()) {
          const T dax = matmul(t[0], as_mat(x));
          rhs = rhs.defined() ? prims::sub(rhs, dax) : prims::neg(dax);
          const T dahy = matmul(adjoint(t[0]), y);
          null_part = prims::sub(dahy, matmul(adjoint(av), linalg::solve(gram, matmul(av, dahy))));
        }
        const T dx = add_opt(matmul(adjoint(av), linalg::solve(gram, rhs)), null_part);
        return std::vector<T>{reshape_any(dx, xshape)};
      });
}

}  // namespace

Variable lstsq(const Variable& a, const Variable& b) {
  const std::int64_t m = a.shape()[0], n = a.shape()[1];
  if (m < n) return lstsq_wide(a, b);
  const T av = a.value(), bv = b.value();
  const T x = linalg::lstsq(av, bv);
  const bool vec = b.rank() == a.rank() - 1;
  const auto as_mat = [vec](const T& v) { return vec ? as_col(v) : v; };
  const Shape bshape = b.shape(), xshape = x.shape();
  const T gram = matmul(adjoint(av), av);
  const T resid = prims::sub(as_mat(bv), matmul(av, as_mat(x)));
  const Variable in[] = {a, b};
  return record1(
      "lstsq", in, x,
      [=](std::span<const T> g, const std::vector<bool>&) {
        const T y = linalg::solve(gram, as_mat(g[0]));
        const T ga =
            prims::sub(matmul(resid, adjoint(y)), matmul(matmul(av, y), adjoint(as_mat(x))));
        return std::vector<T>{ga, reshape_any(matmul(av, y), bshape)};
      },
      [=](std::span<const T> t) {
        T rhs;
        if (t[1].defined()) rhs = matmul(adjoint(av), as_mat(t[1]));
        if (t[0].defined()) {
          const T term = prims::sub(matmul(adjoint(t[0]), resid),
                                    matmul(adjoint(av), matmul(t[0], as_mat(x))));
          rhs = add_opt(rhs, term);
        }
        return std::vector<T>{reshape_any(linalg::solve(gram, rhs), xshape)};
      });
}

EigVariables eig(const Variable& a) {
  auto res = linalg::eig(a.value());
  const T w = res.w, v = res.v;
  auto outs = record(
      "eig", std::span<const Variable>(&a, 1), {w, v},
      [w, v](std::span<const T> g, const std::vector<bool>&) {
        T inner;
        if (g[1].defined()) {
          const T vhgv = matmul(adjoint(v), g[1]);
          const T re = prims::real(diag_part(vhgv));
          const T x = prims::sub(vhgv, matmul(adjoint(v), prims::mul(v, as_row(re))));
          inner = prims::mul(x, prims::conj(complex_inverse_gaps(w)));
        }
        if (g[0].defined()) inner = add_opt(inner, diag_embed(g[0]));
        return std::vector<T>{linalg::solve(adjoint(v), matmul(inner, adjoint(v)))};
      },
      [w, v](std::span<const T> t) {
        const T c = linalg::solve(v, matmul(t[0], v));
        const T dw = prims::contiguous(diag_part(c));
        T dv = matmul(v, prims::mul(complex_inverse_gaps(w), c));
        const T along = prims::real(diag_part(matmul(adjoint(v), dv)));
        dv = prims::sub(dv, prims::mul(v, as_row(along)));
        return std::vector<T>{dw, dv};
      });
  return {outs[0], outs[1]};
}

}  // namespace tenferro::ad
