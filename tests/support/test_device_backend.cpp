#include "support/test_device_backend.hpp"

#include <cstring>
#include <optional>

#include "tenferro/core/error.hpp"

namespace tenferro::testing {

TestDeviceBackend::TestDeviceBackend(BackendKind kind, const char* engine, int ordinal)
    : kind_(kind),
      engine_(engine ? std::optional<EngineId>(EngineId(engine)) : std::nullopt),
      placement_{MemoryKind::Device, kind, ordinal, next_allocation_domain()} {}

std::shared_ptr<Buffer> TestDeviceBackend::allocate(std::size_t bytes) {
  return std::make_shared<TestDeviceBuffer>(placement_, bytes);
}

void TestDeviceBackend::write(Buffer& dst, std::size_t dst_offset, std::span<const std::byte> src) {
  auto& device = dynamic_cast<TestDeviceBuffer&>(dst);
  if (dst_offset + src.size() > dst.size_bytes())
    throw_validation("testdevice.write", "out of range");
  if (!src.empty()) std::memcpy(device.device_bytes() + dst_offset, src.data(), src.size());
}

void TestDeviceBackend::read(const Buffer& src, std::size_t src_offset, std::span<std::byte> dst) {
  auto& device = const_cast<TestDeviceBuffer&>(dynamic_cast<const TestDeviceBuffer&>(src));
  if (src_offset + dst.size() > src.size_bytes())
    throw_validation("testdevice.read", "out of range");
  if (!dst.empty()) std::memcpy(dst.data(), device.device_bytes() + src_offset, dst.size());
}

std::shared_ptr<EagerRuntime> make_test_device_runtime(BackendKind kind, const char* engine) {
  return EagerRuntime::with_backend(std::make_unique<TestDeviceBackend>(kind, engine));
}

}  // namespace tenferro::testing
