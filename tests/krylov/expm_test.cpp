// expm_multiply against exp(tA) v known exactly: A = Q diag(lambda) Q^H (normal, possibly with
// complex eigenvalues), so exp(tA) v = Q diag(exp(t lambda)) Q^H v.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <tuple>
#include <vector>

#include "krylov/krylov_matrices.hpp"

namespace tenferro::krylov_test {
namespace {

struct ExpmCase {
  DType dtype;
  cplx t;
  bool hermitian;
  double spread;  // eigenvalues in [-spread, spread]: t * spread is the hard part
};

class ExpmKnown : public ::testing::TestWithParam<ExpmCase> {};

TEST_P(ExpmKnown, MatchesTheExactExponential) {
  const ExpmCase c = GetParam();
  auto rt = EagerRuntime::cpu();
  const std::int64_t n = 100;
  const DType vector_dtype = c.t.imag() != 0 ? complex_dtype(c.dtype) : c.dtype;
  std::vector<cplx> lambda;
  for (std::int64_t i = 0; i < n; ++i) {
    const double x = c.spread * std::cos(0.9 * double(i) + 0.2);
    lambda.emplace_back(x, c.hermitian || !is_complex(c.dtype) ? 0.0 : 0.3 * std::sin(double(i)));
  }
  const EagerTensor g = rt->upload(testing::random_tensor(vector_dtype, Shape{n, n}, 31));
  const EagerTensor q = linalg::qr(g).q;
  const EagerTensor a =
      einsum("ij,j,kj->ik", {q, rt->upload(host_vector(vector_dtype, lambda)), prims::conj(q)});
  std::vector<cplx> exp_lambda;
  for (const cplx& l : lambda) exp_lambda.push_back(std::exp(c.t * l));
  // v in the operator's own dtype: a real v with a complex t is cast to complex by the solver.
  const EagerTensor v = rt->upload(testing::random_tensor(c.dtype, Shape{n}, 32));
  const EagerTensor expected =
      einsum("ij,j,kj,k->i", {q, rt->upload(host_vector(vector_dtype, exp_lambda)), prims::conj(q),
                              prims::cast(v, vector_dtype)});
  const auto r = krylov::expm_multiply(matvec(a), v, c.t);
  const double err =
      prims::cast(prims::norm(r.x - expected), DType::F64).download().data<double>()[0];
  const double scale = prims::cast(prims::norm(expected), DType::F64).download().data<double>()[0];
  EXPECT_LT(err / scale, 1e-10) << "substeps " << r.substeps << ", matvecs " << r.matvecs;
  EXPECT_LE(r.error_estimate, 1e-10);
}

INSTANTIATE_TEST_SUITE_P(
    Exponentials, ExpmKnown,
    ::testing::Values(ExpmCase{DType::F64, {0.5, 0}, true, 1.0},     // small t||A||
                      ExpmCase{DType::F64, {-2.0, 0}, true, 20.0},   // decay, t||A|| = 40
                      ExpmCase{DType::F64, {0, -3.0}, true, 25.0},   // exp(-iHt), t||A|| = 75
                      ExpmCase{DType::C64, {0, -1.0}, false, 10.0},  // non-Hermitian, complex t
                      ExpmCase{DType::C64, {1.5, 0.5}, false, 4.0}));

TEST(ExpmMultiply, UnitaryEvolutionKeepsTheNorm) {
  // exp(-iHt) of a Hermitian H is unitary: a long evolution (t||H|| = 400) keeps ||v|| to the
  // tolerance, which catches a substep controller that accepts inaccurate steps.
  auto rt = EagerRuntime::cpu();
  const std::int64_t n = 64;
  std::vector<cplx> lambda;
  for (std::int64_t i = 0; i < n; ++i) lambda.emplace_back(-4.0 + 8.0 * double(i) / double(n - 1));
  const EagerTensor h = matrix_with_spectrum(rt, DType::C64, lambda, 41);
  const EagerTensor hs = prims::scale(h + prims::conj(prims::transpose(h)), 0.5);
  const EagerTensor v = rt->upload(testing::random_tensor(DType::C64, Shape{n}, 42));
  const auto r = krylov::expm_multiply(matvec(hs), v, cplx(0, -100.0));
  const double before = prims::norm(v).download().data<double>()[0];
  const double after = prims::norm(r.x).download().data<double>()[0];
  EXPECT_NEAR(after / before, 1.0, 1e-10);
  EXPECT_GT(r.substeps, 1);
}

double host_norm(const EagerTensor& x) {
  return prims::cast(prims::norm(x), DType::F64).download().data<double>()[0];
}

// exp(tA) v beyond double's range is a NumericalError, not a hang: an exponential that
// overflowed made the step's estimate NaN (0 * inf on an invariant space) and the substep loop
// spun on a NaN step forever. Found by an adversarial review (expm_multiply([[1]], [1], 710)).
TEST(ExpmMultiply, AnOverflowingExponentialIsANumericalErrorNotAHang) {
  auto rt = EagerRuntime::cpu();
  const EagerTensor one = rt->upload(host_vector(DType::F64, {1.0}));
  const EagerTensor a = prims::reshape(one, Shape{1, 1});
  const auto fits = krylov::expm_multiply(matvec(a), one, 709.0);
  EXPECT_NEAR(fits.x.download().data<double>()[0] / std::exp(709.0), 1.0, 1e-12);
  std::vector<cplx> ramp;
  for (int i = 1; i <= 6; ++i) ramp.emplace_back(double(i));
  const EagerTensor d = matrix_with_spectrum(rt, DType::F64, ramp, 5);
  const EagerTensor ones = rt->upload(host_vector(DType::F64, std::vector<cplx>(6, 1.0)));
  const EagerTensor dc = prims::cast(d, DType::C64), onesc = prims::cast(ones, DType::C64);
  for (const auto& [op, v, t] : {std::tuple{a, one, cplx(710.0)}, std::tuple{d, ones, cplx(200.0)},
                                 std::tuple{dc, onesc, cplx(300.0, 5.0)}}) {
    try {
      (void)krylov::expm_multiply(matvec(op), v, t, {.max_substeps = 3});
      ADD_FAILURE() << "t = " << t << " returned";
    } catch (const Error& e) {
      // "overflows" from the step, or the operator's own check of its output.
      EXPECT_EQ(e.kind(), ErrorKind::Numerical) << e.what();
    }
  }
  // A float32 result beyond float32's range, from coefficients that fit in double.
  const EagerTensor one32 = prims::cast(one, DType::F32);
  EXPECT_THROW((void)krylov::expm_multiply(matvec(prims::cast(a, DType::F32)), one32, 100.0),
               Error);
  // A tiny v whose exponential alone overflows but whose product fits: shorter substeps.
  const EagerTensor tiny = rt->upload(host_vector(DType::F64, {1e-300}));
  const auto r = krylov::expm_multiply(matvec(a), tiny, 710.0);
  EXPECT_NEAR(r.x.download().data<double>()[0] / (1e-300 * std::exp(355.0) * std::exp(355.0)), 1.0,
              1e-10);
}

// An operator of norm above ~1e154 (float64): the invariance test summed squares and
// overflowed, so every first Krylov step looked invariant and the answer was one step's Ritz
// value, silently (eigsh 5.17e155 for 6.13e155). The same matrix at 1e150 and 1e155.
TEST(ExpmMultiply, OperatorsOfHugeNormAreNotMistakenForInvariantSpaces) {
  auto rt = EagerRuntime::cpu();
  const std::int64_t n = 6;
  std::vector<cplx> lambda;
  for (std::int64_t i = 0; i < n; ++i) lambda.emplace_back(1.0 + double(i));
  const EagerTensor base = matrix_with_spectrum(rt, DType::F64, lambda, 9);
  const EagerTensor a0 = prims::scale(base + prims::transpose(base), 0.5);  // symmetric
  const EagerTensor v = rt->upload(host_vector(DType::F64, std::vector<cplx>(n, 1.0)));
  const Tensor w0 = linalg::eigh(a0).w.download();
  const double largest = w0.data<double>()[n - 1];
  const auto reference = krylov::expm_multiply(matvec(a0), v, 1.0).x;
  for (const double s : {1e150, 1e155, 1e200}) {
    SCOPED_TRACE(s);
    const EagerTensor a = prims::scale(a0, s);
    const auto e = krylov::eigsh(matvec(a), v, {.k = 1, .which = krylov::Which::LargestAlgebraic});
    EXPECT_NEAR(e.eigenvalues[0] / s, largest, 1e-10 * largest);
    const auto x = krylov::expm_multiply(matvec(a), v, 1.0 / s).x;
    EXPECT_LT(host_norm(x - reference) / host_norm(reference), 1e-10);
  }
}

// A strongly decaying exp(tA) v whose slow eigenvalue the first basis does not resolve: every
// Ritz value decays, the estimate read off the decayed corner was 1e-13 of the true error, and
// one substep returned ~0 (exp(-100 A) ones, A = diag(0.01, 1, 5.5, 10), ncv 3: 4e-16 for
// 0.37; the 1-D Laplacian at t = -3e4: 8.6e-45 for 3.7e-4; a review against SciPy found it).
TEST(ExpmMultiply, DecayThatOutrunsTheBasisKeepsTheSlowestMode) {
  auto rt = EagerRuntime::cpu();
  {
    const std::vector<double> d{0.01, 1.0, 5.5, 10.0};
    Tensor host = Tensor::zeros(DType::F64, Shape{4, 4});
    for (std::int64_t i = 0; i < 4; ++i) host.at<double>({i, i}) = d[static_cast<std::size_t>(i)];
    const EagerTensor a = rt->upload(host);
    const EagerTensor v = prims::ones(rt, DType::F64, Shape{4});
    // Three vectors cannot follow it to the tolerance: a typed NotConvergedError, never ~0.
    EXPECT_THROW(krylov::expm_multiply(matvec(a), v, -100.0, {.ncv = 3, .max_substeps = 500}),
                 krylov::NotConvergedError);
    const Tensor x = krylov::expm_multiply(matvec(a), v, -100.0).x.download();
    for (std::int64_t i = 0; i < 4; ++i) {
      const double want = std::exp(-100 * d[static_cast<std::size_t>(i)]);
      EXPECT_NEAR(x.data<double>()[i], want, 1e-13) << i;
    }
  }
  // The Dirichlet Laplacian: eigenvectors sin(pi k (i + 1) / (n + 1)), eigenvalues
  // 2 - 2 cos(pi k / (n + 1)), so exp(tL) v is known without a dense solver.
  const std::int64_t n = 200;
  Tensor lap = Tensor::zeros(DType::F64, Shape{n, n});
  for (std::int64_t i = 0; i < n; ++i) {
    lap.at<double>({i, i}) = 2;
    if (i + 1 < n) lap.at<double>({i, i + 1}) = lap.at<double>({i + 1, i}) = -1;
  }
  const EagerTensor a = rt->upload(lap);
  const Tensor vh = testing::random_tensor(DType::F64, Shape{n}, 41);
  for (const double t : {-1e4, -3e4}) {
    std::vector<double> want(static_cast<std::size_t>(n), 0.0);
    const double pi = 3.141592653589793;
    for (std::int64_t k = 1; k <= n; ++k) {
      double coef = 0;
      for (std::int64_t i = 0; i < n; ++i)
        coef += std::sin(pi * double(k * (i + 1)) / double(n + 1)) * vh.data<double>()[i];
      coef *=
          2.0 / double(n + 1) * std::exp(t * (2 - 2 * std::cos(pi * double(k) / double(n + 1))));
      for (std::int64_t i = 0; i < n; ++i)
        want[static_cast<std::size_t>(i)] +=
            coef * std::sin(pi * double(k * (i + 1)) / double(n + 1));
    }
    const auto r = krylov::expm_multiply(matvec(a), rt->upload(vh), t);
    const Tensor x = r.x.download();
    double err = 0, norm = 0;
    for (std::int64_t i = 0; i < n; ++i) {
      err += std::pow(x.data<double>()[i] - want[static_cast<std::size_t>(i)], 2);
      norm += std::pow(want[static_cast<std::size_t>(i)], 2);
    }
    EXPECT_LT(std::sqrt(err / norm), 1e-8) << "t " << t << ", substeps " << r.substeps;
  }
}

// Decays past the dtype's range: the 1% rule's short substeps reached subnormal norms, where
// 1 / beta overflowed (a NumericalError) or a budget of 0 made the step size NaN (a hang); the
// answer, below what the dtype holds, is zero (the review of the rule found both).
TEST(ExpmMultiply, DecayPastTheDtypesRangeEndsAtZero) {
  auto rt = EagerRuntime::cpu();
  for (const auto& [dtype, center, t] :
       {std::tuple{DType::F64, 100.0, -50.0}, std::tuple{DType::F64, 100.0, -7.5},
        std::tuple{DType::F32, 10.0, -12.0}}) {
    SCOPED_TRACE(std::string(dtype_name(dtype)) + " t " + std::to_string(t));
    const std::int64_t n = 50;
    Tensor host = Tensor::zeros(dtype, Shape{n, n});
    for (std::int64_t i = 0; i < n; ++i) {
      const double d = center - 1 + 2 * double(i) / double(n - 1);
      if (dtype == DType::F64) host.at<double>({i, i}) = d;
      if (dtype == DType::F32) host.at<float>({i, i}) = static_cast<float>(d);
    }
    const EagerTensor a = rt->upload(host);
    const auto r = krylov::expm_multiply(matvec(a), prims::ones(rt, dtype, Shape{n}), t);
    const double largest =
        prims::cast(prims::max(prims::abs(r.x)), DType::F64).download().data<double>()[0];
    EXPECT_LE(largest, dtype == DType::F64 ? 1e-300 : 1e-37);  // exact: below 1e-320 / 1e-46
  }
}

// A start vector below the dtype's normal range: 1 / ||v|| overflowed (a Numerical error for a
// valid input). exp(tA) v is linear in v, so its answer is the normal-range one scaled down.
TEST(ExpmMultiply, SubnormalStartVectorsAreScaledNotRefused) {
  auto rt = EagerRuntime::cpu();
  for (const auto& [dtype, scale] :
       {std::pair{DType::F64, 1e-310}, std::pair{DType::F64, 5e-324}, std::pair{DType::F32, 1e-40},
        std::pair{DType::F32, 1.4e-45}}) {
    SCOPED_TRACE(std::string(dtype_name(dtype)) + " scale " + std::to_string(scale));
    const std::int64_t n = 6;
    Tensor host = Tensor::zeros(dtype, Shape{n, n});
    for (std::int64_t i = 0; i < n; ++i) {
      const double d = 0.1 * double(i);  // exp(t d) grows to e^1.5 at t = 3
      if (dtype == DType::F64) host.at<double>({i, i}) = d;
      if (dtype == DType::F32) host.at<float>({i, i}) = static_cast<float>(d);
    }
    const EagerTensor a = rt->upload(host);
    const EagerTensor v = prims::full(rt, dtype, Shape{n}, scale);
    const auto r = krylov::expm_multiply(matvec(a), v, 3.0);
    const Tensor x = prims::cast(r.x, DType::F64).download();
    const double held = prims::cast(v, DType::F64).download().data<double>()[0];
    for (std::int64_t i = 0; i < n; ++i) {
      const double want = held * std::exp(0.3 * double(i));
      // The answer is itself subnormal: within one unit of the dtype's smallest step.
      const double unit = dtype == DType::F64 ? 4.9406564584124654e-324 : 1.401298464324817e-45;
      EXPECT_NEAR(x.data<double>()[i], want, std::max(1e-6 * want, 2 * unit)) << "entry " << i;
      EXPECT_GT(x.data<double>()[i], 0.0) << "entry " << i;
    }
  }
}

}  // namespace
}  // namespace tenferro::krylov_test
