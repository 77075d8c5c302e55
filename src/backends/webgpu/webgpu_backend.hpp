// The WebGPU backend on wgpu-native: device memory the host cannot touch, explicit copies
// through the queue and mapped staging buffers, and compute pipelines built once per backend.
// This header names no wgpu-native type beyond opaque handles, so tests and the runtime can
// include it without webgpu.h on their include path.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <string_view>
#include <typeindex>
#include <unordered_map>

#include "tenferro/runtime/backend.hpp"

// Opaque handle types of webgpu.h (the same declarations webgpu.h makes).
struct WGPUInstanceImpl;
struct WGPUAdapterImpl;
struct WGPUDeviceImpl;
struct WGPUQueueImpl;
struct WGPUBufferImpl;
struct WGPUComputePipelineImpl;
struct WGPUCommandBufferImpl;

namespace tenferro {

class WebGpuBackend;

// A storage buffer on the WebGPU device. The allocation is padded to a multiple of 4 bytes
// (WebGPU copies and bindings require it); size_bytes() is the size that was asked for.
class WebGpuBuffer final : public Buffer {
 public:
  WebGpuBuffer(Placement placement, std::size_t bytes, std::size_t padded_bytes,
               WGPUBufferImpl* handle);
  ~WebGpuBuffer() override;
  WebGpuBuffer(const WebGpuBuffer&) = delete;
  WebGpuBuffer& operator=(const WebGpuBuffer&) = delete;
  // Device memory: the host may not touch it (host_data() stays nullptr).
  WGPUBufferImpl* handle() const noexcept { return handle_; }
  std::size_t padded_bytes() const noexcept { return padded_bytes_; }

 private:
  std::size_t padded_bytes_;
  WGPUBufferImpl* handle_;
};

// Grid of workgroups for one dispatch.
struct WorkgroupCount {
  std::uint32_t x = 1, y = 1, z = 1;
};

// Counters tests read to prove pipelines are built once and reused.
struct WebGpuPipelineStats {
  std::uint64_t built = 0;       // pipelines compiled (cache misses)
  std::uint64_t cache_hits = 0;  // pipeline lookups answered by the cache
  std::uint64_t dispatches = 0;  // compute dispatches submitted
};

class WebGpuBackend final : public Backend {
 public:
  // Creates instance, adapter, device and queue. Throws a Backend error when no adapter or
  // device is available (the message says how to get a CPU Vulkan driver).
  WebGpuBackend();
  ~WebGpuBackend() override;
  WebGpuBackend(const WebGpuBackend&) = delete;
  WebGpuBackend& operator=(const WebGpuBackend&) = delete;

  BackendKind kind() const noexcept override { return BackendKind::WebGpu; }
  const EngineId* direct_engine() const noexcept override { return &engine_; }
  const Placement& placement() const noexcept override { return placement_; }
  std::string description() const override { return description_; }

  std::shared_ptr<Buffer> allocate(std::size_t bytes) override;
  void write(Buffer& dst, std::size_t dst_offset, std::span<const std::byte> src) override;
  void read(const Buffer& src, std::size_t src_offset, std::span<std::byte> dst) override;
  void synchronize() override;
  // One queue and one pipeline cache per device: work on them serializes.
  bool serializes_sessions() const noexcept override { return true; }

  static const EngineId& engine() noexcept;  // "tenferro.webgpu.d0.v1"

  // Adapter facts for `tenferro info`.
  const std::string& adapter_name() const noexcept { return adapter_name_; }
  const std::string& adapter_backend() const noexcept { return adapter_backend_; }
  const std::string& adapter_driver() const noexcept { return adapter_driver_; }
  std::uint64_t max_storage_binding_bytes() const noexcept { return max_storage_binding_bytes_; }

