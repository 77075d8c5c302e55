#include "backends/cpu/cpu_backend.hpp"

#include <atomic>
#include <cassert>
#include <cstring>
#include <mutex>
#include <utility>

#include "tenferro/runtime/runtime.hpp"
#include "tenferro/runtime/stats.hpp"

namespace tenferro {

namespace {

// Every CPU compute kernel in the process (the counter tests read to prove that a device
// runtime ran no CPU kernel), counted per thread: each thread adds to a counter only it writes,
// by a load and a store (no locked instruction), and a reader sums the live threads' counters
// and what exited threads left. One shared atomic took a locked add per kernel, on a cache line
// that moved between the cores of every thread running small ops.
// The live threads' counters form a list threaded through the counters themselves, so that a
// thread's first kernel allocates nothing (a vector's growth could throw inside the noexcept
// count below).
struct ThreadLaunchCounter;
struct LaunchCounters {
  std::mutex mutex;
  ThreadLaunchCounter* live = nullptr;
  std::uint64_t exited = 0;
};

LaunchCounters& launch_counters() {
  static auto* counters = new LaunchCounters;  // never freed: threads may exit after main
  return *counters;
}

struct ThreadLaunchCounter {
  std::atomic<std::uint64_t> value{0};
  ThreadLaunchCounter* prev = nullptr;
  ThreadLaunchCounter* next = nullptr;
  ThreadLaunchCounter() {
    LaunchCounters& c = launch_counters();
    const std::lock_guard lock(c.mutex);
    next = c.live;
    if (next != nullptr) next->prev = this;
    c.live = this;
  }
  ~ThreadLaunchCounter() {
    LaunchCounters& c = launch_counters();
    const std::lock_guard lock(c.mutex);
    c.exited += value.load(std::memory_order_relaxed);
    (prev != nullptr ? prev->next : c.live) = next;
    if (next != nullptr) next->prev = prev;
  }
  ThreadLaunchCounter(const ThreadLaunchCounter&) = delete;
  ThreadLaunchCounter& operator=(const ThreadLaunchCounter&) = delete;
};

thread_local ThreadLaunchCounter t_cpu_kernel_launches;

}  // namespace

void count_cpu_kernel_launch(std::uint64_t count) noexcept {
  std::atomic<std::uint64_t>& v = t_cpu_kernel_launches.value;
  v.store(v.load(std::memory_order_relaxed) + count, std::memory_order_relaxed);  // one writer
}
std::uint64_t process_cpu_kernel_launches() noexcept {
  LaunchCounters& c = launch_counters();
  const std::lock_guard lock(c.mutex);
  std::uint64_t total = c.exited;
  for (const ThreadLaunchCounter* t = c.live; t != nullptr; t = t->next)
    total += t->value.load(std::memory_order_relaxed);
  return total;
}

CpuBuffer::CpuBuffer(Placement placement, std::shared_ptr<HostStorage> storage)
    : Buffer(placement, storage->size_bytes()),
      shared_(std::move(storage)),
      data_(shared_->data()) {}

CpuBuffer::CpuBuffer(Placement placement, cpu_memory::CachedBlock block, std::size_t bytes)
    : Buffer(placement, bytes), block_(std::move(block)), data_(block_.get()->data()) {
  if (bytes > block_.get()->size_bytes()) {
    throw_error(ErrorKind::RuntimeState, ErrorPhase::Execute, "cpu.allocate",
                "a buffer larger than its storage");
  }
}

std::shared_ptr<HostStorage> CpuBuffer::host_storage(
    const std::shared_ptr<Buffer>& self) const noexcept {
  if (shared_) return shared_;
  assert(self.get() == this);
  std::call_once(block_view_once_, [this] {
    block_view_.emplace(
        data_, size_bytes(),
        std::shared_ptr<void>(std::shared_ptr<void>(), const_cast<CpuBuffer*>(this)));
  });
  return std::shared_ptr<HostStorage>(self, &*block_view_);
}

const EngineId& CpuBackend::engine() noexcept {
  static const EngineId id("tenferro.cpu.v1");
  return id;
}

namespace {
// The cache lives while any CPU backend or any of its blocks does (each holds a reference):
// when the last is gone its blocks are freed, as a runtime's own cache was, instead of being
// kept until exit. The weak reference and its mutex are never destroyed, so a backend built
// during static destruction (a detached thread, a static's destructor) still finds them.
std::shared_ptr<cpu_memory::HostBlockCache> process_block_cache() {
  static auto* mutex = new std::mutex;
  static auto* cache = new std::weak_ptr<cpu_memory::HostBlockCache>;
  const std::lock_guard lock(*mutex);
  std::shared_ptr<cpu_memory::HostBlockCache> live = cache->lock();
  if (!live) {
    live = std::make_shared<cpu_memory::HostBlockCache>();
    *cache = live;
  }
  return live;
}
}  // namespace

CpuBackend::CpuBackend() : CpuBackend(process_block_cache()) {}

CpuBackend::CpuBackend(std::shared_ptr<cpu_memory::HostBlockCache> blocks)
    : engine_(engine()),
      placement_{MemoryKind::Host, BackendKind::Cpu, 0, next_allocation_domain()},
      blocks_(std::move(blocks)) {}

std::string CpuBackend::description() const {
  return "host CPU (OpenBLAS, LAPACKE)";
}

std::shared_ptr<Buffer> CpuBackend::allocate(std::size_t bytes) {
  // Backend allocations are "contents unspecified" (Backend::allocate): no zero-fill.
  return std::make_shared<CpuBuffer>(placement_,
                                     cpu_memory::HostBlockCache::take_block(blocks_, bytes), bytes);
}

namespace {
void check_range(const Buffer& buffer, std::size_t offset, std::size_t bytes, const char* op) {
  if (offset > buffer.size_bytes() || bytes > buffer.size_bytes() - offset) {
    throw_error(ErrorKind::Validation, ErrorPhase::Transfer, op, "byte range outside the buffer");
  }
}
}  // namespace

void CpuBackend::write(Buffer& dst, std::size_t dst_offset, std::span<const std::byte> src) {
  check_range(dst, dst_offset, src.size(), "cpu.write");
  if (!src.empty()) std::memcpy(dst.host_data() + dst_offset, src.data(), src.size());
}

void CpuBackend::read(const Buffer& src, std::size_t src_offset, std::span<std::byte> dst) {
  check_range(src, src_offset, dst.size(), "cpu.read");
  if (!dst.empty()) std::memcpy(dst.data(), src.host_data() + src_offset, dst.size());
}

Tensor host_tensor_of(const EagerTensor& value) {
  auto* cpu = dynamic_cast<CpuBuffer*>(value.buffer().get());
  if (cpu == nullptr) {
    throw_error(
        ErrorKind::HostAccess, ErrorPhase::Execute, "host_view",
        "value in " + value.placement().to_string() + " is not host memory; call download()");
  }
  return Tensor::view_of(Buffer::host_storage_of(value.buffer()), value.layout());
}

Tensor host_empty(const ExecutionContext& ctx, DType dtype, Shape shape) {
  return host_tensor_of(ctx.allocate(dtype, std::move(shape)));
}

Tensor host_zeros(const ExecutionContext& ctx, DType dtype, Shape shape) {
  Tensor t = host_empty(ctx, dtype, std::move(shape));
  if (t.nbytes() > 0) std::memset(t.raw_data(), 0, t.nbytes());
  return t;
}

EagerTensor adopt_host_tensor(const std::shared_ptr<EagerRuntime>& runtime, Tensor tensor) {
  auto* cpu = dynamic_cast<CpuBackend*>(&runtime->backend());
  if (cpu == nullptr) {
    throw_error(ErrorKind::RuntimeState, ErrorPhase::Execute, "adopt_host_tensor",
                "a host result can only be adopted by a CPU runtime");
  }
  auto buffer = std::make_shared<CpuBuffer>(cpu->placement(), tensor.storage());
  return EagerTensor(runtime, std::move(buffer), tensor.layout());
}

}  // namespace tenferro
