// VJP/JVP rules of the spectral decompositions eigh and (thin) svd.
//
// eigh, A = V diag(w) V^H (Hermitian A), with F_ij = 1/(w_j - w_i) off the diagonal, 0 on it:
//   JVP: C = V^H dA V, dw = Re diag(C), dV = V (F o C)
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
        T c = matmul(matmul(adjoint(v), t[0]), v);
        T d = diag_part(c);
        T dw = is_complex(d.dtype()) ? prims::real(d) : prims::contiguous(d);
        T dv = matmul(v, prims::mul(inverse_gaps(w, eps), c));
        return std::vector<T>{dw, dv};
      });
  return {outs[0], outs[1]};
}

SvdVariables svd(const Variable& a, SpectralAdOptions ad) {
  auto res = linalg::svd(a.value());
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

}  // namespace tenferro::ad
