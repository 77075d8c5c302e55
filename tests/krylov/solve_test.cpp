// gmres and cg against systems with a known solution: b = A x_true.
#include <gtest/gtest.h>

#include "krylov/krylov_matrices.hpp"

namespace tenferro::krylov_test {
namespace {

double relative_error(const EagerTensor& x, const EagerTensor& reference) {
  const double num =
      prims::cast(prims::norm(x - reference), DType::F64).download().data<double>()[0];
  const double den = prims::cast(prims::norm(reference), DType::F64).download().data<double>()[0];
  return num / den;
}

std::vector<cplx> positive_spectrum(std::int64_t n, double condition) {
  std::vector<cplx> s;
  for (std::int64_t i = 0; i < n; ++i)
    s.emplace_back(1.0 + (condition - 1.0) * double(i) / double(n - 1));
  return s;
}

class SolveDtypes : public ::testing::TestWithParam<DType> {};

TEST_P(SolveDtypes, CgSolvesAPositiveDefiniteSystem) {
  const DType dtype = GetParam();
  auto rt = EagerRuntime::cpu();
  const std::int64_t n = 150;
  const EagerTensor a0 = matrix_with_spectrum(rt, dtype, positive_spectrum(n, 50.0), 13);
  const EagerTensor a = prims::scale(a0 + prims::conj(prims::transpose(a0)), 0.5);
  const EagerTensor x_true = rt->upload(testing::random_tensor(dtype, Shape{n}, 2));
  const EagerTensor b = einsum("ij,j->i", {a, x_true});
  const auto before = rt->stats();
  const auto r = krylov::cg(matvec(a), b, {.rtol = 1e-10});
  const auto after = rt->stats();
  EXPECT_LT(relative_error(r.x, x_true), 1e-8);
  EXPECT_LE(r.residual_norm,
            1e-10 * prims::cast(prims::norm(b), DType::F64).download().data<double>()[0]);
  // One read per iteration plus the norms of b and of the true residual; nothing else crosses.
  EXPECT_EQ(after.scalar_reads - before.scalar_reads, static_cast<std::uint64_t>(r.iterations + 2));
  EXPECT_EQ(after.uploads, before.uploads);
  EXPECT_EQ(after.downloads, before.downloads);
}

TEST_P(SolveDtypes, GmresSolvesANonSymmetricSystem) {
  const DType dtype = GetParam();
  auto rt = EagerRuntime::cpu();
  const std::int64_t n = 120;
  std::vector<cplx> spectrum;
  for (std::int64_t i = 0; i < n; ++i)
    spectrum.emplace_back(2.0 + std::cos(0.3 * double(i)),
                          is_complex(dtype) ? 0.5 * std::sin(double(i)) : 0.0);
  const EagerTensor a = matrix_with_spectrum(rt, dtype, spectrum, 17, /*upper=*/0.05);
  const EagerTensor x_true = rt->upload(testing::random_tensor(dtype, Shape{n}, 3));
  const EagerTensor b = einsum("ij,j->i", {a, x_true});
  const auto r = krylov::gmres(matvec(a), b, {.rtol = 1e-10, .restart = 15});
  EXPECT_LT(relative_error(r.x, x_true), 1e-8);
  const double bnorm = prims::cast(prims::norm(b), DType::F64).download().data<double>()[0];
  EXPECT_LE(r.residual_norm, 1e-10 * bnorm);
  // The reported residual is the true one.
  const double true_residual = prims::cast(prims::norm(b - einsum("ij,j->i", {a, r.x})), DType::F64)
                                   .download()
                                   .data<double>()[0];
  EXPECT_NEAR(r.residual_norm, true_residual, 1e-3 * r.residual_norm + 1e-14);
}

TEST_P(SolveDtypes, MinresSolvesAnIndefiniteHermitianSystem) {
  const DType dtype = GetParam();
  auto rt = EagerRuntime::cpu();
  const std::int64_t n = 140;
  std::vector<cplx> spectrum;  // both signs, bounded away from zero
  for (std::int64_t i = 0; i < n; ++i)
    spectrum.emplace_back((i % 2 ? -1.0 : 1.0) * (0.5 + 0.03 * double(i)));
  const EagerTensor a0 = matrix_with_spectrum(rt, dtype, spectrum, 19);
  const EagerTensor a = prims::scale(a0 + prims::conj(prims::transpose(a0)), 0.5);
  const EagerTensor x_true = rt->upload(testing::random_tensor(dtype, Shape{n}, 4));
  const EagerTensor b = einsum("ij,j->i", {a, x_true});
  const auto before = rt->stats();
  const auto r = krylov::minres(matvec(a), b, {.rtol = 1e-10});
  const auto after = rt->stats();
  EXPECT_LT(relative_error(r.x, x_true), 1e-7);
  const double bnorm = prims::cast(prims::norm(b), DType::F64).download().data<double>()[0];
  EXPECT_LE(r.residual_norm, 2e-10 * bnorm);
  // One read per iteration, ||b||, and the final true residual.
  EXPECT_EQ(after.scalar_reads - before.scalar_reads, static_cast<std::uint64_t>(r.iterations + 2));
  EXPECT_EQ(after.scalar_writes, before.scalar_writes);
  // cg refuses the same system rather than returning a wrong answer.
  EXPECT_THROW(krylov::cg(matvec(a), b, {.rtol = 1e-10}), Error);
}

INSTANTIATE_TEST_SUITE_P(Dtypes, SolveDtypes, ::testing::Values(DType::F64, DType::C64));

TEST(Gmres, StartsFromX0) {
  auto rt = EagerRuntime::cpu();
  const std::int64_t n = 60;
  std::vector<cplx> spectrum;
  for (std::int64_t i = 0; i < n; ++i) spectrum.emplace_back(1.0 + 0.05 * double(i));
  const EagerTensor a = matrix_with_spectrum(rt, DType::F64, spectrum, 5, 0.1);
  const EagerTensor x_true = rt->upload(testing::random_tensor(DType::F64, Shape{n}, 8));
  const EagerTensor b = einsum("ij,j->i", {a, x_true});
  // x0 = the solution: converged before any Arnoldi step (one matvec for the residual).
  const auto r = krylov::gmres(matvec(a), b, {.rtol = 1e-8, .x0 = x_true});
  EXPECT_EQ(r.iterations, 0);
  EXPECT_EQ(r.matvecs, 1);
  EXPECT_LT(relative_error(r.x, x_true), 1e-12);
}

// The solvers are scale-invariant: a well-conditioned Hermitian positive definite system with
// A and b both scaled by s (the same x) and one with b alone scaled by 1e300 (x scaled too) are
// solved to the same relative accuracy. Unscaled, cg's p^H A p under- or overflowed for s of
// 1e-120 .. 1e154 (a Numerical error) and gmres's candidate residuals overflowed for ||b|| ~
// 1e300 (a stagnation error): an adversarial sweep found both.
TEST(KrylovSolvers, AreScaleInvariant) {
  auto rt = EagerRuntime::cpu();
  const std::int64_t n = 30;
  const EagerTensor a0 = matrix_with_spectrum(rt, DType::F64, positive_spectrum(n, 10.0), 23);
  const EagerTensor a = prims::scale(a0 + prims::transpose(a0), 0.5);
  const EagerTensor x_true = rt->upload(testing::random_tensor(DType::F64, Shape{n}, 5));
  const EagerTensor b = einsum("ij,j->i", {a, x_true});
  using Solver = krylov::SolveResult (*)(const krylov::LinearOperator&, const EagerTensor&,
                                         const krylov::SolveOptions&);
  const std::pair<const char*, Solver> solvers[] = {
      {"cg", &krylov::cg}, {"gmres", &krylov::gmres}, {"minres", &krylov::minres}};
  for (const auto& [name, solve] : solvers) {
    for (const double s : {1e-300, 1e-150, 1e-120, 1.0, 1e150, 1e154, 1e300}) {
      const auto r = solve(matvec(prims::scale(a, s)), prims::scale(b, s), {.rtol = 1e-10});
      EXPECT_LT(relative_error(r.x, x_true), 1e-8) << name << " with A and b scaled by " << s;
    }
    for (const double s : {1e-300, 1e300}) {
      const auto r = solve(matvec(a), prims::scale(b, s), {.rtol = 1e-10});
      EXPECT_LT(relative_error(prims::scale(r.x, 1.0 / s), x_true), 1e-8)
          << name << " with b scaled by " << s;
    }
  }
}

TEST(Cg, ZeroRightHandSideGivesZero) {
  auto rt = EagerRuntime::cpu();
  const EagerTensor a = prims::eye(rt, DType::F64, 10);
  const auto r = krylov::cg(matvec(a), prims::zeros(rt, DType::F64, Shape{10}));
  EXPECT_EQ(r.matvecs, 0);
  EXPECT_EQ(prims::norm(r.x).download().data<double>()[0], 0.0);
}

}  // namespace
}  // namespace tenferro::krylov_test
