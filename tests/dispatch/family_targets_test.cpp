// Regression for the specification's defect, across every real family: on a device runtime
// whose backend has no implementation of the family in this build, eager einsum (N-ary and
// direct binary), QR, SVD, solve, FFT and the prims fail with a typed Unsupported error from the
// module factory or admission table before execution — never a CPU module, CPU kernel or transfer.
#include <gtest/gtest.h>

#include <functional>

#include "support/test_device_backend.hpp"
#include "tenferro/config.hpp"
#include "tenferro/tenferro.hpp"

namespace tenferro {
namespace {

// A backend kind this build does not compile in, so no family may claim it.
bool absent_backend_kind(BackendKind& kind) {
  if (!TENFERRO_HAS_CUDA) {
    kind = BackendKind::Cuda;
    return true;
  }
  if (!TENFERRO_HAS_WEBGPU) {
    kind = BackendKind::WebGpu;
    return true;
  }
  return false;
}

class FamilyTargets : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!absent_backend_kind(kind_)) {
      GTEST_SKIP() << "CUDA and WebGPU are both compiled in: each has its own backend tests";
    }
    rt_ = testing::make_test_device_runtime(kind_, "tenferro.testdevice.d0.v1");
  }

  void expect_refused_before_execution(const std::string& what, const std::function<void()>& call) {
    const auto cpu_kernels = process_cpu_kernel_launches();
    const RuntimeStats before = rt_->stats();
    try {
      call();
      ADD_FAILURE() << what << " ran on a " << backend_kind_name(kind_) << " device runtime";
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::Unsupported) << what << ": " << e.what();
      EXPECT_EQ(e.phase(), ErrorPhase::Module) << what << ": " << e.what();
    }
    const RuntimeStats after = rt_->stats();
    EXPECT_EQ(process_cpu_kernel_launches(), cpu_kernels) << what;
    EXPECT_EQ(after.epoch, before.epoch) << what;
    EXPECT_EQ(after.uploads, before.uploads) << what;
    EXPECT_EQ(after.downloads, before.downloads) << what;
    EXPECT_TRUE(after.kernel_launches.empty()) << what;
  }

  EagerTensor matrix(std::int64_t m, std::int64_t n) {
    return rt_->upload(Tensor::zeros(DType::F64, {m, n}));
  }

  BackendKind kind_{};
  std::shared_ptr<EagerRuntime> rt_;
};

TEST_F(FamilyTargets, EinsumNaryAndDirectAreRefused) {
  EagerTensor a = matrix(3, 3), b = matrix(3, 3), c = matrix(3, 3);
  expect_refused_before_execution("einsum N-ary", [&] { einsum("ij,jk,kl->il", {a, b, c}); });
  expect_refused_before_execution("einsum binary", [&] { einsum("ij,jk->ik", {a, b}); });
  expect_refused_before_execution("einsum trace", [&] { einsum("ii->", {a}); });
}

TEST_F(FamilyTargets, LinalgIsRefused) {
  EagerTensor a = matrix(4, 4), b = matrix(4, 2);
  expect_refused_before_execution("qr", [&] { linalg::qr(a); });
  expect_refused_before_execution("svd", [&] { linalg::svd(a); });
  expect_refused_before_execution("solve", [&] { linalg::solve(a, b); });
}

TEST_F(FamilyTargets, FftIsRefused) {
  EagerTensor x = rt_->upload(Tensor::zeros(DType::C64, {8}));
  expect_refused_before_execution("fft", [&] { fft::fft(x); });
}

TEST_F(FamilyTargets, PrimsAreRefused) {
  EagerTensor a = matrix(2, 3), b = matrix(2, 3);
  EagerTensor f = rt_->upload(Tensor::zeros(DType::F32, {2, 3}));
  expect_refused_before_execution("add", [&] { prims::add(a, b); });
  expect_refused_before_execution("add with promotion", [&] { prims::add(f, b); });
  expect_refused_before_execution("sum", [&] { prims::sum(a); });
  expect_refused_before_execution("scale", [&] { a * 2.0; });
  expect_refused_before_execution("contiguous", [&] { prims::contiguous(prims::transpose(a)); });
  expect_refused_before_execution("zeros", [&] { prims::zeros(rt_, DType::F64, {2}); });
  expect_refused_before_execution("random_normal",
                                  [&] { prims::random_normal(rt_, DType::F64, {2}, 1); });
}

}  // namespace
}  // namespace tenferro
