#include "backends/cuda/cuda_backend.hpp"

#include <algorithm>
#include <array>
#include <cstring>
#include <limits>

#include "backends/cuda/cuda_check.hpp"
#include "tenferro/core/error.hpp"

namespace tenferro {

namespace cuda_detail {

// The backend's stream and its own memory pool. Shared with every buffer, so both outlive
// the last stream-ordered free.
struct DeviceStream {
  int device = 0;
  cudaStream_t stream = nullptr;
  cudaMemPool_t pool = nullptr;
  ~DeviceStream() {
    // Destruction may not throw: queued frees and kernels finish, errors are dropped here.
    cudaSetDevice(device);
    if (stream != nullptr) {
      cudaStreamSynchronize(stream);
      cudaStreamDestroy(stream);
    }
    if (pool != nullptr) cudaMemPoolDestroy(pool);
  }
};

// Two pinned chunks so the host-side memcpy of one chunk overlaps the DMA of the other.
// Transfers below kStagedThreshold go straight from pageable memory (the driver stages
// small copies itself; pinning costs more than it saves there).
struct StagingArea {
  static constexpr std::size_t kChunk = std::size_t{4} << 20;
  static constexpr std::size_t kStagedThreshold = std::size_t{1} << 20;
  std::mutex mutex;
  std::array<void*, 2> pinned{nullptr, nullptr};
  std::array<cudaEvent_t, 2> done{nullptr, nullptr};
  ~StagingArea() {
    for (void* p : pinned)
      if (p) cudaFreeHost(p);
    for (cudaEvent_t e : done)
      if (e) cudaEventDestroy(e);
  }
  void ensure() {
    for (int i = 0; i < 2; ++i) {
      if (pinned[i] == nullptr) cuda_check(cudaMallocHost(&pinned[i], kChunk), "cuda.staging");
      if (done[i] == nullptr)
        cuda_check(cudaEventCreateWithFlags(&done[i], cudaEventDisableTiming), "cuda.staging");
    }
  }
};

namespace {
// Sets the calling thread's current device for a scope and restores the previous one.
class DeviceScope {
 public:
  explicit DeviceScope(int device) {
    if (cudaGetDevice(&previous_) != cudaSuccess) previous_ = -1;
    if (previous_ != device) cuda_check(cudaSetDevice(device), "cuda.set_device");
  }
  ~DeviceScope() {
    int now = -1;
    if (previous_ >= 0 && cudaGetDevice(&now) == cudaSuccess && now != previous_)
      cudaSetDevice(previous_);
  }
  DeviceScope(const DeviceScope&) = delete;
  DeviceScope& operator=(const DeviceScope&) = delete;

 private:
  int previous_ = -1;
};
}  // namespace

}  // namespace cuda_detail

using cuda_detail::cuda_check;
using cuda_detail::DeviceScope;

int cuda_device_count() noexcept {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) {
    cudaGetLastError();
    return 0;
  }
  return count;
}

CudaBuffer::CudaBuffer(Placement placement, std::size_t bytes, void* device_ptr,
                       std::shared_ptr<cuda_detail::DeviceStream> stream)
    : Buffer(placement, bytes), ptr_(device_ptr), stream_(std::move(stream)) {}

CudaBuffer::~CudaBuffer() {
  if (ptr_ == nullptr) return;
  int previous = -1;
  cudaGetDevice(&previous);
  if (previous != stream_->device) cudaSetDevice(stream_->device);
  cudaFreeAsync(ptr_, stream_->stream);  // ordered after every queued use of the buffer
  if (previous >= 0 && previous != stream_->device) cudaSetDevice(previous);
}

std::string CudaBackend::engine_name(int device) {
  return "tenferro.cuda.d" + std::to_string(device) + ".v1";
}

