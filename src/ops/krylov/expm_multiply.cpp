// exp(t A) v by Krylov projection with substeps (Hochbruck & Lubich; Saad 1992 for the
// estimate). Each substep builds an Arnoldi basis of the current vector w (||w|| = beta) and
// takes w <- beta V exp(tau t H) e1. Saad's a-posteriori estimate of that step's error is
// beta h_{m+1,m} |e_m^T exp(tau t H) e1|; a step whose estimate exceeds its share of the
// tolerance is retried with a smaller tau on the same basis (no new matvecs).
#include <algorithm>
#include <cmath>
#include <string>

#include "ops/krylov/basis.hpp"
#include "ops/krylov/scientific.hpp"
#include "ops/krylov/small_dense.hpp"
#include "tenferro/prims.hpp"

namespace tenferro::krylov {
namespace {

using krylov_internal::cplx;
using krylov_internal::HostMatrix;
using krylov_internal::scientific;

constexpr double kMinKept = 1e-2;

// w * 2^exponent, by factors that float32 holds as normal numbers (2^+-100).
EagerTensor scaled_by_power_of_two(EagerTensor w, int exponent) {
  while (exponent != 0) {
    const int step = std::clamp(exponent, -100, 100);
    w = prims::scale(w, std::ldexp(1.0, step));
    exponent -= step;
  }
  return w;
}

}  // namespace

ExpmResult expm_multiply(const LinearOperator& a, const EagerTensor& v, std::complex<double> t,
                         const ExpmOptions& options) {
  const std::string op = "krylov.expm_multiply";
  if (!v.defined()) throw_validation(op, "v is an empty handle");
  if (!std::isfinite(t.real()) || !std::isfinite(t.imag()))
    throw_validation(op, "t must be finite");
  if (options.ncv < 1 || options.max_substeps < 1 || !(options.tol >= 0)) {
    throw_validation(op, "ncv and max_substeps must be >= 1, tol >= 0");
  }
  const DType dtype = t.imag() != 0 ? complex_dtype(v.dtype()) : v.dtype();
  krylov_internal::VectorSpace space(op, a, v, dtype);
  const double tol = options.tol > 0 ? options.tol : 1e2 * space.eps();
  const std::int64_t m = std::min(options.ncv, space.dim());
  // One Krylov vector spans only v itself: every substep's error estimate stays at its first
  // value and the call ran all max_substeps before failing.
  if (m < 2 && space.dim() > 1) {
    throw_validation(op,
                     "ncv = 1 cannot follow exp(tA) v beyond v's own direction: use a larger "
                     "basis (the default is " +
                         std::to_string(ExpmOptions{}.ncv) +
                         "; a basis of a few vectors may not converge either)");
  }

  ExpmResult out;
  EagerTensor w = space.flat(v, "v");
  const double v_norm = space.norm(w);
  if (v_norm == 0 || t == cplx{}) {
    out.x = space.shaped(w);
    out.matvecs = space.matvecs();
    return out;
  }
  krylov_internal::Basis basis(space, m);
  // The working dtype's smallest normal value (its epsilon tells float32 from float64).
  const double tiny = space.eps() > 1e-10 ? 1.1754943508222875e-38 : 2.2250738585072014e-308;
  // A start vector below that range (1 / beta would overflow: a Numerical error for a valid
  // input): exp(tA) is linear, so the solve runs on v times a power of two and the result is
  // scaled back (both exact but for the result's own underflow).
  const int exponent = v_norm < tiny ? -std::ilogb(v_norm) : 0;
  if (exponent != 0) w = scaled_by_power_of_two(w, exponent);
  double done = 0;   // fraction of t already applied
  double tau = 1.0;  // the next substep, as a fraction of t
  double beta = exponent != 0 ? space.norm(w) : v_norm;
  while (done < 1.0) {
    if (out.substeps >= options.max_substeps) {
      throw NotConvergedError(op,
                              "more than " + std::to_string(options.max_substeps) +
                                  " substeps needed at t fraction " + std::to_string(done) +
                                  ": raise ncv or max_substeps, or loosen tol",
                              {space.shaped(w)}, {out.error_estimate});
    }
    basis.reset(prims::scale(w, 1.0 / beta));
    HostMatrix h(m + 1, m);
    std::int64_t size = m;
    for (std::int64_t j = 0; j < m; ++j) {
      const auto pr = basis.orthogonalize(space.apply(basis.column(j)));
      for (std::int64_t i = 0; i <= j; ++i) h(i, j) = pr.h[static_cast<std::size_t>(i)];
      if (pr.invariant(space.eps())) {  // the projection is exact: h(j+1, j) stays 0
        size = j + 1;
        break;
      }
      h(j + 1, j) = pr.beta;
      if (j + 1 < m) basis.append(prims::scale(pr.w, 1.0 / pr.beta));
    }
    const HostMatrix hm = h.block(size, size);
    // The error allowed over the whole span, relative to the vector this substep starts from
    // (a growing or decaying exponential changes the scale by many orders of magnitude).
    const double budget = tol * beta;
    const double h_next = std::abs(h(size, size - 1));
    tau = std::min(tau, 1.0 - done);
    HostMatrix e;
    double err = 0;
    for (;;) {
      // Taylor with scaling and squaring keeps the structure of the Hessenberg matrix, so the
      // small corner entry that the estimate reads comes out with a relative accuracy (an
      // eigen-decomposition would give it an absolute error of eps, a false noise floor).
      const cplx z = tau * t;
      HostMatrix zh = hm;
      for (cplx& x : zh.a) x *= z;
      e = krylov_internal::expm(zh);
      err = beta * h_next * std::abs(z) * std::abs(e(size - 1, 0));
      // An exponential beyond double's range (exp(710)) makes the estimate NaN (0 * inf on an
      // invariant space) or inf: a shorter substep, never a step on a NaN (the loop used to
      // spin on a NaN tau forever).
      bool finite = std::isfinite(err);
      double kept = 0;  // ||exp(z H) e1||^2: how much of w the substep keeps
      for (std::int64_t i = 0; i < size && finite; ++i) {
        finite = std::isfinite(std::abs(e(i, 0)));
        kept += std::norm(e(i, 0));
      }
      // A substep that wipes out what the basis resolved leaves only what it did not: an
      // eigenvalue the few Krylov vectors missed decays slower than every Ritz value, so the
      // estimate, read off the decayed corner, was 1e-13 of a 100% error (exp(-100 A) v with
      // A = diag(0.01, 1, 5.5, 10) gave 4e-16 for 0.37). Each substep keeps at least
      // kMinKept of w's norm, so the next basis, built from what is left, resolves it.
      // Near the dtype's underflow the rule is waived: 1% steps would reach subnormal norms
      // (1 / beta overflows there) and what is left is below what the dtype holds anyway.
      const bool waived = h_next == 0 || beta < tiny / (kMinKept * kMinKept);
      if (finite && err <= budget * tau && (kept >= kMinKept * kMinKept || waived)) break;
      if (tau < 1e-12) {
        if (finite) break;
        throw_error(ErrorKind::Numerical, ErrorPhase::Execute, op,
                    "exp(t A) v overflows: its growth over a substep of " + scientific(tau) +
                        " of t exceeds the largest finite value");
      }
      // 0 / 0 (a budget that underflowed, an estimate of 0) is NaN, which clamp passes on.
      const double shrink = 0.8 * std::pow(budget * tau / err, 1.0 / double(size));
      tau *= finite && std::isfinite(shrink) ? std::clamp(shrink, 0.1, 0.5) : 0.5;
    }
    std::vector<cplx> y = e.column(0);
    for (cplx& c : y) c *= beta;
    // beta e1's image beyond double's range: the result overflows (the basis is orthonormal,
    // so the combination's entries are bounded by these coefficients' norm).
    for (const cplx& c : y) {
      if (!std::isfinite(c.real()) || !std::isfinite(c.imag())) {
        throw_error(
            ErrorKind::Numerical, ErrorPhase::Execute, op,
            "exp(t A) v overflows the range of double at t fraction " + scientific(done + tau));
      }
    }
    w = basis.combine(y, size);
    done += tau;
    out.error_estimate += err / beta;
    ++out.substeps;
    // A non-finite w is refused by the read (a Numerical error): the next substep's norm, or
    // after the last one its largest magnitude (a float32 result can overflow where the double
    // coefficients did not; the norm itself could overflow with every entry finite).
    if (done < 1.0) {
      beta = space.norm(w);
      // Decayed below the dtype's normal range (only a waived step gets there): the rest of
      // the way stays below it, and 1 / beta would overflow.
      if (beta < tiny) break;
    } else {
      (void)space.read(prims::max(prims::abs(w)));
    }
    // The next substep from the estimate's order (err ~ tau^size): grow at most 5x.
    tau *= err > 0 ? std::clamp(0.8 * std::pow(budget * tau / err, 1.0 / static_cast<double>(size)),
                                1.0, 5.0)
                   : 5.0;
  }
  if (exponent != 0) w = scaled_by_power_of_two(w, -exponent);
  out.x = space.shaped(w);
  out.matvecs = space.matvecs();
  return out;
}

}  // namespace tenferro::krylov
