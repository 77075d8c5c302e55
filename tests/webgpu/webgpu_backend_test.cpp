// The WebGPU backend: a device runtime whose memory the host cannot touch, explicit counted
// transfers of every dtype, typed refusals, and the pipeline cache.
#include <gtest/gtest.h>

#include "tenferro/config.hpp"
#include "tenferro/core/error.hpp"
#include "tenferro/prims.hpp"
#include "tenferro/runtime/runtime.hpp"

#if TENFERRO_HAS_WEBGPU

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <optional>
#include <vector>

#include "backends/webgpu/webgpu_backend.hpp"
#include "tenferro/runtime/errors.hpp"
#include "tenferro/runtime/stats.hpp"
#include "webgpu_fixture.hpp"

extern char** environ;

namespace tenferro {
namespace {

using webgpu_test::random_tensor;
using webgpu_test::WebGpuTest;

WebGpuBackend& backend_of(EagerRuntime& rt) {
  return dynamic_cast<WebGpuBackend&>(rt.backend());
}

std::vector<std::byte> bytes_of(const Tensor& t) {
  const Tensor c = t.contiguous();
  const auto* p = c.raw_data();
  return std::vector<std::byte>(p, p + c.nbytes());
}

TEST_F(WebGpuTest, RuntimeTargetsTheWebGpuEngineWithDevicePlacement) {
  EXPECT_EQ(runtime_->backend_kind(), BackendKind::WebGpu);
  EXPECT_EQ(runtime_->engine_id().str(), "tenferro.webgpu.d0.v1");
  EXPECT_EQ(runtime_->extension_target(),
            (EagerExtensionTarget{EngineId("tenferro.webgpu.d0.v1"), BackendKind::WebGpu}));
  const Placement& p = runtime_->backend().placement();
  EXPECT_EQ(p.memory, MemoryKind::Device);
  EXPECT_EQ(p.backend, BackendKind::WebGpu);
  EXPECT_EQ(p.device_ordinal, 0);
  EXPECT_TRUE(runtime_->backend().serializes_sessions());
  const WebGpuBackend& backend = backend_of(*runtime_);
  EXPECT_FALSE(backend.adapter_name().empty());
  EXPECT_NE(backend.description().find(backend.adapter_name()), std::string::npos);
  EXPECT_NE(backend.description().find(backend.adapter_backend()), std::string::npos);
  EXPECT_EQ(runtime_->stats().backend_constructions, 1u);
}

TEST_F(WebGpuTest, EachRuntimeHasItsOwnAllocationDomain) {
  auto other = EagerRuntime::webgpu();
  auto cpu = EagerRuntime::cpu();
  const Placement& a = runtime_->backend().placement();
  const Placement& b = other->backend().placement();
  EXPECT_NE(a.allocation_domain, b.allocation_domain);
  EXPECT_NE(a.allocation_domain, cpu->backend().placement().allocation_domain);
  EXPECT_NE(runtime_->id(), other->id());
  // A value of one runtime is not accepted by the other's engine.
  EagerTensor v = other->upload(Tensor::zeros(DType::F32, {2}));
  EXPECT_FALSE(runtime_->backend().accepts(v.placement()));
  EXPECT_TRUE(other->backend().accepts(v.placement()));
}

TEST_F(WebGpuTest, UploadDownloadRoundTripsEveryDtypeAndShape) {
  const Shape shapes[] = {{}, {0}, {1}, {3}, {5, 7}, {2, 3, 5}, {0, 4}, {1031}};
  unsigned seed = 1;
  for (DType dtype : kAllDTypes) {
    for (const Shape& shape : shapes) {
      SCOPED_TRACE(std::string(dtype_name(dtype)) + " " + shape_to_string(shape));
      const Tensor host = random_tensor(dtype, shape, seed++);
      EagerTensor device = runtime_->upload(host);
      EXPECT_EQ(device.dtype(), dtype);
      EXPECT_EQ(device.shape(), shape);
      EXPECT_EQ(device.placement(), runtime_->backend().placement());
      EXPECT_FALSE(device.is_host_resident());
      const Tensor back = device.download();
      EXPECT_EQ(back.dtype(), dtype);
      EXPECT_EQ(back.shape(), shape);
      EXPECT_EQ(bytes_of(back), bytes_of(host));  // bit-exact
    }
  }
}

TEST_F(WebGpuTest, TransfersAreCountedInStats) {
  const RuntimeStats before = runtime_->stats();
  const Tensor a = random_tensor(DType::C64, {3, 5}, 7);  // 240 bytes
  const Tensor b = random_tensor(DType::F32, {7}, 8);     // 28 bytes
  EagerTensor da = runtime_->upload(a);
  EagerTensor db = runtime_->upload(b);
  (void)da.download();
  const RuntimeStats after = runtime_->stats();
  EXPECT_EQ(after.uploads - before.uploads, 2u);
  EXPECT_EQ(after.upload_bytes - before.upload_bytes, 240u + 28u);
  EXPECT_EQ(after.downloads - before.downloads, 1u);
  EXPECT_EQ(after.download_bytes - before.download_bytes, 240u);
}

TEST_F(WebGpuTest, PermutedViewDownloadsInItsLogicalOrder) {
  const Tensor host = random_tensor(DType::F64, {3, 4, 2}, 11);
  const std::int64_t perm[] = {2, 0, 1};
  EagerTensor view = runtime_->upload(host).permute(perm);
  const Tensor expected = host.permute({2, 0, 1}).contiguous();
  EXPECT_EQ(view.download().to_vector<double>(), expected.to_vector<double>());
}

TEST_F(WebGpuTest, RawBytesWithOddSizesAndOffsets) {
  Backend& backend = runtime_->backend();
  for (std::size_t size : {1u, 2u, 3u, 5u, 7u, 13u, 4099u}) {
    SCOPED_TRACE("size " + std::to_string(size));
    auto buffer = backend.allocate(size);
    EXPECT_EQ(buffer->size_bytes(), size);
    EXPECT_EQ(buffer->host_data(), nullptr);
    std::vector<std::byte> data(size);
    for (std::size_t i = 0; i < size; ++i) data[i] = static_cast<std::byte>(17 + 31 * i);
    backend.write(*buffer, 0, data);
    std::vector<std::byte> back(size);
    backend.read(*buffer, 0, back);
    EXPECT_EQ(back, data);
    if (size >= 3) {
      // An unaligned write in the middle leaves its neighbours alone.
      const std::size_t off = 1, len = size - 2;
      std::vector<std::byte> patch(len, std::byte{0xAB});
      backend.write(*buffer, off, patch);
      std::copy(patch.begin(), patch.end(), data.begin() + static_cast<std::ptrdiff_t>(off));
      backend.read(*buffer, 0, back);
      EXPECT_EQ(back, data);
      // An unaligned read of an inner range.
      std::vector<std::byte> inner(len);
      backend.read(*buffer, off, inner);
      EXPECT_EQ(inner, patch);
    }
  }
}

TEST_F(WebGpuTest, OutOfRangeTransfersAreValidationErrors) {
  Backend& backend = runtime_->backend();
  auto buffer = backend.allocate(6);
  std::vector<std::byte> four(4);
  try {
    backend.write(*buffer, 3, four);
    FAIL() << "write past the end was accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Validation);
  }
  try {
    backend.read(*buffer, 5, four);
    FAIL() << "read past the end was accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Validation);
  }
}

// An allocation that cannot succeed is a Resource error as on the CPU (DESIGN §3), named by the
// op at its boundary; it was a Backend error, which Python's `except MemoryError` missed.
TEST_F(WebGpuTest, AllocationsBeyondTheAdapterLimitAreResourceErrors) {
  for (std::size_t bytes : {std::size_t{1} << 50, std::numeric_limits<std::size_t>::max()}) {
    try {
      (void)runtime_->backend().allocate(bytes);
      FAIL() << bytes << " bytes were allocated";
    } catch (const ResourceError& e) {
      EXPECT_EQ(e.requested_bytes(), bytes) << e.what();
    }
  }
  try {
    (void)prims::zeros(runtime_, DType::F32, {std::int64_t{1} << 40});
    FAIL() << "a 4 TiB tensor was allocated";
  } catch (const ResourceError& e) {
    EXPECT_EQ(e.op(), "full") << e.what();  // zeros is a full of 0
  }
  EXPECT_EQ(runtime_->backend().allocate(16)->size_bytes(), 16u);  // still usable
}

TEST_F(WebGpuTest, HostViewIsRefusedUntilDownload) {
  const Tensor host = random_tensor(DType::F32, {4, 4}, 3);
  EagerTensor device = runtime_->upload(host);
  const RuntimeStats before = runtime_->stats();
  try {
    (void)device.host_view();
    FAIL() << "host_view() of device memory succeeded";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::HostAccess);
    EXPECT_NE(std::string(e.what()).find("download()"), std::string::npos) << e.what();
  }
  EXPECT_EQ(runtime_->stats().downloads, before.downloads);  // the refusal moved nothing
  EXPECT_EQ(device.download().to_vector<float>(), host.to_vector<float>());
}

// A test-only op whose factory counts its calls and records the target it was given.
class ProbeOp final : public ExtensionOp {
 public:
  std::string_view family() const noexcept override { return "tenferro.test.webgpu_probe.v1"; }
  std::string_view name() const noexcept override { return "webgpu_probe"; }
  std::size_t arity() const noexcept override { return 2; }
  std::uint64_t payload_hash() const noexcept override { return 0; }
  bool payload_equals(const ExtensionOp& other) const noexcept override {
    return dynamic_cast<const ProbeOp*>(&other) != nullptr;
  }
  std::vector<TensorMeta> infer_outputs(std::span<const TensorMeta> inputs) const override {
    return {inputs[0]};
  }
};

struct CountingFactory {
  int calls = 0;
  std::optional<EagerExtensionTarget> target;
  ModulePtr operator()(const EagerExtensionTarget& t) {
    ++calls;
    target = t;
    throw_unsupported_target("tenferro.test.webgpu_probe.v1", t,
                             "test family has no WebGPU module");
  }
};

TEST_F(WebGpuTest, CpuAndWebGpuOperandsAreAContextMismatchBeforeTheFactory) {
  auto cpu = EagerRuntime::cpu();
  const Tensor host = random_tensor(DType::F32, {2, 2}, 5);
  EagerTensor on_cpu = cpu->upload(host);
  EagerTensor on_gpu = runtime_->upload(host);
  const RuntimeStats before = runtime_->stats();
  const std::uint64_t cpu_kernels = process_cpu_kernel_launches();
  for (const auto& inputs :
       {std::vector<EagerTensor>{on_gpu, on_cpu}, std::vector<EagerTensor>{on_cpu, on_gpu}}) {
    CountingFactory factory;
    try {
      (void)apply_eager_with_targeted_extension_session(ProbeOp{}, inputs, factory);
      FAIL() << "mixed CPU and WebGPU operands were accepted";
    } catch (const ContextMismatchError& e) {
      EXPECT_EQ(e.kind(), ErrorKind::ContextMismatch);
      EXPECT_EQ(e.argument_index(), 1u);
    }
    EXPECT_EQ(factory.calls, 0);
  }
  const RuntimeStats after = runtime_->stats();
  EXPECT_EQ(after.module_installs, before.module_installs);
  EXPECT_EQ(after.uploads, before.uploads);
  EXPECT_EQ(after.downloads, before.downloads);
  EXPECT_EQ(process_cpu_kernel_launches(), cpu_kernels);
}

TEST_F(WebGpuTest, ValuesOfAnotherWebGpuRuntimeAreAContextMismatch) {
  auto other = EagerRuntime::webgpu();
  EagerTensor a = runtime_->upload(Tensor::zeros(DType::F32, {3}));
  EagerTensor b = other->upload(Tensor::zeros(DType::F32, {3}));
  CountingFactory factory;
  const std::vector<EagerTensor> inputs{a, b};
  EXPECT_THROW((void)apply_eager_with_targeted_extension_session(ProbeOp{}, inputs, factory),
               ContextMismatchError);
  EXPECT_EQ(factory.calls, 0);
}

TEST_F(WebGpuTest, FactoryReceivesTheWebGpuTargetAndItsRefusalIsUnsupported) {
  EagerTensor a = runtime_->upload(Tensor::zeros(DType::F32, {3}));
  const std::vector<EagerTensor> inputs{a, a};
  CountingFactory factory;
  const std::uint64_t cpu_kernels = process_cpu_kernel_launches();
  try {
    (void)apply_eager_with_targeted_extension_session(ProbeOp{}, inputs, factory);
    FAIL() << "the refusing factory's error was lost";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Unsupported);
  }
  ASSERT_EQ(factory.calls, 1);
  EXPECT_EQ(*factory.target,
            (EagerExtensionTarget{EngineId("tenferro.webgpu.d0.v1"), BackendKind::WebGpu}));
  EXPECT_EQ(runtime_->stats().module_installs, 0u);
  EXPECT_EQ(process_cpu_kernel_launches(), cpu_kernels);
}