namespace {
// The ordinal must name a present device. Checked before a backend object exists, so that a
// machine without the device counts no backend construction.
void require_cuda_device(int device) {
  if (device < 0) {
    throw_error(ErrorKind::Validation, ErrorPhase::Runtime, "runtime.cuda",
                "device ordinal must be >= 0, got " + std::to_string(device));
  }
  int count = 0;
  cuda_check(cudaGetDeviceCount(&count), "runtime.cuda", ErrorPhase::Runtime);
  if (device >= count) {
    throw_error(
        ErrorKind::Backend, ErrorPhase::Runtime, "runtime.cuda",
        "no CUDA device " + std::to_string(device) + " (" + std::to_string(count) + " present)");
  }
}
}  // namespace

CudaBackend::CudaBackend(int device)
    : device_(device),
      engine_(engine_name(device)),
      placement_{MemoryKind::Device, BackendKind::Cuda, device, next_allocation_domain()} {
  DeviceScope scope(device);
  cudaDeviceProp prop{};
  cuda_check(cudaGetDeviceProperties(&prop, device), "runtime.cuda", ErrorPhase::Runtime);
  int driver = 0, runtime = 0;
  cuda_check(cudaDriverGetVersion(&driver), "runtime.cuda", ErrorPhase::Runtime);
  cuda_check(cudaRuntimeGetVersion(&runtime), "runtime.cuda", ErrorPhase::Runtime);
  auto version = [](int v) {
    return std::to_string(v / 1000) + "." + std::to_string((v % 1000) / 10);
  };
  description_ = std::string(prop.name) + " (compute capability " + std::to_string(prop.major) +
                 "." + std::to_string(prop.minor) + ", " +
                 std::to_string(prop.totalGlobalMem >> 20) + " MiB, driver " + version(driver) +
                 ", runtime " + version(runtime) + ")";

  auto stream = std::make_shared<cuda_detail::DeviceStream>();
  stream->device = device;
  // A pool of our own whose freed blocks stay cached for reuse instead of going back to the
  // driver at every synchronization: a caching allocator without code of our own. The
  // device's default pool, which other libraries in the process share, is left as it is.
  cudaMemPoolProps props{};
  props.allocType = cudaMemAllocationTypePinned;
  props.location.type = cudaMemLocationTypeDevice;
  props.location.id = device;
  cuda_check(cudaMemPoolCreate(&stream->pool, &props), "runtime.cuda", ErrorPhase::Runtime);
  std::uint64_t keep = std::numeric_limits<std::uint64_t>::max();
  cuda_check(cudaMemPoolSetAttribute(stream->pool, cudaMemPoolAttrReleaseThreshold, &keep),
             "runtime.cuda", ErrorPhase::Runtime);
  cuda_check(cudaStreamCreateWithFlags(&stream->stream, cudaStreamNonBlocking), "runtime.cuda",
             ErrorPhase::Runtime);
  stream_ = std::move(stream);
  staging_ = std::make_unique<cuda_detail::StagingArea>();
}

CudaBackend::~CudaBackend() {
  cudaSetDevice(device_);
  if (stream_) cudaStreamSynchronize(stream_->stream);
  family_state_.clear();  // may own device resources (plans, kernels' scratch)
  if (cublas_) cublasDestroy(cublas_);
  if (cusolver_) cusolverDnDestroy(cusolver_);
}

CUstream_st* CudaBackend::stream() const noexcept {
  return stream_->stream;
}

void CudaBackend::make_current() const {
  int current = -1;
  if (cudaGetDevice(&current) != cudaSuccess || current != device_)
    cuda_check(cudaSetDevice(device_), "cuda.set_device");
}

cublasContext* CudaBackend::cublas() {
  std::lock_guard lock(handles_mutex_);
  if (cublas_ == nullptr) {
    make_current();
    cublasHandle_t handle = nullptr;
    cuda_check(cublasCreate(&handle), "cuda.cublas");
    cuda_check(cublasSetStream(handle, stream_->stream), "cuda.cublas");
    // Plain IEEE FP32/FP64 arithmetic: no TF32 down-conversion behind the caller's back.
    cuda_check(cublasSetMathMode(handle, CUBLAS_DEFAULT_MATH), "cuda.cublas");
    cublas_ = handle;
  }
  return cublas_;
}