  // --- Compute (used by the WGSL kernels of the op families) ---
  // The pipeline for (WGSL source, entry point), compiled on first use and cached for the
  // backend's life. A WGSL error is a Backend error naming the entry point.
  WGPUComputePipelineImpl* pipeline(std::string_view wgsl, std::string_view entry);
  // Records and submits one dispatch. Binding 0 is `params` (a read-only storage array of
  // 32-bit words), bindings 1.. are `buffers` in order (the whole padded buffer each). The
  // shader decides which of them it writes.
  void dispatch(WGPUComputePipelineImpl* pipeline, std::span<const std::uint32_t> params,
                std::span<const WebGpuBuffer* const> buffers, WorkgroupCount groups);
  // Device-side copy of `bytes` (a multiple of 4) between buffers, queued in order.
  void copy_buffer(const WebGpuBuffer& src, std::size_t src_offset, const WebGpuBuffer& dst,
                   std::size_t dst_offset, std::size_t bytes);
  WebGpuPipelineStats pipeline_stats() const;

  // Long-lived per-backend state of an op family (e.g. einsum's kernel set), made by `make`
  // on first use and kept for the backend's life. Unlike the runtime's LRU cache it is never
  // evicted, so references to it stay valid while a call runs.
  template <class T, class Make>
  T& family_state(Make&& make) {
    std::lock_guard lock(family_state_mutex_);
    std::shared_ptr<void>& slot = family_state_[std::type_index(typeid(T))];
    if (!slot) slot = std::shared_ptr<T>(make());
    return *static_cast<T*>(slot.get());
  }

  // The WebGpuBuffer behind a generic buffer, or a RuntimeState error naming `op`.
  static const WebGpuBuffer& buffer_of(const Buffer& buffer, std::string_view op);

 private:
  void open_device();  // adapter, device and queue on instance_
  void release_handles() noexcept;
  void wait_for(const std::atomic<bool>& done, std::string_view what);
  // Validation errors raised while `record` builds commands are caught by an error scope and
  // become a Backend error naming `op`; only valid commands reach the queue (wgpu-native
  // aborts the process on submitting an invalid command buffer).
  void submit_validated(std::string_view op, const std::function<WGPUCommandBufferImpl*()>& record);
  // Pops the innermost validation error scope: its message, or empty when there was none.
  std::string pop_validation_scope(std::string_view what);
  void throw_if_device_error(std::string_view op);
  void write_aligned(const WebGpuBuffer& dst, std::size_t offset, const std::byte* data,
                     std::size_t bytes);
  void read_aligned(const WebGpuBuffer& src, std::size_t offset, std::byte* data,
                    std::size_t bytes);

  EngineId engine_;
  Placement placement_;
  std::string description_, adapter_name_, adapter_backend_, adapter_driver_;
  std::uint64_t max_storage_binding_bytes_ = 0;
  std::uint64_t max_buffer_bytes_ = 0;

  WGPUInstanceImpl* instance_ = nullptr;
  WGPUAdapterImpl* adapter_ = nullptr;
  WGPUDeviceImpl* device_ = nullptr;
  WGPUQueueImpl* queue_ = nullptr;

  // Errors reported by the device's callbacks (validation, out of memory, device lost);
  // the next backend call that checks turns them into a Backend error.
  struct DeviceErrors {
    std::mutex mutex;
    std::string first_message;
    bool lost = false;
  };
  std::unique_ptr<DeviceErrors> errors_ = std::make_unique<DeviceErrors>();

  // Error scopes are a per-device stack: push/pop pairs must not interleave across threads.
  std::mutex scope_mutex_;
  mutable std::mutex pipelines_mutex_;
  std::unordered_map<std::string, WGPUComputePipelineImpl*> pipelines_;
  std::atomic<std::uint64_t> pipelines_built_{0}, pipeline_hits_{0}, dispatches_{0};

  std::mutex family_state_mutex_;
  std::unordered_map<std::type_index, std::shared_ptr<void>> family_state_;
};

// A WebGPU backend on adapter 0 (what EagerRuntime::webgpu() wraps). Throws Backend when no
// adapter exists.
std::unique_ptr<Backend> make_webgpu_backend();

}  // namespace tenferro
