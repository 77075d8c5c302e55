// The CUDA backend and runtime: creation and identity, explicit transfers of every dtype
// (small and staged through pinned memory) counted in RuntimeStats, HostAccess before
// download, and ingress refusal of another CUDA runtime's buffer. Skipped without a device;
// in a build without CUDA, the runtime constructor's typed refusal is tested instead.
#include <gtest/gtest.h>

#include <cstring>

#include "tenferro/config.hpp"
#include "tenferro/core/error.hpp"
#include "tenferro/einsum.hpp"
#include "tenferro/runtime/errors.hpp"
#include "tenferro/runtime/runtime.hpp"
#include "tenferro/runtime/stats.hpp"

#if TENFERRO_HAS_CUDA

#include "backends/cuda/cuda_backend.hpp"
#include "cuda_fixture.hpp"

namespace tenferro {
namespace {

using cuda_test::random_tensor;

bool same_bytes(const Tensor& a, const Tensor& b) {
  const Tensor ca = a.contiguous(), cb = b.contiguous();
  return ca.dtype() == cb.dtype() && ca.shape() == cb.shape() &&
         std::memcmp(ca.raw_data(), cb.raw_data(), ca.nbytes()) == 0;
}

// The no-device path itself (runs where no usable device exists, e.g. CI): a typed Backend
// error carrying the CUDA error string, never a crash or a CPU fallback.
TEST(CudaRuntimeWithoutDevice, ConstructionIsATypedBackendErrorWithTheCudaMessage) {
  if (cuda_device_count() > 0) GTEST_SKIP() << "a CUDA device is present; see CudaBackendTest";
  const std::uint64_t constructions = process_backend_constructions();
  try {
    (void)EagerRuntime::cuda(0);
    FAIL() << "a CUDA runtime was built without a device";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Backend);
    EXPECT_EQ(e.phase(), ErrorPhase::Runtime);
    const std::string what = e.what();
    EXPECT_TRUE(what.find("CUDA error") != std::string::npos ||
                what.find("no CUDA device") != std::string::npos)
        << what;
  }
  EXPECT_EQ(process_backend_constructions(), constructions) << "no backend was registered";
}

class CudaBackendTest : public cuda_test::CudaTest {
 protected:
  CudaBackend& backend() { return dynamic_cast<CudaBackend&>(runtime_->backend()); }
};

TEST_F(CudaBackendTest, RuntimeIsACudaDeviceRuntime) {
  EXPECT_EQ(runtime_->backend_kind(), BackendKind::Cuda);
  EXPECT_EQ(runtime_->engine_id().str(), "tenferro.cuda.d0.v1");
  EXPECT_EQ(runtime_->extension_target(),
            (EagerExtensionTarget{EngineId("tenferro.cuda.d0.v1"), BackendKind::Cuda}));
  const Placement& p = runtime_->backend().placement();
  EXPECT_EQ(p.memory, MemoryKind::Device);
  EXPECT_EQ(p.backend, BackendKind::Cuda);
  EXPECT_EQ(p.device_ordinal, 0);
  EXPECT_TRUE(runtime_->backend().serializes_sessions());
  EXPECT_NE(runtime_->backend().description().find("compute capability"), std::string::npos)
      << runtime_->backend().description();
  // Two runtimes on one device never share an allocation domain.
  auto other = EagerRuntime::cuda(0);
  EXPECT_NE(other->backend().placement().allocation_domain, p.allocation_domain);
  EXPECT_NE(other->id(), runtime_->id());
}

TEST_F(CudaBackendTest, BadOrdinalsAreTypedErrors) {
  try {
    (void)EagerRuntime::cuda(-1);
    FAIL() << "a negative ordinal was accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Validation);
  }
  try {
    (void)EagerRuntime::cuda(cuda_device_count());
    FAIL() << "an ordinal past the last device was accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Backend);
    EXPECT_NE(std::string(e.what()).find("no CUDA device"), std::string::npos) << e.what();
  }
}

TEST_F(CudaBackendTest, TransfersOfEveryDtypeRoundTripAndAreCounted) {
  // 3x5 goes straight from pageable memory; 700x900 (>= 2.5 MiB) is staged through the two
  // pinned chunks (several chunks for F64/C32/C64, exercising the double buffering).
  for (const Shape& shape : {Shape{3, 5}, Shape{700, 900}}) {
    for (DType dtype : kAllDTypes) {
      SCOPED_TRACE(std::string(dtype_name(dtype)) + " numel " +
                   std::to_string(shape[0] * shape[1]));
      const Tensor host = random_tensor(dtype, shape, 7);
      const RuntimeStats before = runtime_->stats();
      const EagerTensor value = runtime_->upload(host);
      EXPECT_EQ(value.placement(), runtime_->backend().placement());
      EXPECT_EQ(value.buffer()->host_data(), nullptr);
      const Tensor back = value.download();
      const RuntimeStats after = runtime_->stats();
      EXPECT_TRUE(same_bytes(host, back));
      EXPECT_EQ(after.uploads - before.uploads, 1u);
      EXPECT_EQ(after.downloads - before.downloads, 1u);
      EXPECT_EQ(after.upload_bytes - before.upload_bytes, host.nbytes());
      EXPECT_EQ(after.download_bytes - before.download_bytes, host.nbytes());
    }
  }
}

TEST_F(CudaBackendTest, StridedAndEmptyUploadsRoundTrip) {
  const Tensor host = random_tensor(DType::C64, {4, 6, 3}, 3);
  const Tensor permuted = host.permute({2, 0, 1});
  EXPECT_TRUE(same_bytes(runtime_->upload(permuted).download(), permuted.contiguous()));
  const Tensor empty = Tensor::zeros(DType::F32, {0, 4});
  const Tensor back = runtime_->upload(empty).download();
  EXPECT_EQ(back.shape(), (Shape{0, 4}));
}

TEST_F(CudaBackendTest, WritesAndReadsAtOffsetsAreBoundsChecked) {
  const std::vector<float> values{1, 2, 3, 4, 5, 6, 7, 8};
  auto buffer = runtime_->backend().allocate(values.size() * sizeof(float));
  runtime_->backend().write(*buffer, 0, std::as_bytes(std::span(values)));
  std::vector<float> middle(3);
  runtime_->backend().read(*buffer, 2 * sizeof(float), std::as_writable_bytes(std::span(middle)));
  EXPECT_EQ(middle, (std::vector<float>{3, 4, 5}));
  try {
    runtime_->backend().read(*buffer, 6 * sizeof(float), std::as_writable_bytes(std::span(middle)));
    FAIL() << "an out-of-range read was accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Validation);
  }
}

TEST_F(CudaBackendTest, HostViewFailsUntilAnExplicitDownload) {
  const Tensor host = random_tensor(DType::F64, {3, 3}, 1);
  const EagerTensor value = runtime_->upload(host);
  EXPECT_FALSE(value.is_host_resident());
  try {
    (void)value.host_view();
    FAIL() << "host_view() of CUDA memory succeeded";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::HostAccess);
  }
  EXPECT_TRUE(same_bytes(value.download(), host));
}

