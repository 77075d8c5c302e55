// The Krylov solvers on a CUDA runtime: every vector operation runs on the device (no CPU kernel
// launch, no tensor transfer; only the counted scalar reads and writes cross), in double
// precision, against the same solvers on a CPU runtime and against spectra known by
// construction; AD through eigsh on device tensors follows Hellmann-Feynman. Skipped without a
// device; scripts/gpu-check.sh runs it with TENFERRO_REQUIRE_CUDA=1.
#include <gtest/gtest.h>

#include "tenferro/config.hpp"
#if TENFERRO_HAS_CUDA

#include <algorithm>
#include <cmath>
#include <complex>
#include <numbers>

#include "cuda_fixture.hpp"
#include "krylov/krylov_matrices.hpp"
#include "tenferro/ad.hpp"
#include "tenferro/einsum.hpp"
#include "tenferro/krylov.hpp"
#include "tenferro/prims.hpp"
#include "tenferro/runtime/stats.hpp"

namespace tenferro::cuda_test {
namespace {

using krylov_test::cplx;
using krylov_test::matrix_with_spectrum;
using krylov_test::matvec;

using KrylovCuda = CudaTest;

// The 1-D Laplacian (2 on the diagonal, -1 beside it): eigenvalues 2 - 2 cos(pi j / (n + 1)).
Tensor laplacian(DType dtype, std::int64_t n) {
  std::vector<cplx> values(static_cast<std::size_t>(n * n));
  for (std::int64_t i = 0; i < n; ++i) {
    values[static_cast<std::size_t>(i + i * n)] = 2.0;
    if (i + 1 < n)
      values[static_cast<std::size_t>(i + (i + 1) * n)] =
          values[static_cast<std::size_t>(i + 1 + i * n)] = -1.0;
  }
  return krylov_test::host_vector(dtype, values).reshape(Shape{n, n});
}

// Largest |a_i - b_i| of two host tensors of one dtype and shape.
double max_abs_difference(const Tensor& a, const Tensor& b) {
  return visit_dtype(a.dtype(), [&](auto zero) {
    using T = decltype(zero);
    double worst = 0;
    for (std::int64_t i = 0; i < a.numel(); ++i)
      worst = std::max(worst, static_cast<double>(std::abs(a.data<T>()[i] - b.data<T>()[i])));
    return worst;
  });
}

TEST_F(KrylovCuda, EigshFindsTheLowestLaplacianModesOnTheDevice) {
  const std::int64_t n = 300;
  const EagerTensor a = runtime_->upload(laplacian(DType::F64, n));
  const EagerTensor v0 = runtime_->upload(random_tensor(DType::F64, Shape{n}, 3));
  const auto before = runtime_->stats();
  const std::uint64_t cpu_before = process_cpu_kernel_launches();
  const auto r = krylov::eigsh(matvec(a), v0,
                               {.k = 3, .which = krylov::Which::SmallestAlgebraic, .tol = 1e-12});
  EXPECT_EQ(process_cpu_kernel_launches(), cpu_before) << "no CPU kernel for a CUDA runtime";
  const auto after = runtime_->stats();
  for (int j = 0; j < 3; ++j) {
    const double exact = 2.0 - 2.0 * std::cos(std::numbers::pi * double(j + 1) / double(n + 1));
    EXPECT_NEAR(r.eigenvalues[static_cast<std::size_t>(j)], exact, 1e-10) << j;
    // A x = theta x, checked on the host from the device's vector.
    const Tensor x = r.eigenvectors[static_cast<std::size_t>(j)].download();
    const Tensor ax =
        einsum("ij,j->i", {a, r.eigenvectors[static_cast<std::size_t>(j)]}).download();
    double residual = 0;
    for (std::int64_t i = 0; i < n; ++i)
      residual = std::max(
          residual, std::abs(ax.data<double>()[i] -
                             r.eigenvalues[static_cast<std::size_t>(j)] * x.data<double>()[i]));
    EXPECT_LT(residual, 1e-9) << j;
  }
  EXPECT_EQ(r.eigenvectors[0].placement(), v0.placement());
  EXPECT_EQ(after.uploads, before.uploads);
  EXPECT_EQ(after.downloads, before.downloads);
  EXPECT_GT(after.scalar_reads, before.scalar_reads) << "the projected problem reads scalars";
}

TEST_F(KrylovCuda, EigsOfANonNormalOperatorMatchesItsKnownSpectrum) {
  // tests/krylov/eigen_test.cpp's CPU case, on the device.
  const std::int64_t n = 80;
  const std::vector<cplx> spectrum = krylov_test::non_normal_test_spectrum(n);
  const EagerTensor a = matrix_with_spectrum(runtime_, DType::C64, spectrum, 21, /*upper=*/0.05);
  const EagerTensor v0 = runtime_->upload(random_tensor(DType::C64, Shape{n}, 4));
  const auto r =
      krylov::eigs(matvec(a), v0, {.k = 3, .which = krylov::Which::LargestMagnitude, .tol = 1e-12});
  std::vector<cplx> expected = spectrum;
  std::sort(expected.begin(), expected.end(),
            [](cplx x, cplx y) { return std::abs(x) > std::abs(y); });
  for (std::size_t i = 0; i < 3; ++i)
    EXPECT_LT(std::abs(r.eigenvalues[i] - expected[i]), 1e-9) << i;
  EXPECT_EQ(r.eigenvectors[0].placement(), v0.placement());
}

TEST_F(KrylovCuda, ExpmMultiplyAgreesWithTheCpuRuntime) {
  // exp(-i H t) v for the Laplacian, t = 2: the same call on a CPU runtime is the reference.
  const std::int64_t n = 80;
  const Tensor h = laplacian(DType::C64, n);
  const Tensor v = random_tensor(DType::C64, Shape{n}, 5);
  const auto run = [&](const std::shared_ptr<EagerRuntime>& rt) {
    return krylov::expm_multiply(matvec(rt->upload(h)), rt->upload(v), {0.0, -2.0}, {.tol = 1e-13});
  };
  const std::uint64_t cpu_before = process_cpu_kernel_launches();
  const auto on_device = run(runtime_);
  EXPECT_EQ(process_cpu_kernel_launches(), cpu_before) << "no CPU kernel for a CUDA runtime";
  const auto on_cpu = run(EagerRuntime::cpu());
  EXPECT_LT(max_abs_difference(on_device.x.download(), on_cpu.x.download()), 1e-11);
  EXPECT_EQ(on_device.x.placement(), runtime_->backend().placement());
}

TEST_F(KrylovCuda, LinearSolversAgreeWithTheCpuRuntime) {
  // An SPD operator (cg, minres) and a non-symmetric one (gmres), solutions against the CPU's.
  const std::int64_t n = 70;
  std::vector<cplx> positive, general;
  for (std::int64_t i = 0; i < n; ++i) {
    positive.emplace_back(1.0 + 0.1 * double(i));
    general.emplace_back(2.0 + std::cos(double(i)), 0.0);
  }
  const Tensor b = random_tensor(DType::F64, Shape{n}, 9);
  const krylov::SolveOptions tight{.rtol = 1e-12, .restart = 40};
  const auto solve_all = [&](const std::shared_ptr<EagerRuntime>& rt) {
    const EagerTensor spd = matrix_with_spectrum(rt, DType::F64, positive, 41);
    const EagerTensor nonsym = matrix_with_spectrum(rt, DType::F64, general, 42, 0.4);
    const EagerTensor rhs = rt->upload(b);
    return std::array<EagerTensor, 3>{krylov::cg(matvec(spd), rhs, tight).x,
                                      krylov::minres(matvec(spd), rhs, tight).x,
                                      krylov::gmres(matvec(nonsym), rhs, tight).x};
  };
  const auto on_device = solve_all(runtime_);
  const auto on_cpu = solve_all(EagerRuntime::cpu());
  for (std::size_t s = 0; s < 3; ++s) {
    EXPECT_EQ(on_device[s].placement(), runtime_->backend().placement()) << s;
    EXPECT_LT(max_abs_difference(on_device[s].download(), on_cpu[s].download()), 1e-9) << s;
  }
}

TEST_F(KrylovCuda, GroundEnergyGradientFollowsHellmannFeynmanOnTheDevice) {
  // H(J) = H0 + J H1 on device tensors: dE0/dJ = <x0| H1 |x0>, all of it on the CUDA runtime.
  const std::int64_t n = 50;
  std::vector<cplx> s0, s1;
  for (std::int64_t i = 0; i < n; ++i) {
    s0.emplace_back(std::sin(1.7 * double(i)) * 3.0 + 0.01 * double(i));
    s1.emplace_back(std::cos(0.9 * double(i)));
  }
  const EagerTensor a0 = matrix_with_spectrum(runtime_, DType::C64, s0, 51);
  const EagerTensor a1 = matrix_with_spectrum(runtime_, DType::C64, s1, 52);
  const EagerTensor h0 = prims::scale(a0 + prims::conj(prims::transpose(a0)), 0.5);
  const EagerTensor h1 = prims::scale(a1 + prims::conj(prims::transpose(a1)), 0.5);
  const EagerTensor v0 = runtime_->upload(random_tensor(DType::C64, Shape{n}, 53));
  const krylov::EigOptions ground{.k = 1, .which = krylov::Which::SmallestAlgebraic, .tol = 1e-13};
  ad::GradientTape tape(runtime_);
  const ad::Variable j = tape.watch(prims::full(runtime_, DType::F64, Shape{}, 0.3));
  const ad::VariableOperator h = [&](const ad::Variable& x) {
    return ad::add(ad::einsum("ij,j->i", {ad::Variable(h0), x}),
                   ad::mul(j, ad::einsum("ij,j->i", {ad::Variable(h1), x})));
  };
  const auto e = ad::eigsh(h, v0, ground);
  const EagerTensor grad = tape.gradient(e.eigenvalues[0], {j})[0];
  EXPECT_EQ(grad.placement(), runtime_->backend().placement());
  const EagerTensor x = e.primal.eigenvectors[0];
  const cplx hf = einsum("i,ij,j->", {prims::conj(x), h1, x}).download().data<cplx>()[0];
  EXPECT_NEAR(grad.download().data<double>()[0], hf.real(), 1e-10);
}

}  // namespace
}  // namespace tenferro::cuda_test

#endif  // TENFERRO_HAS_CUDA
