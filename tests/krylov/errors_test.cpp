// Bad arguments are typed errors before the solver uses a result; non-convergence is a
// NotConvergedError carrying the best iterate; the runtime stays usable afterwards.
#include <gtest/gtest.h>

#include "support/error_kind.hpp"

#include "krylov/krylov_matrices.hpp"

namespace tenferro::krylov_test {
namespace {

using testing::kind_of;

class KrylovErrors : public ::testing::Test {
 protected:
  std::shared_ptr<EagerRuntime> rt = EagerRuntime::cpu();
  EagerTensor a = prims::scale(prims::eye(rt, DType::F64, 8), 2.0);
  EagerTensor v0 = rt->upload(testing::random_tensor(DType::F64, Shape{8}, 1));
};

TEST_F(KrylovErrors, KOutOfRange) {
  EXPECT_EQ(kind_of([&] { krylov::eigsh(matvec(a), v0, {.k = 8}); }), ErrorKind::Validation);
  EXPECT_EQ(kind_of([&] { krylov::eigsh(matvec(a), v0, {.k = 0}); }), ErrorKind::Validation);
  EXPECT_EQ(kind_of([&] { krylov::eigs(matvec(a), v0, {.k = 7}); }), ErrorKind::Validation);
  EXPECT_EQ(kind_of([&] { krylov::eigsh(matvec(a), v0, {.k = 2, .ncv = 2}); }),
            ErrorKind::Validation);
  EXPECT_EQ(
      kind_of([&] { krylov::eigsh(matvec(a), v0, {.which = krylov::Which::LargestImaginary}); }),
      ErrorKind::Validation);
}

TEST_F(KrylovErrors, WhichCodes) {
  EXPECT_EQ(krylov::which_from_string("SA"), krylov::Which::SmallestAlgebraic);
  EXPECT_EQ(krylov::which_from_string("LR"), krylov::Which::LargestAlgebraic);
  EXPECT_EQ(krylov::which_name(krylov::Which::SmallestMagnitude), "SM");
  EXPECT_EQ(kind_of([] { krylov::which_from_string("XX"); }), ErrorKind::Validation);
}

TEST_F(KrylovErrors, OperatorThatChangesShapeOrDtype) {
  const krylov::LinearOperator grows = [](const EagerTensor& x) {
    return prims::concatenate(std::vector<EagerTensor>{x, x}, 0);
  };
  EXPECT_EQ(kind_of([&] { krylov::eigsh(grows, v0); }), ErrorKind::Validation);
  const krylov::LinearOperator complexifies = [](const EagerTensor& x) {
    return prims::cast(x, DType::C64);
  };
  EXPECT_EQ(kind_of([&] { krylov::gmres(complexifies, v0); }), ErrorKind::Validation);
  const krylov::LinearOperator empty;
  EXPECT_EQ(kind_of([&] { krylov::cg(empty, v0); }), ErrorKind::Validation);
}

TEST_F(KrylovErrors, OperatorReturningAnotherRuntimesTensor) {
  auto other = EagerRuntime::cpu();
  const krylov::LinearOperator elsewhere = [other](const EagerTensor& x) {
    return prims::zeros(other, x.dtype(), x.shape());
  };
  EXPECT_EQ(kind_of([&] { krylov::eigsh(elsewhere, v0); }), ErrorKind::ContextMismatch);
  const EagerTensor b_elsewhere = other->upload(testing::random_tensor(DType::F64, Shape{8}, 2));
  EXPECT_EQ(kind_of([&] { krylov::gmres(matvec(a), v0, {.x0 = b_elsewhere}); }),
            ErrorKind::ContextMismatch);
}

TEST_F(KrylovErrors, ZeroOrEmptyStartVector) {
  EXPECT_EQ(kind_of([&] { krylov::eigsh(matvec(a), prims::zeros(rt, DType::F64, Shape{8})); }),
            ErrorKind::Validation);
  EXPECT_EQ(kind_of([&] { krylov::eigsh(matvec(a), EagerTensor{}); }), ErrorKind::Validation);
}

TEST_F(KrylovErrors, NonFiniteOperatorIsNumerical) {
  const krylov::LinearOperator nan_op = [](const EagerTensor& x) {
    return prims::scale(x, std::numeric_limits<double>::quiet_NaN());
  };
  EXPECT_EQ(kind_of([&] { krylov::eigsh(nan_op, v0); }), ErrorKind::Numerical);
}

TEST_F(KrylovErrors, NonConvergenceCarriesTheBestIterate) {
  const std::int64_t n = 200;
  std::vector<cplx> spectrum;
  for (std::int64_t i = 0; i < n; ++i) spectrum.emplace_back(1.0 + double(i));
  const EagerTensor big = matrix_with_spectrum(rt, DType::F64, spectrum, 3);
  const EagerTensor h = prims::scale(big + prims::transpose(big), 0.5);
  const EagerTensor start = rt->upload(testing::random_tensor(DType::F64, Shape{n}, 4));
  try {
    krylov::eigsh(matvec(h), start,
                  {.k = 1, .which = krylov::Which::SmallestAlgebraic, .maxiter = 1, .ncv = 5});
    FAIL() << "expected NotConvergedError";
  } catch (const krylov::NotConvergedError& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Numerical);
    ASSERT_EQ(e.best().size(), 1u);
    EXPECT_EQ(e.best()[0].shape(), (Shape{n}));
    ASSERT_EQ(e.residual_norms().size(), 1u);
    EXPECT_GT(e.residual_norms()[0], 0.0);
    // The reported residual is the true one of the returned vector (Lanczos estimate).
    const double rq =
        einsum("i,ij,j->", {e.best()[0], h, e.best()[0]}).download().data<double>()[0];
    EXPECT_NEAR(residual(matvec(h), e.best()[0], rq), e.residual_norms()[0],
                1e-6 * e.residual_norms()[0]);
  }
  try {
    krylov::cg(matvec(h), start, {.rtol = 1e-14, .maxiter = 3});
    FAIL() << "expected NotConvergedError";
  } catch (const krylov::NotConvergedError& e) {
    ASSERT_EQ(e.best().size(), 1u);
    EXPECT_GT(e.residual_norms()[0], 0.0);
  }
  // The runtime is still usable.
  EXPECT_NO_THROW(
      krylov::eigsh(matvec(h), start, {.k = 1, .which = krylov::Which::LargestAlgebraic}));
}

TEST_F(KrylovErrors, IndefiniteOperatorInCgIsNumerical) {
  std::vector<cplx> spectrum;
  for (int i = 0; i < 8; ++i) spectrum.emplace_back(i % 2 ? -1.0 - i : 1.0 + i);
  const EagerTensor m = matrix_with_spectrum(rt, DType::F64, spectrum, 9);
  EXPECT_EQ(kind_of([&] {
              krylov::cg(matvec(prims::scale(m + prims::transpose(m), 0.5)), v0, {.rtol = 1e-12});
            }),
            ErrorKind::Numerical);
}

// eigsh on an operator that is not Hermitian refuses it (Lanczos gave an eigenvalue of its
// Hermitian part with no error); a Hermitian one with rounding-level asymmetry (a random
// perturbation of 1e-13 of its norm) and eigs on the general one still run; so does the
// runtime afterwards.
TEST_F(KrylovErrors, EigshRefusesAnOperatorThatIsNotHermitian) {
  const std::int64_t n = 30;
  for (DType dtype : {DType::F64, DType::C64, DType::F32}) {
    const EagerTensor g = rt->upload(testing::random_tensor(dtype, Shape{n, n}, 4));
    const EagerTensor start = rt->upload(testing::random_tensor(dtype, Shape{n}, 5));
    EXPECT_EQ(kind_of([&] { krylov::eigsh(matvec(g), start, {.k = 2}); }), ErrorKind::Validation)
        << dtype_name(dtype);
    // Its Hermitian part (g + g^H) / 2, and the same with a non-Hermitian perturbation at
    // rounding level: both accepted, with the same eigenvalues.
    const EagerTensor h = prims::scale(g + prims::conj(prims::transpose(g)), 0.5);
    const EagerTensor noise = rt->upload(testing::random_tensor(dtype, Shape{n, n}, 6));
    const double tiny = dtype == DType::F32 ? 1e-6 : 1e-13;
    const auto near = krylov::eigsh(matvec(h + prims::scale(noise, tiny)), start,
                                    {.k = 2, .which = krylov::Which::LargestAlgebraic});
    const auto exact =
        krylov::eigsh(matvec(h), start, {.k = 2, .which = krylov::Which::LargestAlgebraic});
    for (std::size_t i = 0; i < 2; ++i)
      EXPECT_NEAR(near.eigenvalues[i], exact.eigenvalues[i], dtype == DType::F32 ? 1e-3 : 1e-9);
    // (eigs's vectors are complex: matvec here takes a complex matrix only.)
    if (is_complex(dtype)) {
      EXPECT_NO_THROW(krylov::eigs(matvec(g), start, {.k = 2}));
    }
  }
}

}  // namespace
}  // namespace tenferro::krylov_test
