// VJP/JVP rules of the factorisations qr (reduced, m >= n) and cholesky.
//
// qr, A = Q R, m >= n (PyTorch's linalg_qr_backward; JAX's qr_jvp_rule):
//   VJP: gA = [gQ + Q copyltu(triu(gR R^H - Q^H gQ))] R^-H, copyltu(X) = X + X^H - Re diag(X)
//   JVP: B = Q^H dA R^-1, O = tril(B, -1) - tril(B, -1)^H + i Im diag(B),
//        dQ = Q (O - B) + dA R^-1, dR = (B - O) R
// cholesky, A = L L^H (Murray 2016, arXiv:1602.07527; PyTorch's cholesky_backward):
//   VJP: gA = L^-H Phi(L^H gL) L^-1 with Phi(X) = (tril(X) + tril(X, -1)^H) / 2
//   JVP: dL = L Psi(L^-1 dA L^-H), Psi(X) = tril(X, -1) + diag(X) / 2
#include "ad/helpers.hpp"
#include "ad/tape.hpp"
#include "tenferro/runtime/errors.hpp"

namespace tenferro::ad {
namespace {
using T = EagerTensor;

// X R^-1 and X R^-H for upper-triangular R, through triangular_solve (no inverse formed).
T right_solve_upper(const T& x, const T& r, linalg::TriangularOp op) {
  linalg::TriangularSolveOptions o;
  o.lower = false;
  o.left = false;
  o.transpose = op;
  return linalg::triangular_solve(r, x, o);
}

T imag_diag_i(const T& b) {
  // i Im diag(B) as a diagonal matrix: (B - B^H) / 2 restricted to the diagonal.
  return diag_embed(prims::scale(diag_part(prims::sub(b, adjoint(b))), 0.5));
}
}  // namespace

QrVariables qr(const Variable& a) {
  const std::int64_t m = a.shape()[0], n = a.shape()[1];
  if (m < n) {
    throw_error(ErrorKind::Unsupported, ErrorPhase::Input, "ad.qr",
                "the QR rule covers m >= n (got " + std::to_string(m) + " x " + std::to_string(n) +
                    "); wide matrices are not differentiable yet");
  }
  auto res = linalg::qr(a.value());
  T q = res.q, r = res.r;
  const bool cplx = is_complex(a.dtype());
  const std::int64_t rank = a.rank();
  auto outs = record(
      "qr", std::span<const Variable>(&a, 1), {q, r},
      [q, r, n, rank](std::span<const T> g, const std::vector<bool>&) {
        T x = g[1].defined() ? matmul(g[1], adjoint(r)) : T();
        if (g[0].defined()) {
          T qhgq = matmul(adjoint(q), g[0]);
          x = x.defined() ? prims::sub(x, qhgq) : prims::neg(qhgq);
        }
        x = prims::mul(x, triu_mask(x, n, 0, rank));
        T d = diag_part(x);
        T sym = prims::sub(prims::add(x, adjoint(x)),
                           diag_embed(is_complex(d.dtype()) ? prims::real(d) : d));
        T ga = matmul(q, sym);
        if (g[0].defined()) ga = prims::add(ga, g[0]);
        return std::vector<T>{right_solve_upper(ga, r, linalg::TriangularOp::ConjugateTranspose)};
      },
      [q, r, n, rank, cplx](std::span<const T> t) {
        T dar = right_solve_upper(t[0], r, linalg::TriangularOp::None);
        T b = matmul(adjoint(q), dar);
        T low = prims::mul(b, tril_mask(b, n, 1, rank));
        T o = prims::sub(low, adjoint(low));
        if (cplx) o = prims::add(o, imag_diag_i(b));
        T dq = prims::add(matmul(q, prims::sub(o, b)), dar);
        T dr = matmul(prims::sub(b, o), r);
        return std::vector<T>{dq, dr};
      });
  return {outs[0], outs[1]};
}

Variable cholesky(const Variable& a) {
  T l = linalg::cholesky(a.value());
  const std::int64_t n = a.shape()[0], rank = a.rank();
  return record1(
      "cholesky", std::span<const Variable>(&a, 1), l,
      [l, n, rank](std::span<const T> g, const std::vector<bool>&) {
        T x = prims::mul(matmul(adjoint(l), g[0]), tril_mask(l, n, 0, rank));
        T strict = prims::mul(x, tril_mask(l, n, 1, rank));
        T phi = prims::scale(prims::add(x, adjoint(strict)), 0.5);
        // L^-H Phi L^-1: a left solve with L^H, then a right solve with L.
        linalg::TriangularSolveOptions left;
        left.lower = true;
        left.transpose = linalg::TriangularOp::ConjugateTranspose;
        T y = linalg::triangular_solve(l, phi, left);
        linalg::TriangularSolveOptions right;
        right.lower = true;
        right.left = false;
        return std::vector<T>{linalg::triangular_solve(l, y, right)};
      },
      [l, n, rank](std::span<const T> t) {
        linalg::TriangularSolveOptions left;
        left.lower = true;
        T y = linalg::triangular_solve(l, t[0], left);  // L^-1 dA
        linalg::TriangularSolveOptions right;
        right.lower = true;
        right.left = false;
        right.transpose = linalg::TriangularOp::ConjugateTranspose;
        T x = linalg::triangular_solve(l, y, right);  // L^-1 dA L^-H
        T psi = prims::add(prims::mul(x, tril_mask(x, n, 1, rank)),
                           prims::scale(prims::mul(x, eye_batched(x, n, rank)), 0.5));
        return std::vector<T>{matmul(l, psi)};
      });
}

}  // namespace tenferro::ad