cusolverDnContext* CudaBackend::cusolver() {
  std::lock_guard lock(handles_mutex_);
  if (cusolver_ == nullptr) {
    make_current();
    cusolverDnHandle_t handle = nullptr;
    cuda_check(cusolverDnCreate(&handle), "cuda.cusolver");
    cuda_check(cusolverDnSetStream(handle, stream_->stream), "cuda.cusolver");
    cusolver_ = handle;
  }
  return cusolver_;
}

void* CudaBackend::device_pointer(const Buffer& buffer, std::string_view op) const {
  const auto* cuda = dynamic_cast<const CudaBuffer*>(&buffer);
  if (cuda == nullptr || !(buffer.placement() == placement_)) {
    throw_error(ErrorKind::RuntimeState, ErrorPhase::Execute, std::string(op),
                "buffer in " + buffer.placement().to_string() + " is not memory of CUDA backend " +
                    placement_.to_string());
  }
  return cuda->device_data();
}

std::shared_ptr<Buffer> CudaBackend::allocate(std::size_t bytes) {
  void* ptr = nullptr;
  if (bytes > 0) {
    make_current();
    cuda_check(cudaMallocFromPoolAsync(&ptr, bytes, stream_->pool, stream_->stream),
               "cuda.allocate");
  }
  return std::make_shared<CudaBuffer>(placement_, bytes, ptr, stream_);
}

namespace {
void check_range(const Buffer& buffer, std::size_t offset, std::size_t bytes, const char* op) {
  if (offset > buffer.size_bytes() || bytes > buffer.size_bytes() - offset) {
    throw_error(ErrorKind::Validation, ErrorPhase::Transfer, op, "byte range outside the buffer");
  }
}
}  // namespace

void CudaBackend::write(Buffer& dst, std::size_t dst_offset, std::span<const std::byte> src) {
  check_range(dst, dst_offset, src.size(), "cuda.write");
  if (src.empty()) return;
  auto* base = static_cast<std::byte*>(device_pointer(dst, "cuda.write")) + dst_offset;
  make_current();
  cudaStream_t s = stream_->stream;
  if (src.size() < cuda_detail::StagingArea::kStagedThreshold) {
    check_queued_work(cudaMemcpyAsync(base, src.data(), src.size(), cudaMemcpyHostToDevice, s),
                      "cuda.write", ErrorPhase::Transfer, false);
    check_queued_work(cudaStreamSynchronize(s), "cuda.write", ErrorPhase::Transfer, true);
    return;
  }
  std::lock_guard lock(staging_->mutex);
  staging_->ensure();
  std::size_t done = 0;
  for (int slot = 0; done < src.size(); slot ^= 1) {
    const std::size_t n = std::min(cuda_detail::StagingArea::kChunk, src.size() - done);
    // The slot's previous DMA must have left the pinned chunk before we overwrite it.
    check_queued_work(cudaEventSynchronize(staging_->done[slot]), "cuda.write",
                      ErrorPhase::Transfer, false);
    std::memcpy(staging_->pinned[slot], src.data() + done, n);
    check_queued_work(
        cudaMemcpyAsync(base + done, staging_->pinned[slot], n, cudaMemcpyHostToDevice, s),
        "cuda.write", ErrorPhase::Transfer, false);
    check_queued_work(cudaEventRecord(staging_->done[slot], s), "cuda.write", ErrorPhase::Transfer,
                      false);
    done += n;
  }
  check_queued_work(cudaStreamSynchronize(s), "cuda.write", ErrorPhase::Transfer, true);
}

