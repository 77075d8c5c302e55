// VJP/JVP rules of the factorisations qr (reduced, tall and wide; complete) and cholesky.
//
// qr, A = Q R (reduced; complete mode adds the complement of Q, ad/complement.hpp), m >= n
// (PyTorch's linalg_qr_backward; JAX's qr_jvp_rule):
//   VJP: gA = [gQ + Q copyltu(triu(gR R^H - Q^H gQ))] R^-H, copyltu(X) = X + X^H - Re diag(X)
//   JVP: B = Q^H dA R^-1, O = tril(B, -1) - tril(B, -1)^H + i Im diag(B),
//        dQ = Q (O - B) + dA R^-1, dR = (B - O) R
// cholesky, A = L L^H (Murray 2016, arXiv:1602.07527; PyTorch's cholesky_backward):
//   VJP: gA = herm(L^-H Phi(L^H gL) L^-1) with Phi(X) = (tril(X) + tril(X, -1)^H) / 2
//   JVP: dL = L Psi(L^-1 herm(dA) L^-H), Psi(X) = tril(X, -1) + diag(X) / 2
// with herm(X) = (X + X^H) / 2: the gradient is the Hermitian one (docs/ad.md; the bare
// formula's diagonal keeps imaginary parts for complex A) and the JVP reads the tangent's
// Hermitian part, so that the two are adjoint for any tangent (an adversarial sweep found a
// non-Hermitian complex gradient and a JVP that was neither).
#include "ad/complement.hpp"
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

namespace {

// The tall (m >= n) QR rules on Q [m, n], R [n, n]; undefined cotangents count as zero.
T qr_tall_vjp(const T& q, const T& r, const T& gq, const T& gr) {
  const std::int64_t n = r.shape()[0], rank = r.rank();
  T x = gr.defined() ? matmul(gr, adjoint(r)) : T();
  if (gq.defined()) {
    T qhgq = matmul(adjoint(q), gq);
    x = x.defined() ? prims::sub(x, qhgq) : prims::neg(qhgq);
  }
  x = prims::mul(x, triu_mask(x, n, 0, rank));
  T d = diag_part(x);
  T sym =
      prims::sub(prims::add(x, adjoint(x)), diag_embed(is_complex(d.dtype()) ? prims::real(d) : d));
  T ga = matmul(q, sym);
  if (gq.defined()) ga = prims::add(ga, gq);
  return right_solve_upper(ga, r, linalg::TriangularOp::ConjugateTranspose);
}

std::pair<T, T> qr_tall_jvp(const T& q, const T& r, const T& da) {
  const std::int64_t n = r.shape()[0], rank = r.rank();
  T dar = right_solve_upper(da, r, linalg::TriangularOp::None);
  T b = matmul(adjoint(q), dar);
  T low = prims::mul(b, tril_mask(b, n, 1, rank));
  T o = prims::sub(low, adjoint(low));
  if (is_complex(b.dtype())) o = prims::add(o, imag_diag_i(b));
  return {prims::add(matmul(q, prims::sub(o, b)), dar), matmul(prims::sub(b, o), r)};
}

// The reduced rule, recorded on a reduced factorisation `res` of a's value.
QrVariables qr_reduced(const Variable& a, const linalg::QrResult& res) {
  const T q = res.q, r = res.r;
  const std::int64_t m = a.shape()[0], n = a.shape()[1];
  if (m >= n) {
    auto outs = record(
        "qr", std::span<const Variable>(&a, 1), {q, r},
        [q, r](std::span<const T> g, const std::vector<bool>&) {
          return std::vector<T>{qr_tall_vjp(q, r, g[0], g[1])};
        },
        [q, r](std::span<const T> t) {
          auto [dq, dr] = qr_tall_jvp(q, r, t[0]);
          return std::vector<T>{dq, dr};
        });
    return {outs[0], outs[1]};
  }
  // Wide: A = [X | Y] with X square, so Q R1 = X is a square QR and R2 = Q^H Y.
  //   JVP: (dQ, dR1) from the square rule on dX; dR2 = dQ^H Y + Q^H dY
  //   VJP: gX = square VJP with gQ + Y gR2^H and gR1; gY = Q gR2
  // (PyTorch's linalg_qr_backward for m < n.)
  const T y = columns(a.value(), m, n), r1 = columns(r, 0, m);
  auto outs = record(
      "qr", std::span<const Variable>(&a, 1), {q, r},
      [q, r1, y, m, n](std::span<const T> g, const std::vector<bool>&) {
        T gq = g[0], gr1, gy;
        if (g[1].defined()) {
          const T gr2 = columns(g[1], m, n);
          gr1 = columns(g[1], 0, m);
          gq = add_opt(gq, matmul(y, adjoint(gr2)));
          gy = matmul(q, gr2);
        } else {
          gy = prims::zeros(q.runtime(), q.dtype(), y.shape());
        }
        const T parts[] = {qr_tall_vjp(q, r1, gq, gr1), gy};
        return std::vector<T>{prims::concatenate(parts, 1)};
      },
      [q, r1, y, m, n](std::span<const T> t) {
        auto [dq, dr1] = qr_tall_jvp(q, r1, columns(t[0], 0, m));
        const T dr2 = prims::add(matmul(adjoint(dq), y), matmul(adjoint(q), columns(t[0], m, n)));
        const T parts[] = {dr1, dr2};
        return std::vector<T>{dq, prims::concatenate(parts, 1)};
      });
  return {outs[0], outs[1]};
}

}  // namespace

QrVariables qr(const Variable& a) {
  return qr_reduced(a, linalg::qr(a.value()));
}

QrVariables qr(const Variable& a, const linalg::QrOptions& options) {
  if (options.gauge != linalg::QrGauge::Raw) {
    throw_error(ErrorKind::Unsupported, ErrorPhase::Input, "ad.qr",
                "the QR rule covers the Raw gauge only");
  }
  const std::int64_t m = a.shape()[0], n = a.shape()[1];
  if (options.mode == linalg::QrMode::Reduced || m <= n)
    return qr_reduced(a, linalg::qr(a.value()));
  // Complete and tall: Q = [Q1 | Q_perp], R = [R1; 0]. The reduced rule on (Q1, R1), Q_perp as
  // the orthogonal complement of Q1 (rules_linalg_complement.cpp) and constant zero rows of R.
  const linalg::QrResult full = linalg::qr(a.value(), options);
  const linalg::QrResult thin{prims::contiguous(columns(full.q, 0, n)),
                              prims::contiguous(rows(full.r, 0, n))};
  QrVariables outs = qr_reduced(a, thin);
  outs.q = complete_columns(outs.q, prims::contiguous(columns(full.q, n, m)));
  const Variable r_parts[] = {outs.r, Variable(prims::contiguous(rows(full.r, n, m)))};
  outs.r = concatenate(r_parts, 0);
  return outs;
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
        return std::vector<T>{hermitian_part(linalg::triangular_solve(l, y, right))};
      },
      [l, n, rank](std::span<const T> t) {
        linalg::TriangularSolveOptions left;
        left.lower = true;
        T y = linalg::triangular_solve(l, hermitian_part(t[0]), left);  // L^-1 herm(dA)
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
