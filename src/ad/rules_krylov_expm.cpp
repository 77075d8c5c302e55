// AD through krylov::expm_multiply (declared in tenferro/ad.hpp, explained there).
//
// y = exp(tA) v has the derivative
//   dy = exp(tA) dv + t int_0^1 exp((1-s) tA) dA exp(s tA) v ds,
// where dA is the change of the operator through the Variables it captures. The integral is
// taken by composite Gauss-Legendre quadrature on [0, 1]: at each node s_k the vector
// u_k = exp(s_k tA) v is computed untracked and r_k = a(u_k) is recorded, which carries
// dA u_k to the tape (as eigsh's a(x*) does). y is then recorded as the primal plus a
// zero-valued correction with inputs (r_1 .. r_N, v) whose rules are
//   forward:  sum_k w_k t exp((1-s_k) tA) r_k' + exp(tA) v'
//   reverse:  g -> (w_k conj(t) exp((1-s_k) conj(t) A^H) g)_k  and  exp(conj(t) A^H) g.
// Both are evaluated by chaining short Krylov exponentials between neighbouring nodes (a
// Horner-like sweep from s = 0 up in forward mode, from s = 1 down in reverse mode), so the
// whole rule costs about one exponential over the full span plus one restart per node, not
// one full exponential per node; the reverse sweep's last step gives v's cotangent.
//
// Accuracy of the quadrature. With X = tA, Y = t dA, the integrand
// f(s) = exp((1-s)X) Y exp(sX) v has f^(k)(s) = exp((1-s)X) ad_X^k(Y) exp(sX) v with
// ||ad_X^k(Y)|| <= (2||X||)^k ||Y||. Gauss-Legendre with m nodes on an interval of length h
// errs by at most c_m h^(2m+1) max||f^(2m)||, c_m = (m!)^4 / ((2m+1) ((2m)!)^3) (its Peano
// kernel has one sign, so the bound holds for vector-valued f). Over P equal pieces of [0, 1]
// the total is c_m (2 rho / P)^(2m) times max_s ||exp((1-s)X)|| ||Y|| ||exp(sX) v||, the
// scale of the derivative itself (for normal A, with no growth factor beyond exp(X)'s own),
// with rho = |t| ||A||. The rule takes the fewest nodes m <= 16 per piece, and the fewest
// pieces P, such that c_m (2 rho / P)^(2m) <= tol, the ExpmOptions tolerance (0: 100 eps of
// the working dtype). ||A|| is estimated by 12 power steps from a fixed random vector (the
// largest ||A w|| / ||w|| seen, a lower bound that tends to the spectral radius), taken 1.5
// times for safety: the bound is an a-priori estimate, not a guarantee, for operators whose
// norm the power steps underestimate badly or that are far from normal. In practice it is
// pessimistic: in tests/krylov/ad_test.cpp (n = 30, |t| ||A|| from 1.3 to 25) planning for
// sqrt(tol) instead of tol still gave 1e-9 relative errors; planning for 1e-2 gave 1e-4..1e-6.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <limits>
#include <numbers>
#include <string>
#include <utility>
#include <vector>

#include "ad/krylov_operator.hpp"
#include "ad/tape.hpp"
#include "ops/krylov/vector_space.hpp"
#include "tenferro/prims.hpp"

