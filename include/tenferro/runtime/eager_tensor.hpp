// EagerTensor: a value that lives in one runtime (runtime + backend buffer + layout).
#pragma once

#include <memory>

#include "tenferro/core/tensor.hpp"
#include "tenferro/runtime/backend.hpp"

// The public API: exported from the shared library (the rest of it is hidden).
#pragma GCC visibility push(default)

namespace tenferro {

class EagerRuntime;
class ExecutionContext;
namespace runtime_internal {
struct BorrowedTensor;
}

// Metadata an op can infer without touching data.
struct TensorMeta {
  DType dtype = DType::F64;
  Shape shape;
  friend bool operator==(const TensorMeta&, const TensorMeta&) = default;
};

class EagerTensor {
 public:
  EagerTensor() = default;  // an empty handle bound to no runtime
  // For backends and executors: wraps a buffer of `runtime` with a layout inside it.
  EagerTensor(std::shared_ptr<EagerRuntime> runtime, std::shared_ptr<Buffer> buffer,
              TensorLayout layout);

  bool defined() const noexcept { return buffer_ != nullptr; }
  const std::shared_ptr<EagerRuntime>& runtime() const noexcept { return runtime_; }
  const std::shared_ptr<Buffer>& buffer() const noexcept { return buffer_; }
  const TensorLayout& layout() const noexcept { return layout_; }
  DType dtype() const noexcept { return layout_.dtype; }
  const Shape& shape() const noexcept { return layout_.shape; }
  const Strides& strides() const noexcept { return layout_.strides; }
  std::int64_t rank() const noexcept { return layout_.rank(); }
  // Counted once when the handle is built (its layout never changes after): every op asks for
  // its operands' and output's counts, several times a call.
  std::int64_t numel() const noexcept { return numel_; }
  TensorMeta meta() const { return {layout_.dtype, layout_.shape}; }
  // Where the bytes are. Throws RuntimeState on an empty handle.
  const Placement& placement() const;
  bool is_host_resident() const;

  // Explicit transfer to a fresh compact host tensor (counted in RuntimeStats).
  Tensor download() const;
  // A zero-copy host view. Throws HostAccess for device-resident values: call download().
  Tensor host_view() const;

  // Metadata-only views in the same runtime and buffer.
  EagerTensor permute(std::span<const std::int64_t> perm) const;
  EagerTensor reshape(Shape new_shape) const;  // compact values only

 private:
  friend class EagerRuntime;                       // empty()
  friend class ExecutionContext;                   // allocate()
  friend struct runtime_internal::BorrowedTensor;  // a call's non-owning input handles
  // A compact column-major tensor of `shape` in a buffer `runtime`'s backend allocates for it
  // now. Built in place, without the public constructor's checks of a layout against a buffer
  // it did not size: every output of every op comes through here.
  static EagerTensor fresh(std::shared_ptr<EagerRuntime> runtime, Backend& backend, DType dtype,
                           Shape shape);
  EagerTensor(std::shared_ptr<EagerRuntime> runtime, std::shared_ptr<Buffer> buffer) noexcept
      : runtime_(std::move(runtime)), buffer_(std::move(buffer)) {}

  // Declared first so it is destroyed last: a buffer may need its backend to free itself.
  std::shared_ptr<EagerRuntime> runtime_;
  std::shared_ptr<Buffer> buffer_;
  TensorLayout layout_;
  std::int64_t numel_ = 1;  // layout_.numel(); an empty handle's layout has rank 0
};

}  // namespace tenferro

#pragma GCC visibility pop
