// WebGpuBackend's compute side: the per-backend pipeline cache and one-dispatch submission.
#include <webgpu.h>
#include <wgpu.h>

#include <cstring>
#include <vector>

#include "backends/webgpu/webgpu_backend.hpp"
#include "tenferro/core/error.hpp"

namespace tenferro {
namespace {

std::string to_string(WGPUStringView s) {
  if (s.data == nullptr) return {};
  return s.length == WGPU_STRLEN ? std::string(s.data) : std::string(s.data, s.length);
}

WGPUStringView view_of(std::string_view s) {
  return WGPUStringView{s.data(), s.size()};
}

struct ScopeResult {
  std::atomic<bool> done{false};
  WGPUErrorType type = WGPUErrorType_NoError;
  std::string message;
};

}  // namespace

WGPUComputePipelineImpl* WebGpuBackend::pipeline(std::string_view wgsl, std::string_view entry) {
  std::string key;
  key.reserve(entry.size() + 1 + wgsl.size());
  key.append(entry).push_back('\n');
  key.append(wgsl);
  std::lock_guard lock(pipelines_mutex_);
  if (auto it = pipelines_.find(key); it != pipelines_.end()) {
    pipeline_hits_.fetch_add(1, std::memory_order_relaxed);
    return it->second;
  }

  // Compile under an error scope so a WGSL mistake is a typed error naming the entry point
  // rather than a message on the uncaptured-error path.
  std::lock_guard scope_lock(scope_mutex_);
  wgpuDevicePushErrorScope(device_, WGPUErrorFilter_Validation);
  WGPUShaderSourceWGSL source = WGPU_SHADER_SOURCE_WGSL_INIT;
  source.code = view_of(wgsl);
  WGPUShaderModuleDescriptor module_desc = WGPU_SHADER_MODULE_DESCRIPTOR_INIT;
  module_desc.nextInChain = &source.chain;
  module_desc.label = view_of(entry);
  WGPUShaderModule module = wgpuDeviceCreateShaderModule(device_, &module_desc);
  WGPUComputePipelineDescriptor desc = WGPU_COMPUTE_PIPELINE_DESCRIPTOR_INIT;
  desc.label = view_of(entry);
  desc.compute.module = module;
  desc.compute.entryPoint = view_of(entry);
  WGPUComputePipeline created = wgpuDeviceCreateComputePipeline(device_, &desc);
  if (module != nullptr) wgpuShaderModuleRelease(module);
  const std::string error = pop_validation_scope("a shader compilation");
  if (!error.empty() || created == nullptr) {
    if (created != nullptr) wgpuComputePipelineRelease(created);
    throw_error(ErrorKind::Backend, ErrorPhase::Execute, "webgpu.pipeline",
                "compiling WGSL entry point '" + std::string(entry) + "' failed: " + error);
  }
  pipelines_built_.fetch_add(1, std::memory_order_relaxed);
  pipelines_.emplace(std::move(key), created);
  return created;
}

std::string WebGpuBackend::pop_validation_scope(std::string_view what) {
  ScopeResult scope;
  WGPUPopErrorScopeCallbackInfo cb = WGPU_POP_ERROR_SCOPE_CALLBACK_INFO_INIT;
  cb.mode = WGPUCallbackMode_AllowProcessEvents;
  cb.callback = [](WGPUPopErrorScopeStatus status, WGPUErrorType type, WGPUStringView message,
                   void* user, void*) {
    auto* r = static_cast<ScopeResult*>(user);
    r->type = status == WGPUPopErrorScopeStatus_Success ? type : WGPUErrorType_Unknown;
    r->message = to_string(message);
    r->done.store(true);
  };
  cb.userdata1 = &scope;
  wgpuDevicePopErrorScope(device_, cb);
  wait_for(scope.done, what);
  if (scope.type == WGPUErrorType_NoError) return {};
  return scope.message.empty() ? std::string("unknown validation error") : scope.message;
}

void WebGpuBackend::submit_validated(std::string_view op,
                                     const std::function<WGPUCommandBufferImpl*()>& record) {
  WGPUCommandBuffer commands = nullptr;
  {
    std::lock_guard scope_lock(scope_mutex_);
    wgpuDevicePushErrorScope(device_, WGPUErrorFilter_Validation);
    commands = record();
    const std::string error = pop_validation_scope(op);
    if (!error.empty()) {
      if (commands != nullptr) wgpuCommandBufferRelease(commands);
      throw_error(ErrorKind::Backend, ErrorPhase::Execute, std::string(op),
                  "WebGPU rejected the commands: " + error);
    }
  }
  wgpuQueueSubmit(queue_, 1, &commands);
  wgpuCommandBufferRelease(commands);
}

void WebGpuBackend::dispatch(WGPUComputePipelineImpl* pipeline,
                             std::span<const std::uint32_t> params,
                             std::span<const WebGpuBuffer* const> buffers, WorkgroupCount groups) {
  for (const WebGpuBuffer* b : buffers) {
    if (b->padded_bytes() > max_storage_binding_bytes_) {
      throw_error(ErrorKind::Unsupported, ErrorPhase::Execute, "webgpu.dispatch",
                  "a buffer of " + std::to_string(b->size_bytes()) +
                      " bytes is larger than one storage binding of adapter " + adapter_name_ +
                      " may be (" + std::to_string(max_storage_binding_bytes_) + " bytes)");
    }
  }
  // Parameters travel in a small read-only storage buffer (no uniform-layout padding rules).
  const std::size_t param_bytes = std::max<std::size_t>(params.size_bytes(), 4);
  WGPUBufferDescriptor param_desc = WGPU_BUFFER_DESCRIPTOR_INIT;
  param_desc.usage = WGPUBufferUsage_Storage | WGPUBufferUsage_CopyDst;
  param_desc.size = (param_bytes + 3) & ~std::size_t{3};
  param_desc.mappedAtCreation = true;
  WGPUBuffer param_buffer = wgpuDeviceCreateBuffer(device_, &param_desc);
  if (param_buffer == nullptr) {
    throw_error(ErrorKind::Backend, ErrorPhase::Execute, "webgpu.dispatch",
                "could not allocate the parameter buffer");
  }
  struct Release {
    WGPUBuffer b;
    ~Release() { wgpuBufferRelease(b); }
  } release_params{param_buffer};
  void* mapped = wgpuBufferGetMappedRange(param_buffer, 0, param_desc.size);
  std::memset(mapped, 0, param_desc.size);
  if (!params.empty()) std::memcpy(mapped, params.data(), params.size_bytes());
  wgpuBufferUnmap(param_buffer);

  std::vector<WGPUBindGroupEntry> entries(buffers.size() + 1, WGPU_BIND_GROUP_ENTRY_INIT);
  entries[0].binding = 0;
  entries[0].buffer = param_buffer;
  entries[0].size = param_desc.size;
  for (std::size_t i = 0; i < buffers.size(); ++i) {
    entries[i + 1].binding = static_cast<std::uint32_t>(i + 1);
    entries[i + 1].buffer = buffers[i]->handle();
    entries[i + 1].size = buffers[i]->padded_bytes();
  }
  submit_validated("webgpu.dispatch", [&] {
    WGPUBindGroupLayout layout = wgpuComputePipelineGetBindGroupLayout(pipeline, 0);
    WGPUBindGroupDescriptor group_desc = WGPU_BIND_GROUP_DESCRIPTOR_INIT;
    group_desc.layout = layout;
    group_desc.entryCount = entries.size();
    group_desc.entries = entries.data();
    WGPUBindGroup group = wgpuDeviceCreateBindGroup(device_, &group_desc);
    WGPUCommandEncoder encoder = wgpuDeviceCreateCommandEncoder(device_, nullptr);
    WGPUComputePassEncoder pass = wgpuCommandEncoderBeginComputePass(encoder, nullptr);
    wgpuComputePassEncoderSetPipeline(pass, pipeline);
    wgpuComputePassEncoderSetBindGroup(pass, 0, group, 0, nullptr);
    wgpuComputePassEncoderDispatchWorkgroups(pass, groups.x, groups.y, groups.z);
    wgpuComputePassEncoderEnd(pass);
    WGPUCommandBuffer commands = wgpuCommandEncoderFinish(encoder, nullptr);
    // What the commands use stays alive with them; our references can go now.
    wgpuComputePassEncoderRelease(pass);
    wgpuCommandEncoderRelease(encoder);
    wgpuBindGroupRelease(group);
    wgpuBindGroupLayoutRelease(layout);
    return commands;
  });
  dispatches_.fetch_add(1, std::memory_order_relaxed);
  throw_if_device_error("webgpu.dispatch");
}

void WebGpuBackend::copy_buffer(const WebGpuBuffer& src, std::size_t src_offset,
                                const WebGpuBuffer& dst, std::size_t dst_offset,
                                std::size_t bytes) {
  if (bytes == 0) return;
  submit_validated("webgpu.copy", [&] {
    WGPUCommandEncoder encoder = wgpuDeviceCreateCommandEncoder(device_, nullptr);
    wgpuCommandEncoderCopyBufferToBuffer(encoder, src.handle(), src_offset, dst.handle(),
                                         dst_offset, bytes);
    WGPUCommandBuffer commands = wgpuCommandEncoderFinish(encoder, nullptr);
    wgpuCommandEncoderRelease(encoder);
    return commands;
  });
  throw_if_device_error("webgpu.copy");
}

WebGpuPipelineStats WebGpuBackend::pipeline_stats() const {
  return {pipelines_built_.load(), pipeline_hits_.load(), dispatches_.load()};
}

}  // namespace tenferro
