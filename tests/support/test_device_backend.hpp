// A test-only backend that presents itself as a *device*: device memory kind, its own
// allocation domain, bytes the host cannot touch (host_data() is null). It lets the contract
// tests prove the device-side dispatch rules without a GPU.
#pragma once

#include <atomic>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "tenferro/runtime/backend.hpp"
#include "tenferro/runtime/runtime.hpp"

namespace tenferro::testing {

class TestDeviceBuffer final : public Buffer {
 public:
  TestDeviceBuffer(Placement placement, std::size_t bytes)
      : Buffer(placement, bytes), bytes_(bytes) {}
  // Only kernels of the test device may use this (the host-facing host_data() stays null).
  std::byte* device_bytes() noexcept { return bytes_.data(); }

 private:
  std::vector<std::byte> bytes_;
};

class TestDeviceBackend final : public Backend {
 public:
  // `kind` is the BackendKind the device claims; `engine` its engine id (nullptr: none).
  explicit TestDeviceBackend(BackendKind kind = BackendKind::Cuda,
                             const char* engine = "tenferro.testdevice.d0.v1", int ordinal = 0);
  BackendKind kind() const noexcept override { return kind_; }
  const EngineId* direct_engine() const noexcept override { return engine_ ? &*engine_ : nullptr; }
  const Placement& placement() const noexcept override { return placement_; }
  std::string description() const override { return "test device"; }
  std::shared_ptr<Buffer> allocate(std::size_t bytes) override;
  void write(Buffer& dst, std::size_t dst_offset, std::span<const std::byte> src) override;
  void read(const Buffer& src, std::size_t src_offset, std::span<std::byte> dst) override;

 private:
  BackendKind kind_;
  std::optional<EngineId> engine_;
  Placement placement_;
};

std::shared_ptr<EagerRuntime> make_test_device_runtime(
    BackendKind kind = BackendKind::Cuda, const char* engine = "tenferro.testdevice.d0.v1");

}  // namespace tenferro::testing