void CudaBackend::read(const Buffer& src, std::size_t src_offset, std::span<std::byte> dst) {
  check_range(src, src_offset, dst.size(), "cuda.read");
  if (dst.empty()) return;
  const auto* base = static_cast<const std::byte*>(device_pointer(src, "cuda.read")) + src_offset;
  make_current();
  cudaStream_t s = stream_->stream;
  if (dst.size() < cuda_detail::StagingArea::kStagedThreshold) {
    check_queued_work(cudaMemcpyAsync(dst.data(), base, dst.size(), cudaMemcpyDeviceToHost, s),
                      "cuda.read", ErrorPhase::Transfer, false);
    check_queued_work(cudaStreamSynchronize(s), "cuda.read", ErrorPhase::Transfer, true);
    return;
  }
  std::lock_guard lock(staging_->mutex);
  staging_->ensure();
  // Queue chunk i+1's DMA before copying chunk i out of pinned memory, so they overlap.
  const std::size_t total = dst.size();
  const std::size_t chunk = cuda_detail::StagingArea::kChunk;
  auto enqueue = [&](std::size_t offset, int slot) {
    const std::size_t n = std::min(chunk, total - offset);
    check_queued_work(
        cudaMemcpyAsync(staging_->pinned[slot], base + offset, n, cudaMemcpyDeviceToHost, s),
        "cuda.read", ErrorPhase::Transfer, false);
    check_queued_work(cudaEventRecord(staging_->done[slot], s), "cuda.read", ErrorPhase::Transfer,
                      false);
  };
  enqueue(0, 0);
  int slot = 0;
  for (std::size_t offset = 0; offset < total; offset += chunk, slot ^= 1) {
    if (offset + chunk < total) enqueue(offset + chunk, slot ^ 1);
    check_queued_work(cudaEventSynchronize(staging_->done[slot]), "cuda.read", ErrorPhase::Transfer,
                      false);
    std::memcpy(dst.data() + offset, staging_->pinned[slot], std::min(chunk, total - offset));
  }
}

void CudaBackend::synchronize() {
  make_current();
  check_queued_work(cudaStreamSynchronize(stream_->stream), "cuda.synchronize", ErrorPhase::Execute,
                    true);
}

void CudaBackend::note_queued_work(std::string_view op) noexcept {
  std::lock_guard lock(queued_mutex_);
  try {
    last_queued_op_.assign(op);
  } catch (...) {
    last_queued_op_.clear();  // attribution only: never fail the call for it
  }
  ++queued_ops_;
}

namespace {
// Errors with which a kernel that already ran reports a fault. They surface at the next
// synchronization, whichever call makes it, and leave the CUDA context unusable.
bool is_asynchronous_kernel_fault(cudaError_t status) {
  switch (status) {
    case cudaErrorIllegalAddress:
    case cudaErrorLaunchFailure:
    case cudaErrorIllegalInstruction:
    case cudaErrorMisalignedAddress:
    case cudaErrorInvalidAddressSpace:
    case cudaErrorInvalidPc:
    case cudaErrorHardwareStackError:
    case cudaErrorAssert:
    case cudaErrorLaunchTimeout:
    case cudaErrorECCUncorrectable:
      return true;
    default:
      return false;
  }
}
}  // namespace

void CudaBackend::check_queued_work(int cuda_status, const char* what, ErrorPhase phase,
                                    bool stream_synchronized) {
  const auto status = static_cast<cudaError_t>(cuda_status);
  std::lock_guard lock(queued_mutex_);
  if (status == cudaSuccess) {
    if (stream_synchronized) queued_ops_ = 0;  // everything queued so far finished cleanly
    return;
  }
  if (!is_asynchronous_kernel_fault(status) || queued_ops_ == 0) {
    cuda_check(status, what, phase);
  }
  const std::string op = last_queued_op_.empty() ? std::string("cuda") : last_queued_op_;
  throw_error(ErrorKind::Backend, ErrorPhase::Execute, op,
              std::string("CUDA error ") + cudaGetErrorName(status) + " (" +
                  cudaGetErrorString(status) + "): a kernel queued by " + op + " (the last of " +
                  std::to_string(queued_ops_) +
                  " ops queued since the last clean synchronization) failed asynchronously; "
                  "found by " +
                  what + ". The CUDA context of this device is no longer usable.");
}

std::unique_ptr<Backend> make_cuda_backend(int device) {
  require_cuda_device(device);
  return std::make_unique<CudaBackend>(device);
}

}  // namespace tenferro
