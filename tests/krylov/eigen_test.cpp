// eigsh and eigs against spectra known by construction (krylov_matrices.hpp).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "krylov/krylov_matrices.hpp"

namespace tenferro::krylov_test {
namespace {

struct EigshCase {
  DType dtype;
  std::int64_t k;
  krylov::Which which;
  bool degenerate;
};

class EigshKnownSpectrum : public ::testing::TestWithParam<EigshCase> {};

TEST_P(EigshKnownSpectrum, FindsTheWantedEigenpairs) {
  const EigshCase c = GetParam();
  const std::int64_t n = 120;
  std::vector<cplx> spectrum;
  for (std::int64_t i = 0; i < n; ++i)
    spectrum.emplace_back(-3.0 + 6.0 * std::sin(0.37 * double(i) + 0.1 * double(i * i % 7)));
  if (c.degenerate) {  // the three lowest and the two highest values repeated
    auto by_real = [](cplx x, cplx y) { return x.real() < y.real(); };
    auto lo = std::min_element(spectrum.begin(), spectrum.end(), by_real);
    auto hi = std::max_element(spectrum.begin(), spectrum.end(), by_real);
    const cplx low = *lo - 0.5, high = *hi + 0.5;
    spectrum[3] = spectrum[40] = spectrum[77] = low;
    spectrum[5] = spectrum[90] = high;
  }
  auto rt = EagerRuntime::cpu();
  const EagerTensor a = matrix_with_spectrum(rt, c.dtype, spectrum, 7);
  // The constructed matrix is Hermitian up to rounding: symmetrise so eigsh's premise holds.
  const EagerTensor h = prims::scale(a + prims::conj(prims::transpose(a)), 0.5);
  const auto op = matvec(h);
  const EagerTensor v0 = rt->upload(testing::random_tensor(c.dtype, Shape{n}, 11));

  const auto before = rt->stats();
  const auto r = krylov::eigsh(op, v0, {.k = c.k, .which = c.which, .tol = 1e-12});
  const auto after = rt->stats();

  std::vector<double> expected;
  for (const cplx& z : spectrum) expected.push_back(z.real());
  std::sort(expected.begin(), expected.end());
  if (c.which == krylov::Which::LargestAlgebraic) std::reverse(expected.begin(), expected.end());
  ASSERT_EQ(r.eigenvalues.size(), static_cast<std::size_t>(c.k));
  ASSERT_EQ(r.eigenvectors.size(), static_cast<std::size_t>(c.k));
  for (std::int64_t i = 0; i < c.k; ++i) {
    EXPECT_NEAR(r.eigenvalues[static_cast<std::size_t>(i)], expected[static_cast<std::size_t>(i)],
                1e-10)
        << "pair " << i;
    EXPECT_LT(residual(op, r.eigenvectors[static_cast<std::size_t>(i)],
                       r.eigenvalues[static_cast<std::size_t>(i)]),
              1e-9)
        << "pair " << i;
  }
  // Orthonormal eigenvectors, also inside a degenerate eigenspace.
  for (std::int64_t i = 0; i < c.k; ++i) {
    for (std::int64_t j = 0; j <= i; ++j) {
      const EagerTensor d =
          einsum("i,i->", {prims::conj(r.eigenvectors[static_cast<std::size_t>(i)]),
                           r.eigenvectors[static_cast<std::size_t>(j)]});
      const double mag = prims::cast(prims::abs(d), DType::F64).download().data<double>()[0];
      EXPECT_NEAR(mag, i == j ? 1.0 : 0.0, 1e-10) << i << "," << j;
    }
  }
  // The solver moved no tensor: scalar reads and writes only, one read per matvec plus the
  // start vector's norm, one write per restart plus the final combination.
  EXPECT_EQ(after.uploads, before.uploads);
  EXPECT_EQ(after.downloads, before.downloads);
  EXPECT_EQ(after.scalar_reads - before.scalar_reads, static_cast<std::uint64_t>(r.matvecs + 1));
  EXPECT_EQ(after.scalar_writes - before.scalar_writes, static_cast<std::uint64_t>(r.restarts + 1));
}

INSTANTIATE_TEST_SUITE_P(
    Spectra, EigshKnownSpectrum,
    ::testing::Values(EigshCase{DType::F64, 1, krylov::Which::SmallestAlgebraic, false},
                      EigshCase{DType::F64, 6, krylov::Which::LargestAlgebraic, false},
                      EigshCase{DType::C64, 4, krylov::Which::SmallestAlgebraic, false},
                      EigshCase{DType::F64, 5, krylov::Which::SmallestAlgebraic, true},
                      EigshCase{DType::C64, 6, krylov::Which::LargestAlgebraic, true}));

TEST(Eigsh, LargestMagnitudeOnTensorShapedVectors) {
  // The operator acts on [4, 5, 3] tensors (a 60-dimensional space), as a DMRG effective
  // Hamiltonian acts on a two-site tensor.
  auto rt = EagerRuntime::cpu();
  std::vector<cplx> spectrum;
  for (int i = 0; i < 60; ++i) spectrum.emplace_back(0.1 * i - 4.0);
  const EagerTensor a = matrix_with_spectrum(rt, DType::F64, spectrum, 3);
  const EagerTensor h =
      prims::reshape(prims::scale(a + prims::transpose(a), 0.5), Shape{4, 5, 3, 4, 5, 3});
  const krylov::LinearOperator op = [h](const EagerTensor& x) {
    return einsum("abcdef,def->abc", {h, x});
  };
  const EagerTensor v0 = rt->upload(testing::random_tensor(DType::F64, Shape{4, 5, 3}, 5));
  const auto r = krylov::eigsh(op, v0, {.k = 2, .which = krylov::Which::LargestMagnitude});
  EXPECT_NEAR(r.eigenvalues[0], -4.0, 1e-12);
  EXPECT_NEAR(r.eigenvalues[1], -3.9, 1e-12);
  EXPECT_EQ(r.eigenvectors[0].shape(), (Shape{4, 5, 3}));
  EXPECT_LT(residual(op, r.eigenvectors[0], r.eigenvalues[0]), 1e-10);
}

TEST(Eigs, FindsEigenvaluesOfANonNormalOperator) {
  auto rt = EagerRuntime::cpu();
  const std::int64_t n = 80;
  const std::vector<cplx> spectrum = non_normal_test_spectrum(n);
  const EagerTensor a = matrix_with_spectrum(rt, DType::C64, spectrum, 21, /*upper=*/0.05);
  const auto op = matvec(a);
  const EagerTensor v0 = rt->upload(testing::random_tensor(DType::C64, Shape{n}, 4));
  const auto r =
      krylov::eigs(op, v0, {.k = 3, .which = krylov::Which::LargestMagnitude, .tol = 1e-12});
  std::vector<cplx> expected = spectrum;
  std::sort(expected.begin(), expected.end(),
            [](cplx x, cplx y) { return std::abs(x) > std::abs(y); });
  for (int i = 0; i < 3; ++i) {
    EXPECT_NEAR(std::abs(r.eigenvalues[static_cast<std::size_t>(i)] -
                         expected[static_cast<std::size_t>(i)]),
                0.0, 1e-9)
        << i;
    EXPECT_LT(residual(op, r.eigenvectors[static_cast<std::size_t>(i)],
                       r.eigenvalues[static_cast<std::size_t>(i)]),
              1e-8)
        << i;
  }
}

TEST(Eigs, RealStartVectorGivesComplexEigenpairs) {
  // A real rotation-like operator: its dominant eigenvalues are a complex-conjugate pair.
  auto rt = EagerRuntime::cpu();
  const std::int64_t n = 40;
  std::vector<double> m(static_cast<std::size_t>(n * n), 0.0);
  for (std::int64_t i = 2; i < n; ++i) m[static_cast<std::size_t>(i + i * n)] = 0.01 * double(i);
  m[0 + 1 * n] = 3.0;  // the block [[0, 3], [-3, 0]]: eigenvalues +-3i
  m[1 + 0 * n] = -3.0;
  const EagerTensor a =
      rt->upload(Tensor::from_col_major<double>(Shape{n, n}, std::span<const double>(m)));
  const EagerTensor v0 = rt->upload(testing::random_tensor(DType::F64, Shape{n}, 9));
  // eigs works in the complex dtype: the operator meets complex vectors and says how a real
  // matrix acts on them (einsum wants one dtype).
  const krylov::LinearOperator op = [a](const EagerTensor& x) {
    return einsum("ij,j->i", {prims::cast(a, x.dtype()), x});
  };
  const auto r = krylov::eigs(op, v0, {.k = 3, .which = krylov::Which::LargestMagnitude});
  EXPECT_EQ(r.eigenvectors[0].dtype(), DType::C64);
  // +-3i (either first), then the largest real one, 0.39.
  EXPECT_NEAR(std::abs(r.eigenvalues[0] * r.eigenvalues[1] - cplx(9, 0)), 0.0, 1e-10);
  EXPECT_NEAR(std::abs(r.eigenvalues[0] + r.eigenvalues[1]), 0.0, 1e-10);
  EXPECT_NEAR(std::abs(r.eigenvalues[2] - cplx(0.39, 0)), 0.0, 1e-10);
  for (int i = 0; i < 3; ++i)
    EXPECT_LT(residual(op, r.eigenvectors[static_cast<std::size_t>(i)],
                       r.eigenvalues[static_cast<std::size_t>(i)]),
              1e-9);
}

}  // namespace
}  // namespace tenferro::krylov_test
