// AD through the Krylov solvers, against central finite differences of the primal solvers and
// against Hellmann-Feynman (dE0/dJ = <x0| dH/dJ |x0>).
#include <gtest/gtest.h>

#include "krylov/krylov_matrices.hpp"
#include "tenferro/ad.hpp"

namespace tenferro::krylov_test {
namespace {

double scalar(const EagerTensor& t) {
  return prims::cast(prims::real(prims::cast(t, DType::C64)), DType::F64)
      .download()
      .data<double>()[0];
}

class KrylovAd : public ::testing::TestWithParam<DType> {
 protected:
  void SetUp() override {
    dtype = GetParam();
    std::vector<cplx> s0, s1;
    for (std::int64_t i = 0; i < n; ++i) {
      s0.emplace_back(std::sin(1.7 * double(i)) * 3.0 + 0.01 * double(i));
      s1.emplace_back(std::cos(0.9 * double(i)));
    }
    const EagerTensor a0 = matrix_with_spectrum(rt, dtype, s0, 51);
    const EagerTensor a1 = matrix_with_spectrum(rt, dtype, s1, 52);
    h0 = prims::scale(a0 + prims::conj(prims::transpose(a0)), 0.5);
    h1 = prims::scale(a1 + prims::conj(prims::transpose(a1)), 0.5);
    v0 = rt->upload(testing::random_tensor(dtype, Shape{n}, 53));
    probe = rt->upload(testing::random_tensor(dtype, Shape{n}, 54));
  }
  // H(J) = H0 + J H1 on Variables, J captured.
  ad::VariableOperator hamiltonian(const ad::Variable& j) const {
    return [this, j](const ad::Variable& x) {
      return ad::add(ad::einsum("ij,j->i", {ad::Variable(h0), x}),
                     ad::mul(j, ad::einsum("ij,j->i", {ad::Variable(h1), x})));
    };
  }
  krylov::LinearOperator plain(double j) const {
    const EagerTensor m = h0 + prims::scale(h1, j);
    return matvec(m);
  }
  ad::Variable coupling(ad::GradientTape& tape, double j) const {
    return tape.watch(prims::full(rt, real_dtype(dtype), Shape{}, j));
  }
  // A phase-invariant eigenvector loss: |<probe, x>|^2.
  double overlap_loss(const EagerTensor& x) const {
    return scalar(prims::square(prims::abs(einsum("i,i->", {prims::conj(probe), x}))));
  }

