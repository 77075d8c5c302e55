// Krylov solvers on the inputs that make a Krylov method lie: a start vector on (or next to) an
// unwanted eigenvector, a recurrence whose residual drifts from the true one on an
// ill-conditioned operator, a singular inconsistent system, b = 0 with a nonzero x0. Each answer
// must be right or a typed error; a reported residual must be the true one.
#include <gtest/gtest.h>

#include <cmath>

#include "krylov/krylov_matrices.hpp"

namespace tenferro::krylov_test {
namespace {

double host_norm(const EagerTensor& x) {
  return prims::cast(prims::norm(x), DType::F64).download().data<double>()[0];
}

// diag(1, 2, ..., n) as a dense float64 matrix.
EagerTensor diagonal_ramp(const std::shared_ptr<EagerRuntime>& rt, std::int64_t n) {
  Tensor t = Tensor::zeros(DType::F64, Shape{n, n});
  for (std::int64_t i = 0; i < n; ++i)
    t.data<double>()[static_cast<std::size_t>(i + i * n)] = 1.0 + double(i);
  return rt->upload(t);
}

EagerTensor unit_vector(const std::shared_ptr<EagerRuntime>& rt, DType dtype, std::int64_t n,
                        std::int64_t at) {
  std::vector<cplx> v(static_cast<std::size_t>(n));
  v[static_cast<std::size_t>(at)] = 1.0;
  return rt->upload(host_vector(dtype, v));
}

TEST(HostileStart, EigshFromAnUnwantedEigenvectorFindsTheWantedOne) {
  auto rt = EagerRuntime::cpu();
  const EagerTensor a = diagonal_ramp(rt, 10);
  // v0 = e_2 spans an invariant subspace (eigenvalue 3); the smallest is 1.
  const auto r1 = krylov::eigsh(matvec(a), unit_vector(rt, DType::F64, 10, 2),
                                {.k = 1, .which = krylov::Which::SmallestAlgebraic});
  EXPECT_NEAR(r1.eigenvalues[0], 1.0, 1e-10);
  std::vector<cplx> two(10);
  two[2] = two[3] = 1.0;
  const auto r2 = krylov::eigsh(matvec(a), rt->upload(host_vector(DType::F64, two)),
                                {.k = 2, .which = krylov::Which::SmallestAlgebraic});
  ASSERT_EQ(r2.eigenvalues.size(), 2u);
  EXPECT_NEAR(std::min(r2.eigenvalues[0], r2.eigenvalues[1]), 1.0, 1e-10);
  EXPECT_NEAR(std::max(r2.eigenvalues[0], r2.eigenvalues[1]), 2.0, 1e-10);
  // eigs shares the Krylov-Schur loop.
  const EagerTensor ac = prims::cast(a, DType::C64);
  const auto r3 = krylov::eigs(matvec(ac), unit_vector(rt, DType::C64, 10, 4),
                               {.k = 1, .which = krylov::Which::SmallestAlgebraic});
  EXPECT_NEAR(r3.eigenvalues[0].real(), 1.0, 1e-10);
}

TEST(HostileStart, EigshNextToAnExcitedStateFindsTheGroundState) {
  auto rt = EagerRuntime::cpu();
  const std::int64_t n = 50;
  std::vector<cplx> spectrum;
  for (std::int64_t i = 0; i < n; ++i) spectrum.emplace_back(-10.0 + 0.4 * double(i));
  const EagerTensor a = matrix_with_spectrum(rt, DType::F64, spectrum, 21);
  // The eigenvector of -8.8 (the fourth), perturbed by 1e-9: its Ritz pair has converged to
  // 1e-6 after one step, long before the basis reaches -10.
  const EagerTensor w = linalg::eigh(a).v;
  const prims::Slice column[] = {{}, {3, 4}};
  const EagerTensor excited = prims::reshape(prims::contiguous(prims::slice(w, column)), Shape{n});
  const EagerTensor noise = rt->upload(testing::random_tensor(DType::F64, Shape{n}, 5));
  const EagerTensor v0 = excited + prims::scale(noise, 1e-9);
  const krylov::EigOptions o{.k = 1, .which = krylov::Which::SmallestAlgebraic, .tol = 1e-6};
  EXPECT_NEAR(krylov::eigsh(matvec(a), v0, o).eigenvalues[0], -10.0, 1e-6);
  // eager takes the first converged pair: the documented trade, for start vectors known good.
  krylov::EigOptions eager = o;
  eager.eager = true;
  const auto quick = krylov::eigsh(matvec(a), v0, eager);
  EXPECT_NEAR(quick.eigenvalues[0], -8.8, 1e-6);
  EXPECT_LT(quick.matvecs, 5);
}

// A Hermitian positive-definite matrix of condition number `condition` (log-spaced spectrum).
EagerTensor ill_conditioned(const std::shared_ptr<EagerRuntime>& rt, std::int64_t n,
                            double condition) {
  std::vector<cplx> spectrum;
  for (std::int64_t i = 0; i < n; ++i)
    spectrum.emplace_back(std::pow(condition, double(i) / double(n - 1)));
  const EagerTensor a0 = matrix_with_spectrum(rt, DType::F64, spectrum, 7);
  return prims::scale(a0 + prims::transpose(a0), 0.5);
}

// The solver's answer is a true solution within the target, or a NotConvergedError whose best
// iterate has the residual it reports.
template <class Solver>
void expect_true_answer_or_error(Solver solver, const EagerTensor& a, const EagerTensor& b,
                                 const krylov::SolveOptions& o, const char* what) {
  const double target = o.rtol * host_norm(b);
  try {
    const auto r = solver(matvec(a), b, o);
    const double truth = host_norm(b - einsum("ij,j->i", {a, r.x}));
    EXPECT_LE(truth, target) << what << ": a reported success must meet the target";
    EXPECT_NEAR(r.residual_norm, truth, 1e-9 * std::max(truth, host_norm(b))) << what;
  } catch (const krylov::NotConvergedError& e) {
    ASSERT_EQ(e.best().size(), 1u) << what;
    const double truth = host_norm(b - einsum("ij,j->i", {a, e.best()[0]}));
    EXPECT_NEAR(e.residual_norms()[0], truth, 1e-9 * std::max(truth, host_norm(b))) << what;
    EXPECT_GT(truth, target) << what;
  }
}

TEST(HostileStart, CgAndMinresReportTheTrueResidual) {
  auto rt = EagerRuntime::cpu();
  const std::int64_t n = 100;
  for (double condition : {1e9, 1e12}) {
    const EagerTensor a = ill_conditioned(rt, n, condition);
    const EagerTensor b = rt->upload(testing::random_tensor(DType::F64, Shape{n}, 3));
    const krylov::SolveOptions o{.rtol = 1e-8, .maxiter = 20000};
    expect_true_answer_or_error(krylov::cg, a, b, o, "cg");
    expect_true_answer_or_error(krylov::minres, a, b, o, "minres");
  }
}

TEST(HostileStart, GmresOnASingularInconsistentSystemKeepsTheBestIterate) {
  auto rt = EagerRuntime::cpu();
  const std::int64_t n = 20;
  Tensor t = Tensor::zeros(DType::F64, Shape{n, n});
  for (std::int64_t i = 3; i < n; ++i)
    t.data<double>()[static_cast<std::size_t>(i + i * n)] = double(i - 2);
  const EagerTensor a = rt->upload(t);
  const EagerTensor b = prims::ones(rt, DType::F64, Shape{n});
  for (std::int64_t cycles : {1, 5, 100}) {
    try {
      krylov::gmres(matvec(a), b, {.rtol = 1e-10, .maxiter = cycles});
      ADD_FAILURE() << "b is not in A's range: no solution meets rtol 1e-10";
    } catch (const krylov::NotConvergedError& e) {
      const double truth = host_norm(b - einsum("ij,j->i", {a, e.best()[0]}));
      // The least-squares optimum is sqrt(3) (the three rows A cannot reach); x = 0 has
      // sqrt(20). A cycle can only lower the residual, so the best iterate is near the optimum.
      EXPECT_LE(truth, std::sqrt(20.0)) << cycles;
      EXPECT_NEAR(truth, std::sqrt(3.0), 1e-6) << cycles;
      EXPECT_NEAR(e.residual_norms()[0], truth, 1e-9) << cycles;
      EXPECT_LT(host_norm(e.best()[0]), 100.0) << cycles;
    }
  }
}

TEST(HostileStart, ZeroRightHandSideWithAStartVectorGivesZero) {
  auto rt = EagerRuntime::cpu();
  const std::int64_t n = 5;
  const EagerTensor a = ill_conditioned(rt, n, 10.0);
  const EagerTensor b = prims::zeros(rt, DType::F64, Shape{n});
  const krylov::SolveOptions o{.x0 = prims::ones(rt, DType::F64, Shape{n})};
  for (const auto& r : {krylov::gmres(matvec(a), b, o), krylov::cg(matvec(a), b, o),
                        krylov::minres(matvec(a), b, o)}) {
    EXPECT_EQ(host_norm(r.x), 0.0);
    EXPECT_EQ(r.residual_norm, 0.0);
    EXPECT_EQ(r.matvecs, 0);
  }
}

}  // namespace
}  // namespace tenferro::krylov_test
