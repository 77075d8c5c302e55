// The extra columns X_perp of a complete basis [X | X_perp] (U of svd with full_matrices, Q of
// complete qr) are defined only up to X_perp -> X_perp W with W unitary: a loss that is well
// defined depends on them only through the projector X_perp X_perp^H = I - X X^H. So they get
// a rule as a function of the thin X, and the thin rule does the rest.
//
// VJP (cotangents with the convention of docs/ad.md, dL = Re tr(G^H dX)): a gauge-invariant loss
// L(P) of P = X_perp X_perp^H with H = G_P + G_P^H has G_perp = H X_perp and, through P = I - X
// X^H, a cotangent -H X on X. A thin rule reads its X cotangent only through the anti-Hermitian
// part of X^H G (the Hermitian part, -X^H H X here, is a change of X that leaves its span and
// column norms alone) and the part (I - X X^H) G = -X_perp X_perp^H H X = -X_perp G_perp^H X. Hence
//   G_X += -X_perp (G_perp^H X).
// PyTorch drops this term (its gradient is wrong for losses of the complement); the tests in
// tests/ad/ad_linalg_test.cpp fail without it.
// JVP: differentiating X^H X_perp = 0 gives X^H dX_perp = -dX^H X_perp; in the gauge X_perp^H
// dX_perp = 0 (which keeps X_perp^H X_perp = I to first order),
//   dX_perp = -X (dX^H X_perp),
// the exact adjoint of the VJP above: Re<G_perp, -X dX^H X_perp> = Re<-X_perp G_perp^H X, dX>.
// For rows (Vh of a full SVD: V = Vh^H, V_perp = Vh_perp^H) the same two lines read
//   G_Vh += -(Vh G_Vh_perp^H) Vh_perp,   dVh_perp = -(Vh_perp dVh^H) Vh.
#include "ad/complement.hpp"

#include "ad/helpers.hpp"
#include "ad/tape.hpp"

namespace tenferro::ad {
namespace {
using T = EagerTensor;
}  // namespace

EagerTensor columns(const EagerTensor& x, std::int64_t from, std::int64_t to) {
  const prims::Slice s[] = {{}, {from, to, 1}};
  return prims::slice(x, s);
}

EagerTensor rows(const EagerTensor& x, std::int64_t from, std::int64_t to) {
  const prims::Slice s[] = {{from, to, 1}};
  return prims::slice(x, s);
}

Variable complete_columns(const Variable& x, const EagerTensor& x_perp) {
  const T xv = x.value();
  const Variable perp = record1(
      "orthogonal_complement", std::span<const Variable>(&x, 1), x_perp,
      [xv, x_perp](std::span<const T> g, const std::vector<bool>&) {
        return std::vector<T>{prims::neg(matmul(x_perp, matmul(adjoint(g[0]), xv)))};
      },
      [xv, x_perp](std::span<const T> t) {
        return std::vector<T>{prims::neg(matmul(xv, matmul(adjoint(t[0]), x_perp)))};
      });
  const Variable parts[] = {x, perp};
  return concatenate(parts, 1);
}

Variable complete_rows(const Variable& xh, const EagerTensor& xh_perp) {
  const T xv = xh.value();
  const Variable perp = record1(
      "orthogonal_complement", std::span<const Variable>(&xh, 1), xh_perp,
      [xv, xh_perp](std::span<const T> g, const std::vector<bool>&) {
        return std::vector<T>{prims::neg(matmul(matmul(xv, adjoint(g[0])), xh_perp))};
      },
      [xv, xh_perp](std::span<const T> t) {
        return std::vector<T>{prims::neg(matmul(matmul(xh_perp, adjoint(t[0])), xv))};
      });
  const Variable parts[] = {xh, perp};
  return concatenate(parts, 0);
}

}  // namespace tenferro::ad
