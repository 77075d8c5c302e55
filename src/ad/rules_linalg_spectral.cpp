// VJP/JVP rules of the spectral decompositions eigh and svd (thin, truncated, full_matrices).
//
// eigh, A = V diag(w) V^H (Hermitian A), with F_ij = 1/(w_j - w_i) off the diagonal, 0 on it:
//   JVP: C = V^H herm(dA) V, dw = Re diag(C), dV = V (F o C), herm(X) = (X + X^H) / 2
//   VJP: gA = V (diag(gw) + F o (X - X^H)/2) V^H with X = V^H gV   (Hermitian gA)
// (Giles 2008, "An extended collection of matrix derivative results"; PyTorch's
// linalg_eig_backward for the Hermitian case.)
//
// svd, A = U diag(s) V^H thin (k = min(m, n)), with F_ij = 1/(s_j^2 - s_i^2) off the diagonal:
//   VJP: gA = U [ (F o (U^H gU - gU^H U)) S + S (F o (V^H gV - gV^H V)) + diag(gs)
//                 + diag(i Im diag(U^H gU) / s) ] V^H
//            + (I - U U^H) gU S^-1 V^H + U S^-1 gV^H (I - V V^H)
//   JVP: dP = U^H dA V, ds = Re diag(dP), dU = U (F o (dP S + S dP^H) + diag(i Im diag(dP) / s))
//        + (I - U U^H) dA V S^-1, dV = V (F o (S dP + dP^H S)) + (I - V V^H) dA^H U S^-1
// (Townsend 2016, "Differentiating the singular value decomposition"; the complex diagonal
// term from Wan & Zhang 2019, arXiv:1909.02659; the same as PyTorch's svd_backward and JAX's
// svd_jvp_rule.) Only gauge-invariant losses have a well-defined gradient in the complex case.
// Lorentzian broadening (Liao et al. 2019, PRX 9, 031041): F_ij -> E_ij / (E_ij^2 + eps).
#include "ad/complement.hpp"
#include "ad/helpers.hpp"
#include "ad/tape.hpp"
#include "tenferro/runtime/errors.hpp"