namespace tenferro::ad {
namespace {

using T = EagerTensor;
using cplx = std::complex<double>;

constexpr int kMaxNodesPerPiece = 16;
constexpr int kPowerSteps = 12;
constexpr double kNormSafety = 1.5;

// An estimate of ||A||: the largest ||A w|| / ||w|| over a few power steps from a fixed random
// vector, each norm one counted scalar read (RuntimeStats::scalar_reads), as in the solvers.
double norm_estimate(const krylov::LinearOperator& a, const T& like) {
  krylov_internal::VectorSpace space("krylov.expm_multiply", a, like, like.dtype());
  T w = space.random_vector(0x5eed);
  double nw = space.norm(w);
  double est = 0;
  for (int k = 0; k < kPowerSteps && nw > 0; ++k) {
    const T aw = space.apply(prims::scale(w, 1.0 / nw));
    const double na = space.norm(aw);
    est = std::max(est, na);
    w = aw;
    nw = na;
  }
  return est;
}

// Gauss-Legendre nodes and weights on [-1, 1] (Newton on P_m from Chebyshev-like guesses).
std::pair<std::vector<double>, std::vector<double>> gauss_legendre(int m) {
  std::vector<double> x(static_cast<std::size_t>(m)), w(static_cast<std::size_t>(m));
  for (int i = 0; i < (m + 1) / 2; ++i) {
    double z = std::cos(std::numbers::pi * (i + 0.75) / (m + 0.5));
    double dp = 1;
    for (int it = 0; it < 100; ++it) {
      double p0 = 1, p1 = z;
      for (int j = 2; j <= m; ++j) {
        const double p2 = ((2 * j - 1) * z * p1 - (j - 1) * p0) / j;
        p0 = p1;
        p1 = p2;
      }
      if (m == 1) p0 = 1;
      dp = m * (z * p1 - p0) / (z * z - 1);
      const double dz = p1 / dp;
      z -= dz;
      if (std::abs(dz) < 1e-16) break;
    }
    const auto a = static_cast<std::size_t>(i), b = static_cast<std::size_t>(m - 1 - i);
    x[a] = -z;
    x[b] = z;
    w[a] = w[b] = 2 / ((1 - z * z) * dp * dp);
  }
  return {x, w};
}

// log of c_m = (m!)^4 / ((2m+1) ((2m)!)^3).
double log_gauss_constant(int m) {
  return 4 * std::lgamma(m + 1.0) - std::log(2.0 * m + 1) - 3 * std::lgamma(2.0 * m + 1);
}

// The composite rule on [0, 1]: nodes ascending, weights summing to 1.
struct Quadrature {
  std::vector<double> s, w;
  int pieces = 1, per_piece = 1;
};

// The fewest nodes in all: for each m, the fewest pieces P with c_m (2 rho / P)^(2m) <= tol.
Quadrature plan(double rho, double tol) {
  Quadrature q;
  if (rho > 0 && std::isfinite(rho)) {
    double best = std::numeric_limits<double>::infinity();
    for (int m = 1; m <= kMaxNodesPerPiece; ++m) {
      const double x_max = std::exp((std::log(tol) - log_gauss_constant(m)) / (2.0 * m));
      const double pieces = std::max(1.0, std::ceil(2 * rho / x_max));
      if (pieces * m < best) {
        best = pieces * m;
        q.pieces = static_cast<int>(pieces);
        q.per_piece = m;
      }
    }
  }
  const auto [x, w] = gauss_legendre(q.per_piece);
  for (int p = 0; p < q.pieces; ++p) {
    for (int k = 0; k < q.per_piece; ++k) {
      const auto kk = static_cast<std::size_t>(k);
      q.s.push_back((p + 0.5 * (x[kk] + 1)) / q.pieces);
      q.w.push_back(0.5 * w[kk] / q.pieces);
    }
  }
  return q;
}

}  // namespace

Variable expm_multiply(const VariableOperator& a, const Variable& v, std::complex<double> t,
                       const krylov::ExpmOptions& options, const VariableOperator& adjoint) {
  const std::string op = "krylov.expm_multiply";
  if (!a) throw_validation(op, "the operator is empty: pass a callable x -> A x");
  if (!v.defined()) throw_validation(op, "v is an empty handle");
  const krylov::LinearOperator plain = untracked(a);
  const T y = krylov::expm_multiply(plain, v.value(), t, options).x;
  if (!grad_enabled()) return Variable(y);
  const DType dtype = y.dtype();
  const double eps = real_dtype(dtype) == DType::F32 ? std::numeric_limits<float>::epsilon()
                                                     : std::numeric_limits<double>::epsilon();
  const double tol = options.tol > 0 ? options.tol : 1e2 * eps;
  const T v0 = prims::cast(v.value(), dtype);

  // Nothing to differentiate when neither v nor the operator's captures are tracked.
  if (!v.tracked() && !a(Variable(v0)).tracked()) return Variable(y);

  const double rho = kNormSafety * std::abs(t) * norm_estimate(plain, v0);
  const Quadrature q = plan(rho, tol);
  const std::size_t nodes = q.s.size();

  // r_k = a(u_k), u_k = exp(s_k tA) v by chained steps.
  std::vector<Variable> inputs;
  inputs.reserve(nodes + 1);
  T u = v0;
  double at = 0;
  for (std::size_t k = 0; k < nodes; ++k) {
    u = krylov::expm_multiply(plain, u, (q.s[k] - at) * t, options).x;
    at = q.s[k];
    inputs.push_back(a(Variable(u)));  // tracks the captured parameters
  }
  inputs.push_back(v);

  const krylov::LinearOperator adj = adjoint ? untracked(adjoint) : krylov::LinearOperator{};
  const auto exp_step = [options](const krylov::LinearOperator& op_, const T& x, cplx tau) {
    return krylov::expm_multiply(op_, x, tau, options).x;
  };
  JvpRule jvp = [plain, q, t, dtype, y, exp_step](std::span<const T> tangents) {
    const std::size_t n = q.s.size();
    T acc;
    if (tangents[n].defined()) acc = prims::cast(tangents[n], dtype);
    double at = 0;
    for (std::size_t k = 0; k < n; ++k) {
      if (!tangents[k].defined()) continue;
      if (acc.defined()) acc = exp_step(plain, acc, (q.s[k] - at) * t);
      at = q.s[k];
      const T term = prims::scale(prims::cast(tangents[k], dtype), q.w[k] * t);
      acc = acc.defined() ? acc + term : term;
    }
    if (!acc.defined()) return std::vector<T>{prims::zeros(y.runtime(), dtype, y.shape())};
    return std::vector<T>{exp_step(plain, acc, (1 - at) * t)};
  };
  VjpRule vjp = [adj, q, t, dtype, op, exp_step](std::span<const T> g,
                                                 const std::vector<bool>& needs) {
    if (!adj) {
      throw_error(ErrorKind::Unsupported, ErrorPhase::Input, op,
                  "reverse mode needs the adjoint operator x -> A^H x: pass it as `adjoint` "
                  "(A itself for a Hermitian A; forward mode needs only A)");
    }
    const std::size_t n = q.s.size();
    const cplx tc = std::conj(t);
    std::vector<T> out(n + 1);
    const bool any_node = std::any_of(needs.begin(), needs.begin() + static_cast<std::ptrdiff_t>(n),
                                      [](bool b) { return b; });
    T z = prims::cast(g[0], dtype);
    double at = 1;
    if (any_node) {
      for (std::size_t k = n; k-- > 0;) {
        z = exp_step(adj, z, (at - q.s[k]) * tc);
        at = q.s[k];
        if (needs[k]) out[k] = prims::scale(z, q.w[k] * tc);
      }
    }
    if (needs[n]) out[n] = exp_step(adj, z, at * tc);
    return out;
  };
  const T zero = prims::zeros(y.runtime(), dtype, y.shape());
  const Variable correction = record1(op, inputs, zero, std::move(vjp), std::move(jvp));
  return add(Variable(y), correction);
}

}  // namespace tenferro::ad