  std::shared_ptr<EagerRuntime> rt = EagerRuntime::cpu();
  DType dtype = DType::F64;
  const std::int64_t n = 60;
  EagerTensor h0, h1, v0, probe;
  const krylov::EigOptions ground{.k = 1, .which = krylov::Which::SmallestAlgebraic, .tol = 1e-13};
};

TEST_P(KrylovAd, GroundEnergyFollowsHellmannFeynman) {
  const double j0 = 0.3;
  ad::GradientTape tape(rt);
  const ad::Variable j = coupling(tape, j0);
  const auto e = ad::eigsh(hamiltonian(j), v0, ground);
  const double grad = scalar(tape.gradient(e.eigenvalues[0], {j})[0]);
  const EagerTensor x = e.primal.eigenvectors[0];
  const double hf = scalar(einsum("i,ij,j->", {prims::conj(x), h1, x}));
  EXPECT_NEAR(grad, hf, 1e-10);
  const double h = 1e-5;
  const double fd = (krylov::eigsh(plain(j0 + h), v0, ground).eigenvalues[0] -
                     krylov::eigsh(plain(j0 - h), v0, ground).eigenvalues[0]) /
                    (2 * h);
  EXPECT_NEAR(grad, fd, 1e-7);
}

TEST_P(KrylovAd, EigenvectorGradientMatchesFiniteDifferences) {
  const double j0 = -0.2;
  ad::GradientTape tape(rt);
  const ad::Variable j = coupling(tape, j0);
  const auto e = ad::eigsh(hamiltonian(j), v0, ground);
  const ad::Variable ov =
      ad::einsum("i,i->", {ad::Variable(prims::conj(probe)), e.eigenvectors[0]});
  const ad::Variable loss = ad::square(ad::abs(ov));
  const double grad = scalar(tape.gradient(loss, {j})[0]);
  const double h = 1e-5;
  const double fd = (overlap_loss(krylov::eigsh(plain(j0 + h), v0, ground).eigenvectors[0]) -
                     overlap_loss(krylov::eigsh(plain(j0 - h), v0, ground).eigenvectors[0])) /
                    (2 * h);
  EXPECT_NEAR(grad, fd, 1e-6 * std::max(1.0, std::abs(fd)));
  EXPECT_GT(std::abs(fd), 1e-4) << "the check needs a loss that moves";
}

// A cotangent or tangent along the eigenvector itself (|x|^2 = 1 for every H; a tangent dH
// proportional to H): its projection off x is rounding noise, whose solve to a tolerance
// relative to itself failed with a NumericalError blaming degeneracy. The answer is 0, to the
// accuracy asked of the whole cotangent.
TEST_P(KrylovAd, CotangentAlongTheEigenvectorGivesZero) {
  const double j0 = 0.25;
  ad::GradientTape tape(rt);
  const ad::Variable j = coupling(tape, j0);
  const auto e = ad::eigsh(hamiltonian(j), v0, ground);
  const ad::Variable x = e.eigenvectors[0];
  const ad::Variable norm2 = ad::real(ad::einsum("i,i->", {ad::conj(x), x}));
  EXPECT_NEAR(scalar(tape.gradient(norm2, {j})[0]), 0.0, 1e-8);

  // H(J) = J H1: a tangent dH = H1 = H / J, whose eigenvectors do not move.
  const ad::Function along = [this](std::span<const ad::Variable> p) {
    const ad::Variable jv = p[0];
    const ad::VariableOperator h = [this, jv](const ad::Variable& v) {
      return ad::mul(jv, ad::einsum("ij,j->i", {ad::Variable(h1), v}));
    };
    return std::vector<ad::Variable>{ad::eigsh(h, v0, ground).eigenvectors[0]};
  };
  const EagerTensor jt = prims::full(rt, real_dtype(dtype), Shape{}, j0);
  const EagerTensor one = prims::ones(rt, real_dtype(dtype), Shape{});
  const std::array<EagerTensor, 1> primals{jt}, tangents{one};
  const auto [values, derivs] = ad::jvp(along, primals, tangents);
  EXPECT_LT(scalar(prims::norm(derivs[0])), 1e-8);
}

TEST_P(KrylovAd, ForwardModeGroundEnergy) {
  const double j0 = 0.1;
  const ad::Function f = [this](std::span<const ad::Variable> p) {
    return std::vector<ad::Variable>{ad::eigsh(hamiltonian(p[0]), v0, ground).eigenvalues[0]};
  };
  const EagerTensor jt = prims::full(rt, real_dtype(dtype), Shape{}, j0);
  const EagerTensor one = prims::ones(rt, real_dtype(dtype), Shape{});
  const std::array<EagerTensor, 1> primals{jt}, tangents{one};
  const auto [values, derivs] = ad::jvp(f, primals, tangents);
  const double h = 1e-5;
  const double fd = (krylov::eigsh(plain(j0 + h), v0, ground).eigenvalues[0] -
                     krylov::eigsh(plain(j0 - h), v0, ground).eigenvalues[0]) /
                    (2 * h);
  EXPECT_NEAR(scalar(derivs[0]), fd, 1e-7);
}

TEST_P(KrylovAd, CgSolutionGradient) {
  // A(J) = H0 + J H1 + 8 I is positive definite for |J| <= 1; loss = Re <probe, x>.
  const double j0 = 0.4;
  const EagerTensor shift = prims::scale(prims::eye(rt, dtype, n), 8.0);
  const auto op = [this, shift](const ad::Variable& j) {
    return ad::VariableOperator([this, shift, j](const ad::Variable& x) {
      return ad::add(ad::einsum("ij,j->i", {ad::Variable(h0 + shift), x}),
                     ad::mul(j, ad::einsum("ij,j->i", {ad::Variable(h1), x})));
    });
  };
  const krylov::SolveOptions tight{.rtol = 1e-13};
  const EagerTensor b0 = rt->upload(testing::random_tensor(dtype, Shape{n}, 55));
  ad::GradientTape tape(rt);
  const ad::Variable j = coupling(tape, j0);
  const ad::Variable b = tape.watch(b0);
  const ad::Variable x = ad::cg(op(j), b, tight);
  const ad::Variable loss = ad::real(ad::einsum("i,i->", {ad::Variable(prims::conj(probe)), x}));
  const auto g = tape.gradient(loss, {j, b});
  const auto solve = [&](double jj, const EagerTensor& bb) {
    return krylov::cg(matvec(h0 + shift + prims::scale(h1, jj)), bb, tight).x;
  };
  const double h = 1e-5;
  const double fd = (scalar(einsum("i,i->", {prims::conj(probe), solve(j0 + h, b0)})) -
                     scalar(einsum("i,i->", {prims::conj(probe), solve(j0 - h, b0)}))) /
                    (2 * h);
  EXPECT_NEAR(scalar(g[0]), fd, 1e-7);
  // d loss / d b = A^{-H} probe (the adjoint solve), checked by applying A.
  const EagerTensor ab = einsum("ij,j->i", {h0 + shift + prims::scale(h1, j0), g[1]});
  EXPECT_LT(scalar(prims::norm(ab - probe)) / scalar(prims::norm(probe)), 1e-10);
}

INSTANTIATE_TEST_SUITE_P(Dtypes, KrylovAd, ::testing::Values(DType::F64, DType::C64));

TEST(KrylovAdGmres, ReverseModeNeedsTheAdjointAndUsesIt) {
  auto rt = EagerRuntime::cpu();
  const std::int64_t n = 40;
  std::vector<cplx> spectrum;
  for (std::int64_t i = 0; i < n; ++i) spectrum.emplace_back(3.0 + std::cos(double(i)));
  const EagerTensor a0 = matrix_with_spectrum(rt, DType::F64, spectrum, 61, 0.1);
  const EagerTensor a1 = rt->upload(testing::random_tensor(DType::F64, Shape{n, n}, 62));
  const EagerTensor b0 = rt->upload(testing::random_tensor(DType::F64, Shape{n}, 63));
  const EagerTensor w = rt->upload(testing::random_tensor(DType::F64, Shape{n}, 64));
  const double j0 = 0.05;
  const auto make = [&](const ad::Variable& j, bool transposed) {
    return ad::VariableOperator([=](const ad::Variable& x) {
      const char* eq = transposed ? "ji,j->i" : "ij,j->i";
      return ad::add(ad::einsum(eq, {ad::Variable(a0), x}),
                     ad::mul(j, ad::einsum(eq, {ad::Variable(a1), x})));
    });
  };
  const krylov::SolveOptions tight{.rtol = 1e-13, .restart = 40};
  {
    ad::GradientTape tape(rt);
    const ad::Variable j = tape.watch(prims::full(rt, DType::F64, Shape{}, j0));
    const ad::Variable x = ad::gmres(make(j, false), ad::Variable(b0), tight);
    const ad::Variable loss = ad::einsum("i,i->", {ad::Variable(w), x});
    try {
      tape.gradient(loss, {j});
      FAIL() << "reverse mode without the adjoint must be refused";
    } catch (const Error& e) {
      EXPECT_EQ(reason(e)->kind(), ErrorKind::Unsupported);
    }
  }
  ad::GradientTape tape(rt);
  const ad::Variable j = tape.watch(prims::full(rt, DType::F64, Shape{}, j0));
  const ad::Variable x = ad::gmres(make(j, false), ad::Variable(b0), tight, make(j, true));
  const ad::Variable loss = ad::einsum("i,i->", {ad::Variable(w), x});
  const double grad = scalar(tape.gradient(loss, {j})[0]);
  const auto value = [&](double jj) {
    return scalar(
        einsum("i,i->", {w, krylov::gmres(matvec(a0 + prims::scale(a1, jj)), b0, tight).x}));
  };
  const double h = 1e-5;
  EXPECT_NEAR(grad, (value(j0 + h) - value(j0 - h)) / (2 * h), 1e-7);
}

// ---- expm_multiply: y = exp(t A(J)) v through a coupling J captured by the operator and v ---

// A(J) = A0 + J A1 with real J; the loss is Re <c, y>.
struct ExpmCase {
  std::shared_ptr<EagerRuntime> rt = EagerRuntime::cpu();
  EagerTensor a0, a1, v0, c, dv;  // dv: the direction of v's derivative
  cplx t;
  krylov::ExpmOptions tight{.tol = 1e-12};
  std::shared_ptr<int> recorded = std::make_shared<int>(0);  // operator calls under grad mode

