// Families without WebGPU kernels (linalg, FFT) refuse a WebGPU runtime with a typed
// Unsupported error from their factories, before anything runs: no CPU kernel, no transfer,
// no WebGPU dispatch, no module install, nothing cached.
#include <gtest/gtest.h>

#include "tenferro/config.hpp"

#if TENFERRO_HAS_WEBGPU

#include <functional>
#include <string>
#include <vector>

#include "backends/webgpu/webgpu_backend.hpp"
#include "tenferro/runtime/stats.hpp"
#include "webgpu_fixture.hpp"

#include "tenferro/fft.hpp"
#include "tenferro/linalg.hpp"

namespace tenferro {
namespace {

using webgpu_test::random_tensor;

class WebGpuRefusalTest : public webgpu_test::WebGpuTest {
 protected:
  // Runs `call`, expects a typed Unsupported error and proves nothing ran or moved.
  void expect_refused_before_execution(const std::string& what, const std::function<void()>& call) {
    SCOPED_TRACE(what);
    auto& backend = dynamic_cast<WebGpuBackend&>(runtime_->backend());
    const RuntimeStats before = runtime_->stats();
    const WebGpuPipelineStats dispatches = backend.pipeline_stats();
    const std::uint64_t cpu_kernels = process_cpu_kernel_launches();
    const std::size_t cached = runtime_->caches().stats().entries;
    try {
      call();
      ADD_FAILURE() << what << " ran on a WebGPU runtime";
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::Unsupported) << e.what();
    }
    const RuntimeStats after = runtime_->stats();
    EXPECT_EQ(process_cpu_kernel_launches(), cpu_kernels);
    EXPECT_EQ(after.uploads, before.uploads);
    EXPECT_EQ(after.downloads, before.downloads);
    EXPECT_EQ(after.module_installs, before.module_installs);
    EXPECT_EQ(after.kernel_launches, before.kernel_launches);
    EXPECT_EQ(backend.pipeline_stats().dispatches, dispatches.dispatches);
    EXPECT_EQ(runtime_->caches().stats().entries, cached) << "a refused call caches nothing";
  }
};

TEST_F(WebGpuRefusalTest, LinalgIsUnsupported) {
  for (DType dtype : {DType::F32, DType::C32, DType::F64}) {
    const EagerTensor a = runtime_->upload(random_tensor(dtype, {4, 4}, 1));
    const EagerTensor b = runtime_->upload(random_tensor(dtype, {4, 2}, 2));
    const std::string d(dtype_name(dtype));
    expect_refused_before_execution("qr " + d, [&] { (void)linalg::qr(a); });
    expect_refused_before_execution("svd " + d, [&] { (void)linalg::svd(a); });
    expect_refused_before_execution("solve " + d, [&] { (void)linalg::solve(a, b); });
  }
}

TEST_F(WebGpuRefusalTest, FftIsUnsupported) {
  const EagerTensor x = runtime_->upload(random_tensor(DType::C32, {8, 3}, 3));
  const EagerTensor r = runtime_->upload(random_tensor(DType::F32, {8, 3}, 4));
  expect_refused_before_execution("fft", [&] { (void)fft::fft(x); });
  expect_refused_before_execution("ifftn", [&] { (void)fft::ifftn(x); });
  expect_refused_before_execution("rfft", [&] { (void)fft::rfft(r); });
}

}  // namespace
}  // namespace tenferro

#endif  // TENFERRO_HAS_WEBGPU
