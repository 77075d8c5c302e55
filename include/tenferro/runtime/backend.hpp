// Backend: owns one device's state (allocator, queues, vendor handles). One backend belongs
// to exactly one EagerRuntime. New backends implement this interface (see src/backends/).
#pragma once

#include <cstddef>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <string_view>

#include "tenferro/runtime/placement.hpp"

// The public API: exported from the shared library (the rest of it is hidden).
#pragma GCC visibility push(default)

namespace tenferro {

class HostStorage;

// A backend allocation. `host_data()` is non-null only when the host may touch the bytes.
class Buffer {
 public:
  virtual ~Buffer() = default;
  const Placement& placement() const noexcept { return placement_; }
  std::size_t size_bytes() const noexcept { return bytes_; }
  virtual std::byte* host_data() const noexcept { return nullptr; }
  // The host storage behind a host-resident buffer (what zero-copy host views share), or
  // nullptr for memory the host may not touch. Storage that lives inside the buffer is handed
  // out sharing `buffer`'s ownership: a buffer that kept a weak reference to itself for this
  // would pay for it on every allocation (two atomic operations in a threaded process).
  static std::shared_ptr<HostStorage> host_storage_of(
      const std::shared_ptr<Buffer>& buffer) noexcept {
    return buffer ? buffer->host_storage(buffer) : nullptr;
  }

 protected:
  Buffer(Placement placement, std::size_t bytes) : placement_(placement), bytes_(bytes) {}
  // host_storage_of's answer; `self` is the caller's owning pointer to this buffer.
  virtual std::shared_ptr<HostStorage> host_storage(
      const std::shared_ptr<Buffer>& /*self*/) const noexcept {
    return nullptr;
  }

 private:
  Placement placement_;
  std::size_t bytes_;
};

class Backend {
 public:
  virtual ~Backend() = default;
  Backend(const Backend&) = delete;
  Backend& operator=(const Backend&) = delete;
  virtual BackendKind kind() const noexcept = 0;
  // The engine this backend executes on directly, or nullptr when it has none.
  virtual const EngineId* direct_engine() const noexcept = 0;
  // Placement of the buffers this backend allocates.
  virtual const Placement& placement() const noexcept = 0;
  // Ingress rule: may a value with placement `p` be an input of this backend's engine?
  virtual bool accepts(const Placement& p) const noexcept { return p == placement(); }
  // Human-readable device description (adapter, driver, ...).
  virtual std::string description() const = 0;
  // Whether a device is actually present and usable.
  virtual bool device_available() const noexcept { return true; }

  // A buffer of `bytes` bytes in this backend's memory (contents unspecified).
  virtual std::shared_ptr<Buffer> allocate(std::size_t bytes) = 0;
  // Host -> backend and backend -> host copies of raw bytes (used by explicit transfers).
  virtual void write(Buffer& dst, std::size_t dst_offset, std::span<const std::byte> src) = 0;
  virtual void read(const Buffer& src, std::size_t src_offset, std::span<std::byte> dst) = 0;
  // Waits until all work submitted to this backend has finished.
  virtual void synchronize() {}
  // Called by the runtime just before an op's executor queues work on this backend, so that a
  // device that reports a kernel fault only later (asynchronously, at the next
  // synchronization) can name the op that queued the failing work.
  virtual void note_queued_work(std::string_view /*op*/) noexcept {}

  // Work that shares backend state (a stream, a vendor handle, scratch memory) runs under
  // this lock. Backends whose kernels share nothing (the CPU) say so and are not locked.
  virtual bool serializes_sessions() const noexcept { return true; }
  std::mutex& session_mutex() noexcept { return session_mutex_; }

 protected:
  // Every backend object ever built is counted here, whoever builds it: process-wide, and for
  // the runtime whose eager call is running on this thread, so that a backend built behind a
  // caller's back (in a loop, say) shows in that runtime's stats and fails the bench gate.
  Backend();

 private:
  std::mutex session_mutex_;
};

}  // namespace tenferro

#pragma GCC visibility pop
