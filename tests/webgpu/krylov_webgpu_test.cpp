// The Krylov solvers on a WebGPU runtime (lavapipe in CI): every vector operation runs on the
// device; only the counted scalar reads and writes cross, never a tensor.
#include <gtest/gtest.h>

#include <cmath>

#include "tenferro/einsum.hpp"
#include "tenferro/krylov.hpp"
#include "tenferro/linalg.hpp"
#include "tenferro/prims.hpp"
#include "webgpu/webgpu_fixture.hpp"

namespace tenferro::webgpu_test {
namespace {

using KrylovWebGpu = WebGpuTest;

TEST_F(KrylovWebGpu, EigshFindsTheHighestLaplacianModes) {
  const std::int64_t n = 64;
  Tensor h = Tensor::zeros(DType::F32, Shape{n, n});
  for (std::int64_t i = 0; i < n; ++i) {
    h.data<float>()[i + i * n] = 2.0f;
    if (i + 1 < n) h.data<float>()[i + (i + 1) * n] = h.data<float>()[i + 1 + i * n] = -1.0f;
  }
  const EagerTensor a = runtime_->upload(h);
  const krylov::LinearOperator op = [a](const EagerTensor& x) { return einsum("ij,j->i", {a, x}); };
  const EagerTensor v0 = runtime_->upload(random_tensor(DType::F32, Shape{n}, 3));
  const auto before = runtime_->stats();
  const auto r =
      krylov::eigsh(op, v0, {.k = 2, .which = krylov::Which::LargestAlgebraic, .tol = 1e-5});
  const auto after = runtime_->stats();
  for (int j = 0; j < 2; ++j) {
    const double exact = 2.0 - 2.0 * std::cos(M_PI * double(n - j) / double(n + 1));
    EXPECT_NEAR(r.eigenvalues[static_cast<std::size_t>(j)], exact, 1e-4) << j;
  }
  EXPECT_EQ(r.eigenvectors[0].placement(), v0.placement());
  EXPECT_EQ(after.uploads, before.uploads);
  EXPECT_EQ(after.downloads, before.downloads);
  EXPECT_EQ(after.scalar_reads - before.scalar_reads, static_cast<std::uint64_t>(r.matvecs + 1));
}

TEST_F(KrylovWebGpu, ExpmMultiplyEvolvesOnTheDevice) {
  // exp(-i H t) v for the Laplacian: compared with the same product on a CPU runtime in F64.
  const std::int64_t n = 48;
  Tensor h = Tensor::zeros(DType::C32, Shape{n, n});
  for (std::int64_t i = 0; i < n; ++i) {
    h.data<std::complex<float>>()[i + i * n] = 2.0f;
    if (i + 1 < n)
      h.data<std::complex<float>>()[i + (i + 1) * n] =
          h.data<std::complex<float>>()[i + 1 + i * n] = -1.0f;
  }
  const Tensor v_host = random_tensor(DType::C32, Shape{n}, 5);
  const auto run = [&](const std::shared_ptr<EagerRuntime>& rt, DType dtype) {
    const EagerTensor a = prims::cast(rt->upload(h), dtype);
    const krylov::LinearOperator op = [a](const EagerTensor& x) {
      return einsum("ij,j->i", {a, x});
    };
    return krylov::expm_multiply(op, prims::cast(rt->upload(v_host), dtype), {0.0, -2.0},
                                 {.tol = 1e-5});
  };
  const std::uint64_t cpu_before = process_cpu_kernel_launches();
  const auto on_gpu = run(runtime_, DType::C32);
  EXPECT_EQ(process_cpu_kernel_launches(), cpu_before) << "no CPU kernel for a WebGPU runtime";
  const auto cpu = EagerRuntime::cpu();
  const auto reference = run(cpu, DType::C64);
  const Tensor got = on_gpu.x.download();
  const Tensor want = reference.x.download();
  double err = 0, scale = 0;
  for (std::int64_t i = 0; i < n; ++i) {
    err += std::norm(std::complex<double>(got.data<std::complex<float>>()[i]) -
                     want.data<std::complex<double>>()[i]);
    scale += std::norm(want.data<std::complex<double>>()[i]);
  }
  EXPECT_LT(std::sqrt(err / scale), 1e-4);
}

TEST_F(KrylovWebGpu, SvdsTruncatesOnTheDevice) {
  // The truncation a WebGPU DMRG needs (linalg has no WebGPU rows): the 5 largest singular
  // triplets of a 24 x 16 matrix, against linalg::svd on a CPU runtime in F64.
  const Tensor host = random_tensor(DType::F32, Shape{24, 16}, 8);
  const EagerTensor a = runtime_->upload(host);
  const auto before = runtime_->stats();
  const std::uint64_t cpu_before = process_cpu_kernel_launches();
  const auto r = krylov::svds(a, 5, 1e-6);
  EXPECT_EQ(process_cpu_kernel_launches(), cpu_before) << "no CPU kernel for a WebGPU runtime";
  const auto after = runtime_->stats();
  EXPECT_EQ(after.uploads, before.uploads);
  EXPECT_EQ(after.downloads, before.downloads);
  EXPECT_EQ(r.u.placement(), a.placement());
  const auto cpu = EagerRuntime::cpu();
  const Tensor s_ref = linalg::svd(prims::cast(cpu->upload(host), DType::F64)).s.download();
  for (int i = 0; i < 5; ++i) {
    EXPECT_NEAR(r.singular_values[static_cast<std::size_t>(i)], s_ref.data<double>()[i],
                1e-4 * s_ref.data<double>()[0])
        << i;
  }
  // U S Vh reproduces A up to the discarded singular values' weight.
  const Tensor approx = einsum("ik,k,kj->ij", {r.u, r.s, r.vh}).download();
  double err = 0, discarded = 0;
  for (std::int64_t i = 0; i < 24 * 16; ++i)
    err += std::pow(double(host.data<float>()[i]) - double(approx.data<float>()[i]), 2);
  for (int i = 5; i < 16; ++i) discarded += std::pow(s_ref.data<double>()[i], 2);
  EXPECT_NEAR(std::sqrt(err), std::sqrt(discarded), 1e-3 * std::sqrt(discarded));
}

}  // namespace
}  // namespace tenferro::webgpu_test
