#include "tenferro/runtime/eager_tensor.hpp"

#include "core/dtype_check.hpp"
#include "runtime/runtime_access.hpp"
#include "tenferro/runtime/runtime.hpp"

namespace tenferro {

namespace {
[[noreturn]] void throw_empty(const char* op) {
  throw_error(ErrorKind::RuntimeState, ErrorPhase::Input, op,
              "empty EagerTensor (bound to no runtime)");
}
}  // namespace

EagerTensor::EagerTensor(std::shared_ptr<EagerRuntime> runtime, std::shared_ptr<Buffer> buffer,
                         TensorLayout layout)
    : runtime_(std::move(runtime)), buffer_(std::move(buffer)), layout_(std::move(layout)) {
  if (!runtime_ || !buffer_) throw_empty("EagerTensor");
  const std::size_t item = checked_dtype_size(layout_.dtype, "EagerTensor");
  if (layout_.shape.size() != layout_.strides.size()) {
    throw_validation("EagerTensor", "shape and strides differ in rank");
  }
  numel_ = layout_.numel();
  if (numel_ > 0) {
    auto [lo, hi] = layout_.extent();
    const auto capacity = static_cast<std::int64_t>(buffer_->size_bytes() / item);
    if (lo < 0 || hi > capacity)
      throw_validation("EagerTensor", "layout reaches outside its buffer");
  }
}

EagerTensor EagerTensor::fresh(std::shared_ptr<EagerRuntime> runtime, Backend& backend, DType dtype,
                               Shape shape) {
  const std::int64_t numel = checked_numel(shape);
  const std::size_t bytes = checked_bytes(numel, checked_dtype_size(dtype, "EagerTensor"));
  EagerTensor t(std::move(runtime), backend.allocate(bytes));
  // A backend's defects, not the caller's: no buffer, or one smaller than asked for (a backend
  // adopted through with_backend is anyone's code; its kernels would write past the end).
  if (!t.buffer_) throw_empty("allocate");
  if (t.buffer_->size_bytes() < bytes) {
    throw_validation("EagerTensor", "layout reaches outside its buffer (the backend allocated " +
                                        std::to_string(t.buffer_->size_bytes()) + " of " +
                                        std::to_string(bytes) + " bytes)");
  }
  // Member by member: a braced TensorLayout temporary was zero-filled first (a `rep stos` of
  // 160 bytes, the dearest instruction of a small op's allocation).
  t.layout_.dtype = dtype;
  t.layout_.strides = col_major_strides(shape);
  t.layout_.shape = std::move(shape);
  t.numel_ = numel;
  return t;
}

const Placement& EagerTensor::placement() const {
  if (!buffer_) throw_empty("placement");
  return buffer_->placement();
}

bool EagerTensor::is_host_resident() const {
  return placement().memory == MemoryKind::Host;
}

Tensor EagerTensor::download() const {
  if (!buffer_) throw_empty("download");
  // The public constructor can wrap a buffer this runtime's backend cannot read (another
  // runtime's device memory): ops refuse it at ingress, and so does the read here, which would
  // otherwise fault or read through the wrong device.
  if (!runtime_->backend().accepts(buffer_->placement())) {
    throw_error(ErrorKind::NoInputIngress, ErrorPhase::Ingress, "download",
                "the buffer has placement " + buffer_->placement().to_string() +
                    ", which runtime " + std::to_string(runtime_->id()) + "'s backend (placement " +
                    runtime_->backend().placement().to_string() +
                    ") cannot read: the tensor wraps another runtime's buffer; download it "
                    "through the runtime that allocated it");
  }
  // Every byte of the destination is written below (by the read or the gather), so it is not
  // zero-filled first: that doubled the memory traffic of a download.
  const std::size_t out_bytes = static_cast<std::size_t>(numel_) * dtype_size(layout_.dtype);
  Tensor out = Tensor::view_of(
      std::make_shared<HostStorage>(out_bytes, HostStorage::Uninitialized{}),
      TensorLayout{layout_.dtype, layout_.shape, col_major_strides(layout_.shape), 0});
  const std::size_t elem = dtype_size(layout_.dtype);
  std::size_t bytes_read = 0;  // what crossed from the backend: the view's span, not its size
  if (out.numel() > 0) {
    if (layout_.is_compact()) {
      bytes_read = out.nbytes();
      runtime_->backend().read(*buffer_, static_cast<std::size_t>(layout_.offset) * elem,
                               std::span<std::byte>(out.raw_data(), out.nbytes()));
    } else {
      // Read the span the view covers, then gather on the host: the transfer stays explicit
      // and the device never runs a kernel on the caller's behalf.
      auto [lo, hi] = layout_.extent();
      bytes_read = static_cast<std::size_t>(hi - lo) * elem;
      auto staging = std::make_shared<HostStorage>(bytes_read, HostStorage::Uninitialized{});
      runtime_->backend().read(*buffer_, static_cast<std::size_t>(lo) * elem,
                               std::span<std::byte>(staging->data(), staging->size_bytes()));
      TensorLayout local = layout_;
      local.offset -= lo;
      copy_into(Tensor::view_of(staging, local), out);
    }
  }
  runtime_internal::RuntimeAccess::count_download(*runtime_, bytes_read);
  return out;
}

Tensor EagerTensor::host_view() const {
  if (!buffer_) throw_empty("host_view");
  std::shared_ptr<HostStorage> storage =
      is_host_resident() ? Buffer::host_storage_of(buffer_) : nullptr;
  if (storage == nullptr) {
    throw_error(
        ErrorKind::HostAccess, ErrorPhase::Transfer, "host_view",
        "the value lives in " + placement().to_string() +
            " memory that the host cannot read; call tensor.download() for an explicit copy");
  }
  return Tensor::view_of(std::move(storage), layout_);
}

EagerTensor EagerTensor::permute(std::span<const std::int64_t> perm) const {
  if (!buffer_) throw_empty("permute");
  EagerTensor out = *this;
  out.layout_ = layout_.permuted(perm);
  return out;
}

EagerTensor EagerTensor::reshape(Shape new_shape) const {
  if (!buffer_) throw_empty("reshape");
  EagerTensor out = *this;
  out.layout_ = layout_.reshaped(std::move(new_shape));
  return out;
}

}  // namespace tenferro