  // `n` x `n` matrices of `dtype` with the given spectra (`upper` > 0: non-normal).
  ExpmCase(DType dtype, std::int64_t n, cplx t_, double width, double upper, bool hermitian)
      : t(t_) {
    std::vector<cplx> s0, s1;
    for (std::int64_t i = 0; i < n; ++i) {
      s0.emplace_back(width * std::sin(1.3 * double(i)));
      s1.emplace_back(std::cos(0.7 * double(i)));
    }
    a0 = matrix_with_spectrum(rt, dtype, s0, 71, upper);
    a1 = matrix_with_spectrum(rt, dtype, s1, 72, upper);
    if (hermitian) {
      a0 = prims::scale(a0 + prims::conj(prims::transpose(a0)), 0.5);
      a1 = prims::scale(a1 + prims::conj(prims::transpose(a1)), 0.5);
    }
    v0 = rt->upload(testing::random_tensor(dtype, Shape{n}, 73));
    dv = rt->upload(testing::random_tensor(dtype, Shape{n}, 74));
    const DType out = t.imag() != 0 ? complex_dtype(dtype) : dtype;
    c = rt->upload(testing::random_tensor(out, Shape{n}, 75));
  }
  // A(J) x, or A(J)^H x.
  ad::VariableOperator op(const ad::Variable& j, bool adjoint) const {
    return [this, j, adjoint](const ad::Variable& x) {
      if (ad::grad_enabled()) ++*recorded;
      const char* eq = adjoint ? "ji,j->i" : "ij,j->i";
      const DType d = x.value().dtype();
      const auto m = [&](const EagerTensor& a) {
        return ad::Variable(prims::cast(adjoint ? prims::conj(a) : a, d));
      };
      return ad::add(ad::einsum(eq, {m(a0), x}), ad::mul(j, ad::einsum(eq, {m(a1), x})));
    };
  }
  double loss(double j, const EagerTensor& v) const {
    const EagerTensor m = a0 + prims::scale(a1, j);
    // The working vectors are complex for a complex t: cast a real matrix to them.
    const krylov::LinearOperator plain = [m](const EagerTensor& x) {
      return einsum("ij,j->i", {prims::cast(m, x.dtype()), x});
    };
    const EagerTensor y = krylov::expm_multiply(plain, v, t, tight).x;
    return scalar(einsum("i,i->", {prims::conj(c), y}));
  }
  ad::Variable loss(const ad::Variable& y) const {
    return ad::real(ad::einsum("i,i->", {ad::Variable(prims::conj(c)), y}));
  }
  double loss_step(double j0, double dj, double h) const {
    return loss(j0 + h * dj, v0 + prims::scale(dv, h));
  }
};

// Reverse mode (d/dJ and the directional derivative along dv) and forward mode (tangent
// (1, dv)) against central differences of the primal solver.
void check_expm_derivatives(const ExpmCase& k, double j0, double rel) {
  const double h = 1e-5;
  const double fd_j = (k.loss(j0 + h, k.v0) - k.loss(j0 - h, k.v0)) / (2 * h);
  const double fd_v = (k.loss_step(j0, 0, h) - k.loss_step(j0, 0, -h)) / (2 * h);
  const double fd_both = (k.loss_step(j0, 1, h) - k.loss_step(j0, 1, -h)) / (2 * h);
  ASSERT_GT(std::abs(fd_j), 1e-2) << "the check needs a loss that moves with J";
  ASSERT_GT(std::abs(fd_v), 1e-2) << "the check needs a loss that moves with v";
  {
    ad::GradientTape tape(k.rt);
    const ad::Variable j = tape.watch(prims::full(k.rt, DType::F64, Shape{}, j0));
    const ad::Variable v = tape.watch(k.v0);
    const ad::Variable y = ad::expm_multiply(k.op(j, false), v, k.t, k.tight, k.op(j, true));
    const auto g = tape.gradient(k.loss(y), {j, v});
    EXPECT_NEAR(scalar(g[0]), fd_j, rel * std::abs(fd_j));
    EXPECT_NEAR(scalar(einsum("i,i->", {prims::conj(g[1]), k.dv})), fd_v, rel * std::abs(fd_v));
  }
  const ad::Function f = [&k](std::span<const ad::Variable> p) {
    return std::vector<ad::Variable>{
        k.loss(ad::expm_multiply(k.op(p[0], false), p[1], k.t, k.tight))};
  };
  const std::array<EagerTensor, 2> primals{prims::full(k.rt, DType::F64, Shape{}, j0), k.v0};
  const std::array<EagerTensor, 2> tangents{prims::ones(k.rt, DType::F64, Shape{}), k.dv};
  const auto [values, derivs] = ad::jvp(f, primals, tangents);
  EXPECT_NEAR(scalar(derivs[0]), fd_both, rel * std::abs(fd_both));
}

TEST(KrylovAdExpm, RealSymmetricRealTime) {
  const ExpmCase k(DType::F64, 30, 0.7, 2.0, 0.0, true);
  check_expm_derivatives(k, 0.3, 1e-7);
}

TEST(KrylovAdExpm, HermitianSchrodingerStep) {
  // exp(-i H dt) v for a complex Hermitian H.
  const ExpmCase k(DType::C64, 30, cplx(0, -0.9), 2.0, 0.0, true);
  check_expm_derivatives(k, -0.4, 1e-7);
}

TEST(KrylovAdExpm, NonHermitianRealWithExplicitAdjoint) {
  const ExpmCase k(DType::F64, 30, 0.5, 1.5, 0.3, false);
  check_expm_derivatives(k, 0.2, 1e-7);
}

TEST(KrylovAdExpm, RealOperatorComplexTimeGivesComplexOutput) {
  // Real A and v, complex t: y is complex, v's cotangent is the real part of exp(conj(t) A^T) g.
  const ExpmCase k(DType::F64, 30, cplx(0.4, -0.6), 1.5, 0.3, false);
  check_expm_derivatives(k, 0.2, 1e-7);
}

TEST(KrylovAdExpm, LongSpanUsesSeveralQuadraturePieces) {
  // |t| ||A|| ~ 25: more nodes than one piece holds (16), so [0, 1] is split.
  const ExpmCase k(DType::C64, 30, cplx(0, -8.0), 3.0, 0.0, true);
  check_expm_derivatives(k, 0.1, 1e-7);
  *k.recorded = 0;
  ad::GradientTape tape(k.rt);
  const ad::Variable j = tape.watch(prims::full(k.rt, DType::F64, Shape{}, 0.1));
  (void)ad::expm_multiply(k.op(j, false), ad::Variable(k.v0), k.t, k.tight);
  EXPECT_GT(*k.recorded, 17) << "one recorded matvec per node (and one probe)";
}

TEST(KrylovAdExpm, Float32FollowsFloat64) {
  // The default tolerance (100 eps of F32) for the primal, the rules and the quadrature.
  const auto grad = [](DType dtype) {
    ExpmCase k(dtype, 20, cplx(0, -0.9), 2.0, 0.0, true);
    k.tight = {};
    ad::GradientTape tape(k.rt);
    const ad::Variable j = tape.watch(prims::full(k.rt, real_dtype(dtype), Shape{}, 0.3));
    const ad::Variable y =
        ad::expm_multiply(k.op(j, false), ad::Variable(k.v0), k.t, k.tight, k.op(j, true));
    return scalar(tape.gradient(k.loss(y), {j})[0]);
  };
  const double g64 = grad(DType::F64), g32 = grad(DType::F32);
  ASSERT_GT(std::abs(g64), 1e-2);
  EXPECT_NEAR(g32, g64, 1e-4 * std::abs(g64));
}

TEST(KrylovAdExpm, ReverseModeWithoutAdjointIsUnsupported) {
  const ExpmCase k(DType::F64, 20, 0.5, 1.5, 0.3, false);
  ad::GradientTape tape(k.rt);
  const ad::Variable j = tape.watch(prims::full(k.rt, DType::F64, Shape{}, 0.2));
  const ad::Variable y = ad::expm_multiply(k.op(j, false), ad::Variable(k.v0), k.t, k.tight);
  try {
    tape.gradient(k.loss(y), {j});
    FAIL() << "reverse mode without the adjoint must be refused";
  } catch (const Error& e) {
    EXPECT_EQ(reason(e)->kind(), ErrorKind::Unsupported);
  }
}

}  // namespace
}  // namespace tenferro::krylov_test
