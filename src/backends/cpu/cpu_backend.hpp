// The CPU backend: host memory, no streams. Its buffers are host storage, so CPU executors
// work on host views of their inputs and adopt their host outputs without copies.
#pragma once

#include <memory>
#include <mutex>
#include <optional>

#include "backends/cpu/host_block_cache.hpp"
#include "tenferro/core/tensor.hpp"
#include "tenferro/runtime/backend.hpp"
#include "tenferro/runtime/eager_tensor.hpp"

namespace tenferro {

// A CPU runtime's buffer: host storage shared with others (an adopted or uploaded host
// tensor), or a block of the backend's cache owned by the buffer alone (every allocation).
class CpuBuffer final : public Buffer {
 public:
  CpuBuffer(Placement placement, std::shared_ptr<HostStorage> storage);
  // The first `bytes` of `block` (a reused block may be larger than what was asked for).
  CpuBuffer(Placement placement, cpu_memory::CachedBlock block, std::size_t bytes);
  std::byte* host_data() const noexcept override { return data_; }

 private:
  // The shared storage, or for an owned block a storage of this buffer's size (not the block's,
  // which may be larger: a view reaching past the data would read an earlier tensor's bytes)
  // that keeps this buffer alive through `self` (host views of it outlive the eager tensors;
  // the block goes back to the cache after the last).
  std::shared_ptr<HostStorage> host_storage(
      const std::shared_ptr<Buffer>& self) const noexcept override;

  std::shared_ptr<HostStorage> shared_;
  cpu_memory::CachedBlock block_;
  std::byte* data_;
  // An owned block's bytes as this buffer's size, for host_storage(): memory it does not free
  // (the block is block_'s), made without an allocation of its own, on the first host view (an
  // op's output rarely gets one, and building it for every output showed in a small op's
  // profile).
  // Its "owner" is a non-null pointer (this buffer's address) with no control block; what
  // keeps the bytes alive is the pointer host_storage() returns, which shares the ownership of
  // this buffer that its caller holds.
  mutable std::once_flag block_view_once_;
  mutable std::optional<HostStorage> block_view_;
};

class CpuBackend final : public Backend {
 public:
  CpuBackend();  // on the process's block cache
  explicit CpuBackend(std::shared_ptr<cpu_memory::HostBlockCache> blocks);  // on its own (tests)
  BackendKind kind() const noexcept override { return BackendKind::Cpu; }
  const EngineId* direct_engine() const noexcept override { return &engine_; }
  const Placement& placement() const noexcept override { return placement_; }
  std::string description() const override;
  std::shared_ptr<Buffer> allocate(std::size_t bytes) override;
  void write(Buffer& dst, std::size_t dst_offset, std::span<const std::byte> src) override;
  void read(const Buffer& src, std::size_t src_offset, std::span<std::byte> dst) override;
  // CPU kernels share no backend state: concurrent calls on one runtime do not serialize.
  bool serializes_sessions() const noexcept override { return false; }

  static const EngineId& engine() noexcept;  // "tenferro.cpu.v1"
  // Freed blocks kept for reuse (host_block_cache.hpp): one cache for the CPU runtimes of the
  // process, as malloc's free lists are, so a new runtime's first calls reuse the memory of
  // runtimes gone before it instead of faulting fresh pages in (a first einsum call on a fresh
  // runtime took 1.6x its warm time on a 5x5 lattice), and many runtimes keep one cache's
  // bounded bytes between them, not one each. It is freed with the last CPU backend and block.
  const cpu_memory::HostBlockCache& block_cache() const noexcept { return *blocks_; }

 private:
  EngineId engine_;
  Placement placement_;
  std::shared_ptr<cpu_memory::HostBlockCache> blocks_;
};

// Counts one CPU kernel launch in the process-wide counter (process_cpu_kernel_launches()).
// Every CPU compute kernel (GEMM, LAPACK call, FFT execute, permute) calls this.
void count_cpu_kernel_launch(std::uint64_t count = 1) noexcept;

// The host tensor behind a host-resident eager value (no copy; shares storage).
Tensor host_tensor_of(const EagerTensor& value);
// A compact host tensor of `shape` for a CPU executor's outputs and scratch: a block of the
// runtime's block cache (ExecutionContext::allocate), not a fresh allocation, whose pages would
// fault in on every call (glibc hands a large one back on free). The tensor shares the block,
// which goes back to the cache after the last holder (an output adopted from it included).
// host_empty leaves the contents unspecified; host_zeros zeroes them.
Tensor host_empty(const ExecutionContext& ctx, DType dtype, Shape shape);
Tensor host_zeros(const ExecutionContext& ctx, DType dtype, Shape shape);
// Wraps a host tensor computed by a CPU executor as a value of `runtime` (no copy, not a
// transfer). `runtime` must be a CPU runtime (RuntimeState error otherwise).
EagerTensor adopt_host_tensor(const std::shared_ptr<EagerRuntime>& runtime, Tensor tensor);

}  // namespace tenferro
