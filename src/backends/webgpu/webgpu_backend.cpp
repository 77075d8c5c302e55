// WebGpuBackend: instance/adapter/device/queue, buffers and explicit host <-> device copies.
#include "backends/webgpu/webgpu_backend.hpp"

#include <webgpu.h>
#include <wgpu.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <utility>
#include <vector>

#include "tenferro/core/error.hpp"

namespace tenferro {
namespace {

constexpr std::string_view kOp = "webgpu";
// Upper bound for one wait on the device (a download, a synchronize). Generous because the
// CPU Vulkan drivers CI runs on are slow; reaching it is a Backend error, never a hang.
constexpr auto kWaitLimit = std::chrono::seconds(300);

std::string to_string(WGPUStringView s) {
  if (s.data == nullptr) return {};
  return s.length == WGPU_STRLEN ? std::string(s.data) : std::string(s.data, s.length);
}

WGPUStringView view_of(std::string_view s) {
  return WGPUStringView{s.data(), s.size()};
}

std::string_view backend_type_name(WGPUBackendType type) {
  switch (type) {
    case WGPUBackendType_Null:
      return "null";
    case WGPUBackendType_WebGPU:
      return "webgpu";
    case WGPUBackendType_D3D11:
      return "d3d11";
    case WGPUBackendType_D3D12:
      return "d3d12";
    case WGPUBackendType_Metal:
      return "metal";
    case WGPUBackendType_Vulkan:
      return "vulkan";
    case WGPUBackendType_OpenGL:
      return "opengl";
    case WGPUBackendType_OpenGLES:
      return "opengles";
    default:
      return "unknown";
  }
}

[[noreturn]] void throw_backend(std::string message) {
  throw_error(ErrorKind::Backend, ErrorPhase::Runtime, std::string(kOp), std::move(message));
}

// TENFERRO_WEBGPU_BACKEND: primary (default: Vulkan, Metal, D3D12), vulkan, metal, dx12, gl
// or all. An unknown value is a Validation error rather than a silent default.
WGPUInstanceBackend instance_backends_from_env() {
  const char* env = std::getenv("TENFERRO_WEBGPU_BACKEND");
  const std::string_view v = env == nullptr ? "primary" : env;
  if (v.empty() || v == "primary") return WGPUInstanceBackend_Primary;
  if (v == "vulkan") return WGPUInstanceBackend_Vulkan;
  if (v == "metal") return WGPUInstanceBackend_Metal;
  if (v == "dx12") return WGPUInstanceBackend_DX12;
  if (v == "gl") return WGPUInstanceBackend_GL;
  if (v == "all") return WGPUInstanceBackend_All;
  throw_validation(std::string(kOp), "TENFERRO_WEBGPU_BACKEND='" + std::string(v) +
                                         "' is not one of primary, vulkan, metal, dx12, gl, all");
}

constexpr std::size_t round_up4(std::size_t n) {
  return (n + 3) & ~std::size_t{3};
}

struct AdapterRequest {
  std::atomic<bool> done{false};
  WGPUAdapter adapter = nullptr;
  std::string message;
};

struct DeviceRequest {
  std::atomic<bool> done{false};
  WGPUDevice device = nullptr;
  std::string message;
};

}  // namespace

WebGpuBuffer::WebGpuBuffer(Placement placement, std::size_t bytes, std::size_t padded_bytes,
                           WGPUBufferImpl* handle)
    : Buffer(placement, bytes), padded_bytes_(padded_bytes), handle_(handle) {}

WebGpuBuffer::~WebGpuBuffer() {
  // wgpu-native keeps the memory alive until queued work that uses it has finished.
  if (handle_ != nullptr) wgpuBufferRelease(handle_);
}

const EngineId& WebGpuBackend::engine() noexcept {
  static const EngineId id("tenferro.webgpu.d0.v1");
  return id;
}

WebGpuBackend::WebGpuBackend()
    : engine_(engine()),
      placement_{MemoryKind::Device, BackendKind::WebGpu, 0, next_allocation_domain()} {
  // wgpu-native's primary backends (Vulkan, Metal, D3D12) by default: its OpenGL backend is a
  // compatibility path we do not test. TENFERRO_WEBGPU_BACKEND selects others explicitly.
  WGPUInstanceExtras extras{};
  extras.chain.sType = static_cast<WGPUSType>(WGPUSType_InstanceExtras);
  extras.backends = instance_backends_from_env();
  extras.flags = WGPUInstanceFlag_Default;
  WGPUInstanceDescriptor instance_desc = WGPU_INSTANCE_DESCRIPTOR_INIT;
  instance_desc.nextInChain = &extras.chain;
  instance_ = wgpuCreateInstance(&instance_desc);
  if (instance_ == nullptr) throw_backend("wgpu-native could not create a WebGPU instance");

  // A throwing constructor runs no destructor: release what exists before rethrowing.
  try {
    open_device();
  } catch (...) {
    release_handles();
    throw;
  }
}

void WebGpuBackend::open_device() {
  AdapterRequest adapter_request;
  WGPURequestAdapterOptions options = WGPU_REQUEST_ADAPTER_OPTIONS_INIT;
  options.powerPreference = WGPUPowerPreference_HighPerformance;
  WGPURequestAdapterCallbackInfo adapter_cb = WGPU_REQUEST_ADAPTER_CALLBACK_INFO_INIT;
  adapter_cb.mode = WGPUCallbackMode_AllowProcessEvents;
  adapter_cb.callback = [](WGPURequestAdapterStatus status, WGPUAdapter adapter,
                           WGPUStringView message, void* user, void*) {
    auto* request = static_cast<AdapterRequest*>(user);
    if (status == WGPURequestAdapterStatus_Success) request->adapter = adapter;
    request->message = to_string(message);
    request->done.store(true);
  };
  adapter_cb.userdata1 = &adapter_request;
  wgpuInstanceRequestAdapter(instance_, &options, adapter_cb);
  wait_for(adapter_request.done, "the adapter request");
  adapter_ = adapter_request.adapter;
  if (adapter_ == nullptr) {
    throw_backend(
        "no WebGPU adapter is available (" +
        (adapter_request.message.empty() ? std::string("no Vulkan, Metal or D3D12 device")
                                         : adapter_request.message) +
        "). On Linux without a GPU install a CPU Vulkan driver (scripts/setup-webgpu.sh "
        "installs Mesa lavapipe; VK_ICD_FILENAMES=/usr/share/vulkan/icd.d/lvp_icd.x86_64.json "
        "pins it); TENFERRO_WEBGPU_BACKEND chooses wgpu-native's backends");
  }

  WGPUAdapterInfo info = WGPU_ADAPTER_INFO_INIT;
  if (wgpuAdapterGetInfo(adapter_, &info) == WGPUStatus_Success) {
    adapter_name_ = to_string(info.device);
    adapter_backend_ = std::string(backend_type_name(info.backendType));
    adapter_driver_ = to_string(info.description);
    wgpuAdapterInfoFreeMembers(info);
  }
  description_ = adapter_name_ + " (" + adapter_backend_ + ", driver " + adapter_driver_ + ")";

  // Ask for everything the adapter offers: the defaults cap storage bindings at 128 MiB.
  WGPULimits limits = WGPU_LIMITS_INIT;
  if (wgpuAdapterGetLimits(adapter_, &limits) != WGPUStatus_Success) {
    throw_backend("could not read the limits of adapter " + adapter_name_);
  }
  max_storage_binding_bytes_ = limits.maxStorageBufferBindingSize;
  max_buffer_bytes_ = limits.maxBufferSize;

  DeviceRequest device_request;
  WGPUDeviceDescriptor device_desc = WGPU_DEVICE_DESCRIPTOR_INIT;
  device_desc.label = view_of("tenferro.webgpu.d0");
  device_desc.requiredLimits = &limits;
  device_desc.uncapturedErrorCallbackInfo.callback = [](WGPUDevice const*, WGPUErrorType type,
                                                        WGPUStringView message, void* user, void*) {
    auto* errors = static_cast<DeviceErrors*>(user);
    std::lock_guard lock(errors->mutex);
    if (errors->first_message.empty()) {
      errors->first_message =
          (type == WGPUErrorType_OutOfMemory ? "out of device memory: " : "device error: ") +
          to_string(message);
    }
  };
  device_desc.uncapturedErrorCallbackInfo.userdata1 = errors_.get();
  device_desc.deviceLostCallbackInfo.mode = WGPUCallbackMode_AllowSpontaneous;
  device_desc.deviceLostCallbackInfo.callback = [](WGPUDevice const*, WGPUDeviceLostReason reason,
                                                   WGPUStringView message, void* user, void*) {
    // Destroyed / CallbackCancelled come from our own release at shutdown.
    if (reason == WGPUDeviceLostReason_Destroyed ||
        reason == WGPUDeviceLostReason_CallbackCancelled) {
      return;
    }
    auto* errors = static_cast<DeviceErrors*>(user);
    std::lock_guard lock(errors->mutex);
    errors->lost = true;
    if (errors->first_message.empty()) errors->first_message = "device lost: " + to_string(message);
  };
  device_desc.deviceLostCallbackInfo.userdata1 = errors_.get();

  WGPURequestDeviceCallbackInfo device_cb = WGPU_REQUEST_DEVICE_CALLBACK_INFO_INIT;
  device_cb.mode = WGPUCallbackMode_AllowProcessEvents;
  device_cb.callback = [](WGPURequestDeviceStatus status, WGPUDevice device, WGPUStringView message,
                          void* user, void*) {
    auto* request = static_cast<DeviceRequest*>(user);
    if (status == WGPURequestDeviceStatus_Success) request->device = device;
    request->message = to_string(message);
    request->done.store(true);
  };
  device_cb.userdata1 = &device_request;
  wgpuAdapterRequestDevice(adapter_, &device_desc, device_cb);
  wait_for(device_request.done, "the device request");
  device_ = device_request.device;
  if (device_ == nullptr) {
    throw_backend("adapter " + adapter_name_ + " did not give a device: " + device_request.message);
  }
  queue_ = wgpuDeviceGetQueue(device_);
}

WebGpuBackend::~WebGpuBackend() {
  release_handles();
}

void WebGpuBackend::release_handles() noexcept {
  for (auto& [key, pipeline] : pipelines_) wgpuComputePipelineRelease(pipeline);
  pipelines_.clear();
  if (queue_ != nullptr) wgpuQueueRelease(std::exchange(queue_, nullptr));
  if (device_ != nullptr) {
    wgpuDevicePoll(device_, /*wait=*/true, nullptr);
    wgpuDeviceRelease(std::exchange(device_, nullptr));
  }
  if (adapter_ != nullptr) wgpuAdapterRelease(std::exchange(adapter_, nullptr));
  if (instance_ != nullptr) wgpuInstanceRelease(std::exchange(instance_, nullptr));
}

void WebGpuBackend::wait_for(const std::atomic<bool>& done, std::string_view what) {
  // Events that are already resolved (error scopes, adapter and device requests) fire from
  // process-events alone; only then block on the device (downloads wait for queued work).
  const auto deadline = std::chrono::steady_clock::now() + kWaitLimit;
  wgpuInstanceProcessEvents(instance_);
  while (!done.load()) {
    if (device_ != nullptr) wgpuDevicePoll(device_, /*wait=*/true, nullptr);
    wgpuInstanceProcessEvents(instance_);
    if (done.load()) break;
    if (std::chrono::steady_clock::now() > deadline) {
      throw_backend("timed out waiting for " + std::string(what));
    }
  }
}

void WebGpuBackend::throw_if_device_error(std::string_view op) {
  std::string message;
  {
    std::lock_guard lock(errors_->mutex);
    if (errors_->first_message.empty()) return;
    // A validation error is reported once; a lost device stays lost for every later call.
    if (errors_->lost) {
      message = errors_->first_message;
    } else {
      message = std::move(errors_->first_message);
      errors_->first_message.clear();
    }
  }
  throw_error(ErrorKind::Backend, ErrorPhase::Execute, std::string(op), "WebGPU " + message);
}

const WebGpuBuffer& WebGpuBackend::buffer_of(const Buffer& buffer, std::string_view op) {
  if (const auto* b = dynamic_cast<const WebGpuBuffer*>(&buffer)) return *b;
  throw_error(ErrorKind::RuntimeState, ErrorPhase::Execute, std::string(op),
              "expected a WebGPU buffer, got one placed at " + buffer.placement().to_string());
}

std::shared_ptr<Buffer> WebGpuBackend::allocate(std::size_t bytes) {
  // Never zero: WebGPU cannot bind an empty buffer, and kernels bind every operand.
  const std::size_t padded = std::max<std::size_t>(round_up4(bytes), 16);
  // An allocation that cannot succeed is a Resource error (DESIGN §3; the op boundary names the
  // op), as on the CPU: `except MemoryError` in Python catches both.
  if (bytes > max_buffer_bytes_ || padded > max_buffer_bytes_) {  // also catches overflow
    throw ResourceError(ErrorPhase::Execute, "webgpu.allocate",
                        std::to_string(bytes) + " bytes exceed the largest buffer adapter " +
                            adapter_name_ + " allows (" + std::to_string(max_buffer_bytes_) +
                            " bytes)",
                        bytes, max_buffer_bytes_);
  }
  WGPUBufferDescriptor desc = WGPU_BUFFER_DESCRIPTOR_INIT;
  desc.usage = WGPUBufferUsage_Storage | WGPUBufferUsage_CopySrc | WGPUBufferUsage_CopyDst;
  desc.size = padded;
  WGPUBuffer handle = wgpuDeviceCreateBuffer(device_, &desc);
  try {
    throw_if_device_error("webgpu.allocate");
  } catch (const Error& e) {
    // The size is within the adapter's limit and the usage fixed: a device error here is the
    // device running out of memory (wgpu reports it as a validation error, "Not enough memory
    // left"), which is a Resource error like the CPU's.
    if (handle != nullptr) wgpuBufferRelease(handle);
    throw ResourceError(
        ErrorPhase::Execute, "webgpu.allocate",
        "the device could not allocate " + std::to_string(bytes) + " bytes (" + e.what() + ")",
        bytes, std::nullopt);
  }
  if (handle == nullptr) {
    throw ResourceError(ErrorPhase::Execute, "webgpu.allocate",
                        "the device could not allocate " + std::to_string(bytes) + " bytes", bytes,
                        std::nullopt);
  }
  return std::make_shared<WebGpuBuffer>(placement_, bytes, padded, handle);
}

void WebGpuBackend::write_aligned(const WebGpuBuffer& dst, std::size_t offset,
                                  const std::byte* data, std::size_t bytes) {
  wgpuQueueWriteBuffer(queue_, dst.handle(), offset, data, bytes);
}

void WebGpuBackend::read_aligned(const WebGpuBuffer& src, std::size_t offset, std::byte* data,
                                 std::size_t bytes) {
  WGPUBufferDescriptor desc = WGPU_BUFFER_DESCRIPTOR_INIT;
  desc.label = view_of("tenferro.webgpu.staging");
  desc.usage = WGPUBufferUsage_MapRead | WGPUBufferUsage_CopyDst;
  desc.size = bytes;
  WGPUBuffer staging = wgpuDeviceCreateBuffer(device_, &desc);
  if (staging == nullptr) throw_backend("could not allocate a staging buffer for a download");
  struct Release {
    WGPUBuffer b;
    ~Release() { wgpuBufferRelease(b); }
  } release{staging};

  submit_validated("webgpu.read", [&] {
    WGPUCommandEncoder encoder = wgpuDeviceCreateCommandEncoder(device_, nullptr);
    wgpuCommandEncoderCopyBufferToBuffer(encoder, src.handle(), offset, staging, 0, bytes);
    WGPUCommandBuffer commands = wgpuCommandEncoderFinish(encoder, nullptr);
    wgpuCommandEncoderRelease(encoder);
    return commands;
  });

  struct MapResult {
    std::atomic<bool> done{false};
    WGPUMapAsyncStatus status = WGPUMapAsyncStatus_Error;
    std::string message;
  } result;
  WGPUBufferMapCallbackInfo cb = WGPU_BUFFER_MAP_CALLBACK_INFO_INIT;
  cb.mode = WGPUCallbackMode_AllowProcessEvents;
  cb.callback = [](WGPUMapAsyncStatus status, WGPUStringView message, void* user, void*) {
    auto* r = static_cast<MapResult*>(user);
    r->status = status;
    r->message = to_string(message);
    r->done.store(true);
  };
  cb.userdata1 = &result;
  wgpuBufferMapAsync(staging, WGPUMapMode_Read, 0, bytes, cb);
  wait_for(result.done, "a download");
  throw_if_device_error("webgpu.read");
  if (result.status != WGPUMapAsyncStatus_Success) {
    throw_backend("mapping a download buffer failed: " + result.message);
  }
  const void* mapped = wgpuBufferGetConstMappedRange(staging, 0, bytes);
  if (mapped == nullptr) throw_backend("a mapped download buffer has no host range");
  std::memcpy(data, mapped, bytes);
  wgpuBufferUnmap(staging);
}

void WebGpuBackend::write(Buffer& dst, std::size_t dst_offset, std::span<const std::byte> src) {
  const WebGpuBuffer& buffer = buffer_of(dst, "webgpu.write");
  if (dst_offset > buffer.size_bytes() || src.size() > buffer.size_bytes() - dst_offset) {
    throw_validation("webgpu.write", "write of " + std::to_string(src.size()) + " bytes at " +
                                         std::to_string(dst_offset) + " overruns a buffer of " +
                                         std::to_string(buffer.size_bytes()) + " bytes");
  }
  if (src.empty()) return;
  // Queue writes must start and end on 4-byte boundaries: widen to the covering words and
  // keep the bytes around the written range by reading them first.
  const std::size_t lo = dst_offset & ~std::size_t{3};
  const std::size_t hi = round_up4(dst_offset + src.size());
  if (lo == dst_offset && hi == dst_offset + src.size()) {
    write_aligned(buffer, dst_offset, src.data(), src.size());
  } else {
    std::vector<std::byte> words(hi - lo);
    read_aligned(buffer, lo, words.data(), words.size());
    std::memcpy(words.data() + (dst_offset - lo), src.data(), src.size());
    write_aligned(buffer, lo, words.data(), words.size());
  }
  throw_if_device_error("webgpu.write");
}

void WebGpuBackend::read(const Buffer& src, std::size_t src_offset, std::span<std::byte> dst) {
  const WebGpuBuffer& buffer = buffer_of(src, "webgpu.read");
  if (src_offset > buffer.size_bytes() || dst.size() > buffer.size_bytes() - src_offset) {
    throw_validation("webgpu.read", "read of " + std::to_string(dst.size()) + " bytes at " +
                                        std::to_string(src_offset) + " overruns a buffer of " +
                                        std::to_string(buffer.size_bytes()) + " bytes");
  }
  if (dst.empty()) return;
  const std::size_t lo = src_offset & ~std::size_t{3};
  const std::size_t hi = round_up4(src_offset + dst.size());
  if (lo == src_offset && hi == src_offset + dst.size()) {
    read_aligned(buffer, src_offset, dst.data(), dst.size());
    return;
  }
  std::vector<std::byte> words(hi - lo);
  read_aligned(buffer, lo, words.data(), words.size());
  std::memcpy(dst.data(), words.data() + (src_offset - lo), dst.size());
}

void WebGpuBackend::synchronize() {
  wgpuDevicePoll(device_, /*wait=*/true, nullptr);
  throw_if_device_error("webgpu.synchronize");
}

std::unique_ptr<Backend> make_webgpu_backend() {
  return std::make_unique<WebGpuBackend>();
}

}  // namespace tenferro