TEST_F(CudaBackendTest, AnotherCudaRuntimesBufferIsRejectedAtIngress) {
  auto other = EagerRuntime::cuda(0);
  const Tensor a = random_tensor(DType::F32, {2, 3}, 1), b = random_tensor(DType::F32, {3, 4}, 2);
  const EagerTensor mine = runtime_->upload(a);
  const EagerTensor theirs = other->upload(b);
  // A handle of this runtime around the other runtime's device memory.
  const EagerTensor smuggled(runtime_, theirs.buffer(), theirs.layout());
  const std::uint64_t cpu_kernels = process_cpu_kernel_launches();
  for (bool direct : {true, false}) {
    EinsumOptions options;
    options.allow_direct_binary = direct;
    try {
      (void)einsum("ij,jk->ik", {mine, smuggled}, options);
      FAIL() << "another runtime's buffer entered the call";
    } catch (const NoInputIngressError& e) {
      EXPECT_EQ(e.kind(), ErrorKind::NoInputIngress);
      EXPECT_EQ(e.input_index(), 1u);
      EXPECT_EQ(e.placement().allocation_domain, other->backend().placement().allocation_domain);
    }
  }
  EXPECT_EQ(runtime_->stats().module_installs, 0u) << "refused before the factory and install";
  EXPECT_EQ(process_cpu_kernel_launches(), cpu_kernels);
  // Mixing the two runtimes' own handles is a ContextMismatch, checked first.
  try {
    (void)einsum("ij,jk->ik", {mine, theirs});
    FAIL() << "mixed runtimes were accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::ContextMismatch);
  }
}

}  // namespace
}  // namespace tenferro

#else  // !TENFERRO_HAS_CUDA

namespace tenferro {
namespace {

TEST(CudaRuntimeWithoutCuda, ConstructionIsATypedUnsupportedError) {
  try {
    (void)EagerRuntime::cuda(0);
    FAIL() << "a CUDA runtime was built by a build without CUDA";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Unsupported);
    EXPECT_NE(std::string(e.what()).find("TENFERRO_WITH_CUDA"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace tenferro

#endif