constexpr const char* kDoubleIt = R"(
@group(0) @binding(0) var<storage, read> p: array<u32>;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;
@compute @workgroup_size(64)
fn double_it(@builtin(global_invocation_id) id: vec3<u32>) {
  if (id.x < p[0]) { out[id.x] = 2.0 * out[id.x] + f32(id.x); }
}
)";

TEST_F(WebGpuTest, PipelinesAreBuiltOnceAndDispatchesRun) {
  WebGpuBackend& backend = backend_of(*runtime_);
  const WebGpuPipelineStats before = backend.pipeline_stats();
  auto* first = backend.pipeline(kDoubleIt, "double_it");
  auto* second = backend.pipeline(kDoubleIt, "double_it");
  EXPECT_EQ(first, second);
  WebGpuPipelineStats after = backend.pipeline_stats();
  EXPECT_EQ(after.built - before.built, 1u);
  EXPECT_EQ(after.cache_hits - before.cache_hits, 1u);

  const Tensor host = random_tensor(DType::F32, {100}, 9);
  EagerTensor value = runtime_->upload(host);
  const std::uint32_t params[] = {100};
  const WebGpuBuffer* buffers[] = {&WebGpuBackend::buffer_of(*value.buffer(), "test")};
  backend.dispatch(first, params, buffers, {2, 1, 1});
  const std::vector<float> in = host.to_vector<float>();
  const std::vector<float> out = value.download().to_vector<float>();
  for (std::size_t i = 0; i < in.size(); ++i)
    EXPECT_EQ(out[i], 2.0f * in[i] + static_cast<float>(i)) << i;
  EXPECT_EQ(backend.pipeline_stats().dispatches - before.dispatches, 1u);

  // A second runtime has its own cache: pipelines are built once per runtime.
  auto other = EagerRuntime::webgpu();
  (void)backend_of(*other).pipeline(kDoubleIt, "double_it");
  EXPECT_EQ(backend_of(*other).pipeline_stats().built, 1u);
}

