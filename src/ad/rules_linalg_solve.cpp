// VJP/JVP rules of solve, inv, det and slogdet (Giles 2008, "An extended collection of matrix
// derivative results for forward and reverse mode AD").
//   solve X = A^-1 B:  dX = A^-1 (dB - dA X);        gB = A^-H gX, gA = -gB X^H
//   inv   Y = A^-1:    dY = -Y dA Y;                 gA = -Y^H gY Y^H
//   det   d = det A:   dd = d tr(A^-1 dA);           gA = g conj(d) A^-H
//   slogdet: tau = tr(A^-1 dA); d logabsdet = Re tau; d sign = i sign Im tau;
//            gA = (g_logabs + i Re(conj(g_sign) i sign)) A^-H  (the sign term for complex A)
// det and slogdet go through A^-1: a singular A is a Numerical error, never a silent zero.
#include "ad/helpers.hpp"
#include "ad/tape.hpp"

namespace tenferro::ad {
namespace {
using T = EagerTensor;

// tr(A^-1 dA) over the batch, [batch...].
T trace_solve(const T& a, const T& da) {
  return prims::sum(diag_part(linalg::solve(a, da)), prims::Axes{0});
}
// v [batch...] as [1, 1, batch...], to scale matrices.
T as_scalar_batch(const T& v) {
  Shape s = v.shape();
  s.insert(s.begin(), {1, 1});
  return reshape_any(v, s);
}
}  // namespace

Variable solve(const Variable& a, const Variable& b) {
  const bool vec = b.rank() == a.rank() - 1;
  T av = a.value(), x = linalg::solve(av, b.value());
  // A vector right-hand side is handled as an n x 1 matrix.
  const auto as_mat = [vec](const T& v) { return vec ? as_col(v) : v; };
  const auto as_vec = [vec](const T& v, const Shape& s) { return vec ? reshape_any(v, s) : v; };
  const Shape bshape = b.shape();
  const Variable in[] = {a, b};
  return record1(
      "solve", in, x,
      [av, x, as_mat, as_vec, bshape](std::span<const T> g, const std::vector<bool>&) {
        T gb = linalg::solve(adjoint(av), g[0]);
        T ga = prims::neg(matmul(as_mat(gb), adjoint(as_mat(x))));
        return std::vector<T>{ga, as_vec(gb, bshape)};
      },
      [av, x, as_mat, as_vec, bshape](std::span<const T> t) {
        T rhs = t[1].defined() ? as_mat(t[1]) : T();
        if (t[0].defined()) {
          T dax = matmul(t[0], as_mat(x));
          rhs = rhs.defined() ? prims::sub(rhs, dax) : prims::neg(dax);
        }
        return std::vector<T>{as_vec(linalg::solve(av, rhs), bshape)};
      });
}

Variable inv(const Variable& a) {
  T y = linalg::inv(a.value());
  return record1(
      "inv", std::span<const Variable>(&a, 1), y,
      [y](std::span<const T> g, const std::vector<bool>&) {
        T yh = adjoint(y);
        return std::vector<T>{prims::neg(matmul(matmul(yh, g[0]), yh))};
      },
      [y](std::span<const T> t) { return std::vector<T>{prims::neg(matmul(matmul(y, t[0]), y))}; });
}

Variable det(const Variable& a) {
  T av = a.value(), d = linalg::det(av);
  return record1(
      "det", std::span<const Variable>(&a, 1), d,
      [av, d](std::span<const T> g, const std::vector<bool>&) {
        T c = prims::mul(g[0], is_complex(d.dtype()) ? prims::conj(d) : d);
        return std::vector<T>{prims::mul(as_scalar_batch(c), adjoint(linalg::inv(av)))};
      },
      [av, d](std::span<const T> t) {
        return std::vector<T>{prims::mul(d, trace_solve(av, t[0]))};
      });
}

SlogdetVariables slogdet(const Variable& a) {
  T av = a.value();
  auto res = linalg::slogdet(av);
  T sign = res.sign, logabs = res.logabsdet;
  const bool cplx = is_complex(av.dtype());
  auto outs = record(
      "slogdet", std::span<const Variable>(&a, 1), {sign, logabs},
      [av, sign, cplx](std::span<const T> g, const std::vector<bool>&) {
        T x = g[1].defined() ? g[1] : T();
        if (cplx && g[0].defined()) {
          // i Re(conj(g_sign) i sign) = i * (-Im(conj(g_sign) sign)).
          T c = prims::neg(prims::imag(prims::mul(prims::conj(g[0]), sign)));
          x = add_opt(x.defined() ? to_dtype(x, av.dtype()) : T(), times_i(c));
        }
        if (!x.defined()) return std::vector<T>{T()};
        return std::vector<T>{prims::mul(as_scalar_batch(x), adjoint(linalg::inv(av)))};
      },
      [av, sign, cplx](std::span<const T> t) {
        T tau = trace_solve(av, t[0]);
        if (!cplx)
          return std::vector<T>{prims::zeros(sign.runtime(), sign.dtype(), sign.shape()), tau};
        T dsign = prims::mul(sign, times_i(prims::imag(tau)));
        return std::vector<T>{dsign, prims::real(tau)};
      });
  return {outs[0], outs[1]};
}

}  // namespace tenferro::ad
