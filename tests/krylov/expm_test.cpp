// expm_multiply against exp(tA) v known exactly: A = Q diag(lambda) Q^H (normal, possibly with
// complex eigenvalues), so exp(tA) v = Q diag(exp(t lambda)) Q^H v.
#include <gtest/gtest.h>

#include <cmath>

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

}  // namespace
}  // namespace tenferro::krylov_test