TEST_F(WebGpuTest, DeviceValidationErrorsBecomeBackendErrors) {
  WebGpuBackend& backend = backend_of(*runtime_);
  auto* pipeline = backend.pipeline(kDoubleIt, "double_it");
  const std::uint32_t params[] = {4};
  try {
    backend.dispatch(pipeline, params, {}, {1, 1, 1});  // binding 1 is missing
    backend.synchronize();
    FAIL() << "a dispatch without its storage binding was accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Backend) << e.what();
  }
  // Reported once; the device itself is fine.
  EagerTensor v = runtime_->upload(random_tensor(DType::F32, {4}, 4));
  const std::vector<float> before = v.download().to_vector<float>();
  const WebGpuBuffer* buffers[] = {&WebGpuBackend::buffer_of(*v.buffer(), "test")};
  backend.dispatch(pipeline, params, buffers, {1, 1, 1});
  const std::vector<float> after = v.download().to_vector<float>();
  for (std::size_t i = 0; i < 4; ++i) EXPECT_EQ(after[i], 2.0f * before[i] + static_cast<float>(i));
}

TEST_F(WebGpuTest, InvalidWgslIsABackendErrorNamingTheEntryPoint) {
  WebGpuBackend& backend = backend_of(*runtime_);
  try {
    (void)backend.pipeline(
        "@compute @workgroup_size(1) fn broken() { let x: f32 = undefined_name; }", "broken");
    FAIL() << "invalid WGSL compiled";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Backend);
    EXPECT_NE(std::string(e.what()).find("broken"), std::string::npos) << e.what();
  }
  // The backend stays usable.
  EagerTensor v = runtime_->upload(random_tensor(DType::F32, {5}, 2));
  EXPECT_EQ(v.download().numel(), 5);
}

