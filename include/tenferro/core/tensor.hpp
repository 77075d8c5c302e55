// Tensor: an owning host tensor. Owned tensors are compact column-major (first index
// fastest); views share the storage and may be strided. Rank 0 and zero-size work everywhere.
#pragma once

#include <cstddef>
#include <initializer_list>
#include <memory>
#include <span>
#include <vector>

#include "tenferro/core/dtype.hpp"
#include "tenferro/core/error.hpp"
#include "tenferro/core/shape.hpp"

// The public API: exported from the shared library (the rest of it is hidden).
#pragma GCC visibility push(default)

namespace tenferro {

// A block of host bytes aligned to kBufferAlignment; shared by a tensor and its views.
class HostStorage {
 public:
  explicit HostStorage(std::size_t bytes);  // zero-initialised
  // Contents left unspecified: for outputs a kernel overwrites completely (saves a memset
  // of the whole buffer on every eager call).
  struct Uninitialized {};
  HostStorage(std::size_t bytes, Uninitialized);
  // Wraps host memory someone else owns (a NumPy array, a DLPack producer) without copying:
  // `owner` keeps that memory alive and is released when this storage dies; the bytes are
  // never freed here. The caller vouches that [data, data + bytes) stays valid while `owner`
  // lives and that data is aligned for the dtype it will be viewed as.
  HostStorage(std::byte* data, std::size_t bytes, std::shared_ptr<void> owner);
  ~HostStorage();
  HostStorage(const HostStorage&) = delete;
  HostStorage& operator=(const HostStorage&) = delete;
  std::byte* data() noexcept { return data_; }
  const std::byte* data() const noexcept { return data_; }
  std::size_t size_bytes() const noexcept { return bytes_; }

 private:
  std::byte* data_;
  std::size_t bytes_;
  std::shared_ptr<void> owner_;  // set for foreign memory only
};

// dtype + shape + strides (elements) + offset (elements): the description of a strided view.
struct TensorLayout {
  DType dtype = DType::F64;
  Shape shape;
  Strides strides;
  std::int64_t offset = 0;

  std::int64_t rank() const { return static_cast<std::int64_t>(shape.size()); }
  std::int64_t numel() const;
  bool is_compact() const;  // compact column-major
  // Smallest and one-past-largest element index touched (relative to storage start).
  std::pair<std::int64_t, std::int64_t> extent() const;
  // Metadata-only views shared by Tensor and EagerTensor (Validation errors on bad input).
  TensorLayout permuted(std::span<const std::int64_t> perm) const;
  TensorLayout reshaped(Shape new_shape) const;  // compact layouts only
};

class Tensor {
 public:
  Tensor();  // rank-0 F64 zero
  Tensor(const Tensor&) = default;
  Tensor& operator=(const Tensor&) = default;
  // A moved-from Tensor is Tensor() (a rank-0 F64 zero of its own), never one without storage,
  // whose data access would dereference null. (The move allocates that zero: 8 bytes.)
  Tensor(Tensor&& other);
  Tensor& operator=(Tensor&& other);
  static Tensor zeros(DType dtype, Shape shape);
  template <Element T>
  static Tensor from_col_major(Shape shape, std::span<const T> data);
  template <Element T>
  static Tensor from_row_major(Shape shape, std::span<const T> data);
  template <Element T>
  static Tensor from_col_major(Shape shape, std::initializer_list<T> data) {
    return from_col_major<T>(std::move(shape), std::span<const T>(data.begin(), data.size()));
  }
  template <Element T>
  static Tensor from_row_major(Shape shape, std::initializer_list<T> data) {
    return from_row_major<T>(std::move(shape), std::span<const T>(data.begin(), data.size()));
  }
  template <Element T>
  static Tensor scalar(T value) {
    return from_col_major<T>({}, std::span<const T>(&value, 1));
  }
  // Wraps existing storage as a view; validates that the layout stays inside the storage.
  static Tensor view_of(std::shared_ptr<HostStorage> storage, TensorLayout layout);

  DType dtype() const { return layout_.dtype; }
  const Shape& shape() const { return layout_.shape; }
  const Strides& strides() const { return layout_.strides; }
  std::int64_t offset() const { return layout_.offset; }
  std::int64_t rank() const { return layout_.rank(); }
  std::int64_t numel() const { return layout_.numel(); }
  std::int64_t dim(std::int64_t axis) const;  // negative axes count from the end
  const TensorLayout& layout() const { return layout_; }
  bool is_compact() const { return layout_.is_compact(); }
  std::size_t nbytes() const { return static_cast<std::size_t>(numel()) * dtype_size(dtype()); }

  // Element access by multi-index (bounds- and dtype-checked; throws Validation).
  template <Element T>
  T& at(std::span<const std::int64_t> index);
  template <Element T>
  const T& at(std::span<const std::int64_t> index) const;
  template <Element T>
  T& at(std::initializer_list<std::int64_t> index) {
    return at<T>(std::span<const std::int64_t>(index.begin(), index.size()));
  }
  template <Element T>
  const T& at(std::initializer_list<std::int64_t> index) const {
    return at<T>(std::span<const std::int64_t>(index.begin(), index.size()));
  }

  // Pointer to element [0,...,0] (storage + offset). Typed access checks the dtype.
  std::byte* raw_data();
  const std::byte* raw_data() const;
  template <Element T>
  T* data() {
    check_dtype(dtype_of_v<T>);
    return reinterpret_cast<T*>(raw_data());
  }
  template <Element T>
  const T* data() const {
    check_dtype(dtype_of_v<T>);
    return reinterpret_cast<const T*>(raw_data());
  }
  const std::shared_ptr<HostStorage>& storage() const { return storage_; }

  // Views (share storage).
  Tensor permute(std::span<const std::int64_t> perm) const;
  Tensor permute(std::initializer_list<std::int64_t> perm) const {
    return permute(std::span<const std::int64_t>(perm.begin(), perm.size()));
  }
  Tensor transpose(std::int64_t a = 0, std::int64_t b = 1) const;
  // Elements [start, stop) with `step` > 0 along `axis`.
  Tensor slice(std::int64_t axis, std::int64_t start, std::int64_t stop,
               std::int64_t step = 1) const;
  // Reshape of compact data (throws Validation when not compact or numel differs).
  Tensor reshape(Shape new_shape) const;

  // A compact column-major copy, or *this when already compact.
  Tensor contiguous() const;
  // Always a fresh compact copy.
  Tensor clone() const;

  // Elements in column-major logical order, copied out (dtype-checked).
  template <Element T>
  std::vector<T> to_vector() const;

 private:
  Tensor(std::shared_ptr<HostStorage> storage, TensorLayout layout)
      : storage_(std::move(storage)), layout_(std::move(layout)) {}
  void check_dtype(DType expected) const;
  std::int64_t element_index(std::span<const std::int64_t> index) const;

  std::shared_ptr<HostStorage> storage_;
  TensorLayout layout_;
};

// Copies `src` (any layout) into `dst` (any layout) of the same dtype and shape.
void copy_into(const Tensor& src, Tensor& dst);

}  // namespace tenferro

#pragma GCC visibility pop
