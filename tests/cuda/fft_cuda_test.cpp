// FFT on a CUDA runtime (cuFFT): every op of the family, F32/F64/C32/C64 inputs, padding and
// truncation, strided inputs, more than three axes and every norm agree with the CPU runtime
// (FFTW) within the FFT tests' tolerances; results stay in device memory, no transfer and no
// CPU kernel happen inside the call, and plans are reused from the runtime's cache.
#include <gtest/gtest.h>

#include "tenferro/config.hpp"

#if TENFERRO_HAS_CUDA && TENFERRO_HAS_FFTW

#include <functional>
#include <string>

#include "cuda_fixture.hpp"
#include "fft/dft_reference.hpp"
#include "tenferro/fft.hpp"
#include "tenferro/runtime/stats.hpp"

namespace {

namespace fft = tenferro::fft;
using fft_test::Dense;
using tenferro::DType;
using tenferro::EagerRuntime;
using tenferro::EagerTensor;
using tenferro::RuntimeStats;
using tenferro::Shape;
using tenferro::Tensor;

constexpr const char* kFftOnCuda = "tenferro.fft.v1@cuda";

using Call = std::function<EagerTensor(const EagerTensor&)>;

class FftCudaTest : public tenferro::cuda_test::CudaTest {
 protected:
  void SetUp() override {
    tenferro::cuda_test::CudaTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    cpu_ = EagerRuntime::cpu();
  }
  // Runs `call` on both runtimes with the same input and compares.
  void check(const std::string& what, const Tensor& host, const Call& call, bool strided = false) {
    SCOPED_TRACE(what + " " + std::string(tenferro::dtype_name(host.dtype())) +
                 (strided ? " (strided)" : ""));
    EagerTensor on_gpu = runtime_->upload(host);
    if (strided && host.rank() >= 2) {
      std::vector<std::int64_t> perm(static_cast<std::size_t>(host.rank()));
      for (std::size_t i = 0; i < perm.size(); ++i)
        perm[i] = static_cast<std::int64_t>(perm.size() - 1 - i);
      on_gpu = runtime_->upload(host.permute(perm).clone()).permute(perm);
      ASSERT_FALSE(on_gpu.layout().is_compact());
    }
    const RuntimeStats before = runtime_->stats();
    const std::uint64_t cpu_kernels = tenferro::process_cpu_kernel_launches();
    const EagerTensor got = call(on_gpu);
    EXPECT_EQ(tenferro::process_cpu_kernel_launches(), cpu_kernels) << "a CPU kernel ran";
    const RuntimeStats after = runtime_->stats();
    EXPECT_EQ(after.uploads, before.uploads);
    EXPECT_EQ(after.downloads, before.downloads);
    EXPECT_EQ(after.kernel_launches_for(kFftOnCuda) - before.kernel_launches_for(kFftOnCuda), 1u);
    EXPECT_EQ(got.placement(), runtime_->backend().placement());
    EXPECT_THROW((void)got.host_view(), tenferro::Error);
    const EagerTensor want = call(cpu_->upload(host));
    fft_test::expect_close(got, fft_test::to_dense(want.download()), want.dtype(), what);
  }
  std::shared_ptr<EagerRuntime> cpu_;
};

TEST_F(FftCudaTest, OneAxisOpsMatchTheCpuRuntime) {
  unsigned seed = 1;
  for (DType dtype : tenferro::kAllDTypes)
    for (bool strided : {false, true}) {
      const Tensor x = fft_test::random_tensor(dtype, {12, 5}, seed++);
      for (fft::Norm norm : {fft::Norm::Backward, fft::Norm::Forward, fft::Norm::Ortho}) {
        check(
            "fft", x, [&](const EagerTensor& t) { return fft::fft(t, std::nullopt, 0, norm); },
            strided);
        check(
            "ifft", x, [&](const EagerTensor& t) { return fft::ifft(t, std::nullopt, -1, norm); },
            strided);
        check(
            "irfft", x, [&](const EagerTensor& t) { return fft::irfft(t, std::nullopt, 0, norm); },
            strided);
      }
      check(
          "fft n=16 (padded)", x, [](const EagerTensor& t) { return fft::fft(t, 16, 0); }, strided);
      check(
          "fft n=7 (truncated)", x, [](const EagerTensor& t) { return fft::fft(t, 7, 0); },
          strided);
      check(
          "irfft n=9", x, [](const EagerTensor& t) { return fft::irfft(t, 9, 0); }, strided);
      if (!tenferro::is_complex(dtype)) {
        check(
            "rfft", x, [](const EagerTensor& t) { return fft::rfft(t, std::nullopt, 0); }, strided);
        check(
            "rfft n=11 axis 1", x, [](const EagerTensor& t) { return fft::rfft(t, 11, 1); },
            strided);
      }
    }
}

TEST_F(FftCudaTest, NAxisOpsMatchTheCpuRuntime) {
  unsigned seed = 100;
  for (DType dtype : tenferro::kAllDTypes) {
    const Tensor x3 = fft_test::random_tensor(dtype, {6, 5, 4}, seed++);
    const Tensor x5 = fft_test::random_tensor(dtype, {3, 2, 4, 3, 2}, seed++);  // 5 axes
    for (bool strided : {false, true}) {
      check(
          "fftn", x3, [](const EagerTensor& t) { return fft::fftn(t); }, strided);
      check(
          "ifftn axes {2, 0}", x3,
          [](const EagerTensor& t) {
            return fft::ifftn(t, std::nullopt, std::vector<std::int64_t>{2, 0});
          },
          strided);
      check(
          "fftn over 5 axes", x5, [](const EagerTensor& t) { return fft::fftn(t); }, strided);
      check(
          "irfftn", x3, [](const EagerTensor& t) { return fft::irfftn(t); }, strided);
      check(
          "irfftn over 5 axes, s", x5,
          [](const EagerTensor& t) {
            return fft::irfftn(t, std::vector<std::int64_t>{3, 2, 4, 3, 4}, std::nullopt,
                               fft::Norm::Ortho);
          },
          strided);
      if (!tenferro::is_complex(dtype)) {
        check(
            "rfftn", x3, [](const EagerTensor& t) { return fft::rfftn(t); }, strided);
        check(
            "rfftn over 5 axes", x5, [](const EagerTensor& t) { return fft::rfftn(t); }, strided);
        check(
            "rfftn s {8, 3} axes {0, 1}", x3,
            [](const EagerTensor& t) {
              return fft::rfftn(t, std::vector<std::int64_t>{8, 3},
                                std::vector<std::int64_t>{0, 1});
            },
            strided);
      }
    }
  }
}

TEST_F(FftCudaTest, PlansAreCachedPerRuntimeWithExactKeys) {
  const EagerTensor x = runtime_->upload(fft_test::random_tensor(DType::C64, {16, 3}, 5));
  (void)fft::fft(x, std::nullopt, 0);
  const RuntimeStats first = runtime_->stats();
  (void)fft::fft(x, std::nullopt, 0);
  const RuntimeStats second = runtime_->stats();
  EXPECT_GT(second.cache_hits, first.cache_hits) << "the plan was reused";
  EXPECT_EQ(second.cache_entries, first.cache_entries);
  (void)fft::fft(x, 8, 0);  // another length: another plan
  EXPECT_GT(runtime_->stats().cache_entries, second.cache_entries);
}

}  // namespace

#endif  // TENFERRO_HAS_CUDA && TENFERRO_HAS_FFTW