// The child half of NoAdapterIsATypedBackendError. When the test executable starts with
// TENFERRO_WEBGPU_CHILD_REPORT set (only that test sets it, together with an environment in
// which no Vulkan driver exists), it tries to create a WebGPU runtime, writes the error kind
// and message to the report file and exits before GoogleTest runs anything.
[[maybe_unused]] const bool no_adapter_child_ran = [] {
  const char* report = std::getenv("TENFERRO_WEBGPU_CHILD_REPORT");
  if (report == nullptr) return false;
  try {
    auto rt = EagerRuntime::webgpu();
    std::ofstream(report) << "none\ngot a runtime without a driver: " << rt->backend().description()
                          << "\n";
  } catch (const Error& e) {
    std::ofstream(report) << error_kind_name(e.kind()) << "\n" << e.what() << "\n";
  } catch (const std::exception& e) {
    std::ofstream(report) << "untyped\n" << e.what() << "\n";
  }
  std::_Exit(0);
}();

TEST(WebGpuNoAdapter, NoAdapterIsATypedBackendError) {
  const std::filesystem::path report = std::filesystem::temp_directory_path() /
                                       ("tenferro-webgpu-noadapter-" + std::to_string(getpid()));
  std::filesystem::remove(report);
  std::vector<std::string> env_strings;
  for (char** e = environ; *e != nullptr; ++e) {
    const std::string_view kv(*e);
    if (kv.starts_with("VK_ICD_FILENAMES=") || kv.starts_with("VK_DRIVER_FILES=") ||
        kv.starts_with("TENFERRO_WEBGPU_BACKEND=")) {
      continue;
    }
    env_strings.emplace_back(kv);
  }
  env_strings.push_back("VK_ICD_FILENAMES=/nonexistent/tenferro-no-driver.json");
  env_strings.push_back("TENFERRO_WEBGPU_BACKEND=vulkan");
  env_strings.push_back("TENFERRO_WEBGPU_CHILD_REPORT=" + report.string());
  std::vector<char*> envp;
  for (auto& s : env_strings) envp.push_back(s.data());
  envp.push_back(nullptr);
  std::string exe = std::filesystem::read_symlink("/proc/self/exe").string();
  char* argv[] = {exe.data(), nullptr};
  pid_t pid = 0;
  ASSERT_EQ(posix_spawn(&pid, exe.c_str(), nullptr, nullptr, argv, envp.data()), 0);
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "child status " << status;
  std::ifstream in(report);
  std::string kind, message;
  ASSERT_TRUE(std::getline(in, kind)) << "the child did not run the check";
  std::getline(in, message);
  std::filesystem::remove(report);
  EXPECT_EQ(kind, "Backend") << message;
  EXPECT_NE(message.find("no WebGPU adapter"), std::string::npos) << message;
}

}  // namespace
}  // namespace tenferro

#else  // !TENFERRO_HAS_WEBGPU

TEST(WebGpuNotBuilt, RuntimeIsUnsupported) {
  try {
    (void)tenferro::EagerRuntime::webgpu();
    FAIL() << "a WebGPU runtime exists in a build without WebGPU";
  } catch (const tenferro::Error& e) {
    EXPECT_EQ(e.kind(), tenferro::ErrorKind::Unsupported);
  }
}

#endif