namespace tenferro::ad {
namespace {
using T = EagerTensor;
}  // namespace

EighVariables eigh(const Variable& a, SpectralAdOptions ad) {
  auto res = linalg::eigh(a.value());
  T w = res.w, v = res.v;
  const double eps = ad.eps;
  auto outs = record(
      "eigh", std::span<const Variable>(&a, 1), {w, v},
      [w, v, eps](std::span<const T> g, const std::vector<bool>&) {
        T inner;
        if (g[1].defined()) {
          T x = matmul(adjoint(v), g[1]);
          x = prims::scale(prims::sub(x, adjoint(x)), 0.5);
          inner = prims::mul(x, inverse_gaps(w, eps));
        }
        if (g[0].defined()) inner = add_opt(inner, diag_embed(g[0]));
        return std::vector<T>{matmul(matmul(v, inner), adjoint(v))};
      },
      [w, v, eps](std::span<const T> t) {
        // The tangent's Hermitian part, as the VJP's gradient is Hermitian: the derivative of
        // eigh((A + A^H) / 2) (JAX's symmetrize_input), so that the JVP is the VJP's adjoint
        // for any tangent. With dA itself a non-Hermitian tangent gave dV matching neither
        // that nor the lower triangle LAPACK reads (an adversarial sweep; PyTorch's likewise).
        T c = matmul(matmul(adjoint(v), hermitian_part(t[0])), v);
        T d = diag_part(c);
        T dw = is_complex(d.dtype()) ? prims::real(d) : prims::contiguous(d);
        T dv = matmul(v, prims::mul(inverse_gaps(w, eps), c));
        return std::vector<T>{dw, dv};
      });
  return {outs[0], outs[1]};
}

namespace {

// x_j = (s_j^2 I - K)^-1 rhs_j for every kept value j at once: K [p, p, batch...] Hermitian
// positive semi-definite, s [r, batch...], rhs [p, r, batch...]. The matrices s_j^2 I - K form
// a batch [p, p, r, batch...] and rhs is that batch's vector right-hand side.
T shifted_solve(const T& k, const T& s, const T& rhs) {
  const std::int64_t p = k.shape()[0];
  Shape ks = k.shape(), ss = s.shape();
  ks.insert(ks.begin() + 2, 1);   // [p, p, 1, batch...]
  ss.insert(ss.begin(), {1, 1});  // [1, 1, r, batch...]
  const T s2 = to_dtype(reshape_any(prims::square(s), ss), k.dtype());
  const T m = prims::sub(prims::mul(s2, eye_batched(k, p, static_cast<std::int64_t>(ks.size()))),
                         reshape_any(k, ks));
  return linalg::solve(m, rhs);
}

// Truncated SVD A = U S V^H + B (B = A - U S V^H, the discarded part; Francuz, Schuch &
// Vanhecke 2023, arXiv:2311.11894, "Stable and efficient differentiation of tensor network
// algorithms"): the kept-kept block is the thin rule without its (I - U U^H), (I - V V^H)
// terms; the coupling of kept value s_j to the discarded subspace replaces them with
//   G_U[:, j] = (s_j^2 - B B^H)^-1 (I - U U^H) gU[:, j],  G_V[:, j] = (s_j^2 - B^H B)^-1 (I - V
//   V^H) gV[:, j] gA += G_U S V^H + U G_U^H B + B G_V V^H + U S G_V^H
// and in the JVP
//   dU += (s_j^2 - B B^H)^-1 ((I - U U^H) dA V S + B dA^H U)[:, j],
//   dV += (s_j^2 - B^H B)^-1 ((I - V V^H) dA^H U S + B^H dA V)[:, j].
// With B = 0 these reduce to the thin rule's (I - U U^H) gU S^-1 V^H terms; they need the kept
// values above the discarded ones (s_j^2 - B B^H invertible), as truncation gives.
SvdVariables svd_truncated(const Variable& a, const linalg::SvdOptions& options,
                           SpectralAdOptions ad) {
  const T av = a.value();
  auto res = linalg::svd(av, options);
  const T u = res.u, s = res.s, vh = res.vh, v = adjoint(vh);
  const T b = prims::sub(av, matmul(prims::mul(u, as_row(s)), vh));
  const T bbh = matmul(b, adjoint(b)), bhb = matmul(adjoint(b), b);
  const double eps = ad.eps;
  const bool cplx = is_complex(av.dtype());
  auto outs = record(
      "svd", std::span<const Variable>(&a, 1), {u, s, vh},
      [=](std::span<const T> g, const std::vector<bool>&) {
        const T f = inverse_gaps(prims::square(s), eps);
        const T gu = g[0], gs = g[1];
        const T gv = g[2].defined() ? adjoint(g[2]) : T();
        T inner, extra;
        if (gu.defined()) {
          const T uhgu = matmul(adjoint(u), gu);
          const T j = prims::sub(uhgu, adjoint(uhgu));
          inner = prims::mul(prims::mul(j, f), as_row(s));
          if (cplx)
            inner = prims::add(inner, diag_embed(prims::div(diag_part(j), prims::scale(s, 2.0))));
          const T gamma = shifted_solve(bbh, s, prims::sub(gu, matmul(u, uhgu)));
          extra = prims::add(matmul(prims::mul(gamma, as_row(s)), vh),
                             matmul(matmul(u, adjoint(gamma)), b));
        }
        if (gv.defined()) {
          const T vhgv = matmul(vh, gv);
          const T kk = prims::sub(vhgv, adjoint(vhgv));
          inner = add_opt(inner, prims::mul(as_col(s), prims::mul(kk, f)));
          const T gamma = shifted_solve(bhb, s, prims::sub(gv, matmul(v, vhgv)));
          extra = add_opt(extra, prims::add(matmul(b, matmul(gamma, vh)),
                                            matmul(prims::mul(u, as_row(s)), adjoint(gamma))));
        }
        if (gs.defined()) inner = add_opt(inner, diag_embed(gs));
        const T ga = inner.defined() ? matmul(matmul(u, inner), vh) : T();
        return std::vector<T>{add_opt(ga, extra)};
      },
      [=](std::span<const T> t) {
        const T da = t[0];
        const T f = inverse_gaps(prims::square(s), eps);
        const T dp = matmul(matmul(adjoint(u), da), v);
        const T d = diag_part(dp);
        const T ds = cplx ? prims::real(d) : prims::contiguous(d);
        const T dss = prims::mul(dp, as_row(s));
        const T sds = prims::mul(as_col(s), dp);
        T cu = prims::mul(f, prims::add(dss, adjoint(dss)));
        if (cplx) {
          const T dd = diag_part(prims::sub(dp, adjoint(dp)));
          cu = prims::add(cu, diag_embed(prims::div(dd, prims::scale(s, 2.0))));
        }
        const T dav = matmul(da, v), dahu = matmul(adjoint(da), u);
        const T ru =
            prims::add(prims::mul(prims::sub(dav, matmul(u, dp)), as_row(s)), matmul(b, dahu));
        const T rv = prims::add(prims::mul(prims::sub(dahu, matmul(v, adjoint(dp))), as_row(s)),
                                matmul(adjoint(b), dav));
        const T du = prims::add(matmul(u, cu), shifted_solve(bbh, s, ru));
        const T dv = prims::add(matmul(v, prims::mul(f, prims::add(sds, adjoint(sds)))),
                                shifted_solve(bhb, s, rv));
        return std::vector<T>{du, ds, adjoint(dv)};
      });
  return {outs[0], outs[1], outs[2]};
}

}  // namespace

SvdVariables svd(const Variable& a, SpectralAdOptions ad) {
  return svd(a, linalg::SvdOptions{}, ad);
}

namespace {

// The thin rule, recorded on a thin factorisation `res` of a's value.
SvdVariables svd_thin(const Variable& a, const linalg::SvdResult& res, SpectralAdOptions ad) {
  T u = res.u, s = res.s, vh = res.vh;
  const std::int64_t m = a.shape()[0], n = a.shape()[1], k = s.shape()[0];
  const double eps = ad.eps;
  const bool cplx = is_complex(a.dtype());
  auto outs = record(
      "svd", std::span<const Variable>(&a, 1), {u, s, vh},
      [u, s, vh, m, n, k, eps, cplx](std::span<const T> g, const std::vector<bool>&) {
        const T v = adjoint(vh);
        const T f = inverse_gaps(prims::square(s), eps);
        const T gu = g[0], gs = g[1];
        const T gv = g[2].defined() ? adjoint(g[2]) : T();
        T inner, extra;
        if (gu.defined()) {
          T uhgu = matmul(adjoint(u), gu);
          T j = prims::sub(uhgu, adjoint(uhgu));
          inner = prims::mul(prims::mul(j, f), as_row(s));
          if (cplx) {
            inner = prims::add(inner, diag_embed(prims::div(diag_part(j), prims::scale(s, 2.0))));
          }
          if (m > k) {
            T perp = prims::sub(gu, matmul(u, uhgu));
            extra = matmul(prims::div(perp, as_row(s)), vh);
          }
        }
        if (gv.defined()) {
          T vhgv = matmul(vh, gv);
          T kk = prims::sub(vhgv, adjoint(vhgv));
          inner = add_opt(inner, prims::mul(as_col(s), prims::mul(kk, f)));
          if (n > k) {
            T perp = prims::sub(gv, matmul(v, vhgv));
            extra = add_opt(extra, matmul(prims::div(u, as_row(s)), adjoint(perp)));
          }
        }
        if (gs.defined()) inner = add_opt(inner, diag_embed(gs));
        T ga = inner.defined() ? matmul(matmul(u, inner), vh) : T();
        return std::vector<T>{add_opt(ga, extra)};
      },
      [u, s, vh, m, n, k, eps, cplx](std::span<const T> t) {
        const T v = adjoint(vh);
        const T da = t[0];
        const T f = inverse_gaps(prims::square(s), eps);
        T dp = matmul(matmul(adjoint(u), da), v);
        T d = diag_part(dp);
        T ds = cplx ? prims::real(d) : prims::contiguous(d);
        T dss = prims::mul(dp, as_row(s));
        T sds = prims::mul(as_col(s), dp);
        T cu = prims::mul(f, prims::add(dss, adjoint(dss)));
        if (cplx) {
          T dd = diag_part(prims::sub(dp, adjoint(dp)));
          cu = prims::add(cu, diag_embed(prims::div(dd, prims::scale(s, 2.0))));
        }
        T du = matmul(u, cu);
        T dv = matmul(v, prims::mul(f, prims::add(sds, adjoint(sds))));
        if (m > k)
          du = prims::add(du, prims::div(prims::sub(matmul(da, v), matmul(u, dp)), as_row(s)));
        if (n > k) {
          dv = prims::add(dv, prims::div(prims::sub(matmul(adjoint(da), u), matmul(v, adjoint(dp))),
                                         as_row(s)));
        }
        return std::vector<T>{du, ds, adjoint(dv)};
      });
  return {outs[0], outs[1], outs[2]};
}

}  // namespace

SvdVariables svd(const Variable& a, const linalg::SvdOptions& options, SpectralAdOptions ad) {
  if (!options.compute_uv || options.gauge != linalg::SvdGauge::Raw) {
    throw_error(ErrorKind::Unsupported, ErrorPhase::Input, "ad.svd",
                "the SVD rule covers compute_uv with the Raw gauge");
  }
  if (options.truncation.active()) return svd_truncated(a, options, ad);
  if (!options.full_matrices) return svd_thin(a, linalg::svd(a.value()), ad);
  // Full matrices: the thin rule on the first k columns of U and rows of Vh, and the extra ones
  // as the orthogonal complement of those (rules_linalg_complement.cpp).
  const linalg::SvdResult full = linalg::svd(a.value(), options);
  const std::int64_t m = a.shape()[0], n = a.shape()[1], k = full.s.shape()[0];
  linalg::SvdResult thin = full;
  thin.u = prims::contiguous(columns(full.u, 0, k));
  thin.vh = prims::contiguous(rows(full.vh, 0, k));
  SvdVariables outs = svd_thin(a, thin, ad);
  if (m > k) outs.u = complete_columns(outs.u, prims::contiguous(columns(full.u, k, m)));
  if (n > k) outs.vh = complete_rows(outs.vh, prims::contiguous(rows(full.vh, k, n)));
  return outs;
}

}  // namespace tenferro::ad
