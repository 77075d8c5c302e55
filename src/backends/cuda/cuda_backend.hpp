// The CUDA backend: device memory the host cannot touch, one stream per backend, a
// stream-ordered allocator (cudaMallocFromPoolAsync on a pool of its own that keeps freed memory
// for reuse), explicit copies (pinned staging for large transfers) and vendor handles (cuBLAS,
// cuSOLVER) created on first use. This header names no CUDA type beyond opaque handle declarations,
// so the runtime and the tests include it without the CUDA headers on their include path.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <string_view>
#include <typeindex>
#include <unordered_map>

#include "tenferro/core/error.hpp"
#include "tenferro/runtime/backend.hpp"

// The opaque handle types behind cudaStream_t, cublasHandle_t and cusolverDnHandle_t (the
// same declarations the CUDA headers make).
struct CUstream_st;
struct cublasContext;
struct cusolverDnContext;

namespace tenferro {

namespace cuda_detail {
struct DeviceStream;  // device ordinal + stream; outlives every buffer allocated on it
struct StagingArea;   // pinned host buffers for chunked transfers
}  // namespace cuda_detail

// A device allocation. host_data() stays nullptr: the host may not touch device memory.
class CudaBuffer final : public Buffer {
 public:
  CudaBuffer(Placement placement, std::size_t bytes, void* device_ptr,
             std::shared_ptr<cuda_detail::DeviceStream> stream);
  ~CudaBuffer() override;  // stream-ordered free: safe while kernels that use it are queued
  CudaBuffer(const CudaBuffer&) = delete;
  CudaBuffer& operator=(const CudaBuffer&) = delete;
  void* device_data() const noexcept { return ptr_; }

 private:
  void* ptr_;
  std::shared_ptr<cuda_detail::DeviceStream> stream_;
};

class CudaBackend final : public Backend {
 public:
  // Selects `device` (a present device: make_cuda_backend checks the ordinal first), creates
  // its stream and configures the stream-ordered pool. Throws a Backend error (with the CUDA
  // error string) when the driver fails.
  explicit CudaBackend(int device);
  ~CudaBackend() override;
  CudaBackend(const CudaBackend&) = delete;
  CudaBackend& operator=(const CudaBackend&) = delete;

  BackendKind kind() const noexcept override { return BackendKind::Cuda; }
  const EngineId* direct_engine() const noexcept override { return &engine_; }
  const Placement& placement() const noexcept override { return placement_; }
  std::string description() const override { return description_; }

  std::shared_ptr<Buffer> allocate(std::size_t bytes) override;
  void write(Buffer& dst, std::size_t dst_offset, std::span<const std::byte> src) override;
  void read(const Buffer& src, std::size_t src_offset, std::span<std::byte> dst) override;
  void synchronize() override;
  void note_queued_work(std::string_view op) noexcept override;
  // One stream and one set of vendor handles per device: work on them serializes.
  bool serializes_sessions() const noexcept override { return true; }

  int device() const noexcept { return device_; }
  CUstream_st* stream() const noexcept;
  // Makes this backend's device current on the calling thread (cheap when it already is).
  void make_current() const;
  // Vendor handles bound to this backend's stream, created on first use.
  cublasContext* cublas();
  cusolverDnContext* cusolver();

  // The device pointer of a buffer of THIS backend (RuntimeState error naming `op` for a
  // buffer of another backend or device).
  void* device_pointer(const Buffer& buffer, std::string_view op) const;

  // Long-lived per-backend state of an op family (e.g. einsum's kernel set), made on first
  // use and kept for the backend's life, never evicted (unlike the runtime's LRU cache).
  template <class T, class Make>
  T& family_state(Make&& make) {
    std::lock_guard lock(family_state_mutex_);
    std::shared_ptr<void>& slot = family_state_[std::type_index(typeid(T))];
    if (!slot) slot = std::shared_ptr<T>(make());
    return *static_cast<T*>(slot.get());
  }

  // "tenferro.cuda.d<ordinal>.v1"
  static std::string engine_name(int device);

 private:
  int device_;
  EngineId engine_;
  Placement placement_;
  std::string description_;
  std::shared_ptr<cuda_detail::DeviceStream> stream_;
  std::unique_ptr<cuda_detail::StagingArea> staging_;
  std::mutex handles_mutex_;
  cublasContext* cublas_ = nullptr;
  cusolverDnContext* cusolver_ = nullptr;
  std::mutex family_state_mutex_;
  std::unordered_map<std::type_index, std::shared_ptr<void>> family_state_;
  // The ops that queued work since the stream last synchronized cleanly: a kernel fault
  // reported at a later synchronization (a read, a write) is charged to them, not to the
  // transfer that found it.
  std::mutex queued_mutex_;
  std::string last_queued_op_;
  std::uint64_t queued_ops_ = 0;
  // cuda_check for a cudaError_t (passed as int: this header names no CUDA type) returned by a
  // call that may report an earlier kernel's fault: such a fault is charged to the queued ops
  // (see queued_ops_). `stream_synchronized`: success means the stream ran clean so far.
  void check_queued_work(int cuda_status, const char* what, ErrorPhase phase,
                         bool stream_synchronized);
};

// Number of CUDA devices, or 0 when there is no driver or no device (never throws).
int cuda_device_count() noexcept;

// A CUDA backend on `device` (what EagerRuntime::cuda() wraps). Throws Backend when no
// driver or device is present, Validation for a negative ordinal.
std::unique_ptr<Backend> make_cuda_backend(int device);

}  // namespace tenferro
