#include "tenferro/core/tensor.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>
#include <numeric>
#include <utility>

#include <sys/mman.h>
#include <unistd.h>

#include "core/dtype_check.hpp"
#include "core/host_memory.hpp"

namespace tenferro {

namespace {

std::int64_t normalize_axis(std::int64_t axis, std::int64_t rank, const char* op) {
  if (axis < -rank || axis >= rank) {
    throw_validation(
        op, "axis " + std::to_string(axis) + " out of range for rank " + std::to_string(rank));
  }
  return axis < 0 ? axis + rank : axis;
}

std::shared_ptr<HostStorage> make_storage(DType dtype, const Shape& shape) {
  return std::make_shared<HostStorage>(
      checked_bytes(checked_numel(shape), checked_dtype_size(dtype, "Tensor")));
}

// Visits every multi-index of `shape` in column-major order, calling f(src_index, dst_index)
// with element offsets advanced by the two stride sets.
template <class F>
void for_each_index(const Shape& shape, const Strides& a, std::int64_t a0, const Strides& b,
                    std::int64_t b0, F&& f) {
  const std::size_t rank = shape.size();
  for (std::int64_t d : shape) {
    if (d == 0) return;
  }
  if (rank == 0) {
    f(a0, b0);
    return;
  }
  std::vector<std::int64_t> idx(rank, 0);
  std::int64_t ia = a0, ib = b0;
  const std::int64_t n0 = shape[0], sa0 = a[0], sb0 = b[0];
  while (true) {
    for (std::int64_t i = 0; i < n0; ++i) f(ia + i * sa0, ib + i * sb0);
    std::size_t axis = 1;
    for (; axis < rank; ++axis) {
      ia += a[axis];
      ib += b[axis];
      if (++idx[axis] < shape[axis]) break;
      ia -= a[axis] * shape[axis];
      ib -= b[axis] * shape[axis];
      idx[axis] = 0;
    }
    if (axis == rank) return;
  }
}

template <class T>
void copy_typed(const Tensor& src, Tensor& dst) {
  const T* s = reinterpret_cast<const T*>(src.storage()->data());
  T* d = reinterpret_cast<T*>(dst.storage()->data());
  for_each_index(src.shape(), src.strides(), src.offset(), dst.strides(), dst.offset(),
                 [&](std::int64_t i, std::int64_t j) { d[j] = s[i]; });
}

// Large buffers ask the kernel for transparent huge pages (where it hands them out on request,
// the default "madvise" mode), as NumPy does for its arrays from 4 MiB: a first touch then
// faults once per 2 MiB instead of once per 4 KiB page, and the TLB covers the buffer. Only
// the whole pages inside the block are advised.
constexpr std::size_t kHugePageAdviceBytes = std::size_t{4} << 20;

void advise_huge_pages(void* block, std::size_t bytes) noexcept {
#ifdef MADV_HUGEPAGE
  static const auto page = static_cast<std::uintptr_t>(sysconf(_SC_PAGESIZE));
  const auto begin = (reinterpret_cast<std::uintptr_t>(block) + page - 1) & ~(page - 1);
  const auto end = (reinterpret_cast<std::uintptr_t>(block) + bytes) & ~(page - 1);
  if (end > begin) madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
#else
  (void)block;
  (void)bytes;
#endif
}

// Every host tensor buffer comes from here: the size is checked against what the process can
// be given before the allocator runs (AddressSanitizer aborts on a huge request instead of
// throwing), and an allocator failure becomes the same typed Resource error.
//
// The alignment is made by hand: malloc kBufferAlignment bytes more, and keep the block's start
// in the word just before the aligned data (malloc's own 16-byte alignment leaves at least 16
// bytes there). glibc's aligned allocation (memalign) splits and later re-merges chunks on every
// call: about 800 instructions for a small buffer, a seventh of a warm eager add of 64 doubles.
std::byte* allocate_host_buffer(std::size_t bytes) {
  constexpr std::string_view kWhat = "host allocation";
  host_memory::check_allocation(bytes, kWhat);
  static_assert(kBufferAlignment >= 2 * sizeof(void*) &&
                (kBufferAlignment & (kBufferAlignment - 1)) == 0);
  void* block = std::malloc(std::max<std::size_t>(bytes, 1) + kBufferAlignment);
  if (block == nullptr) {
    throw ResourceError(ErrorPhase::Execute, std::string(kWhat),
                        "the allocator could not provide " + host_memory::describe_bytes(bytes),
                        bytes, host_memory::allocation_limit());
  }
  const std::uintptr_t aligned =
      (reinterpret_cast<std::uintptr_t>(block) + kBufferAlignment) & ~(kBufferAlignment - 1);
  reinterpret_cast<void**>(aligned)[-1] = block;
  if (bytes >= kHugePageAdviceBytes) advise_huge_pages(block, bytes + kBufferAlignment);
  return reinterpret_cast<std::byte*>(aligned);
}

void free_host_buffer(std::byte* data) noexcept {
  std::free(reinterpret_cast<void**>(data)[-1]);
}

}  // namespace

HostStorage::HostStorage(std::size_t bytes, Uninitialized)
    : data_(allocate_host_buffer(bytes)), bytes_(bytes) {}

HostStorage::HostStorage(std::size_t bytes) : HostStorage(bytes, Uninitialized{}) {
  std::memset(data_, 0, bytes);
}

HostStorage::HostStorage(std::byte* data, std::size_t bytes, std::shared_ptr<void> owner)
    : data_(data), bytes_(bytes), owner_(std::move(owner)) {
  if (!owner_) throw_validation("HostStorage", "foreign memory needs an owner that keeps it alive");
}

HostStorage::~HostStorage() {
  // Foreign memory belongs to owner_ (released right after this body runs).
  if (!owner_) free_host_buffer(data_);
}

std::int64_t TensorLayout::numel() const {
  return checked_numel(shape);
}

bool TensorLayout::is_compact() const {
  return is_col_major_compact(shape, strides);
}

std::pair<std::int64_t, std::int64_t> TensorLayout::extent() const {
  for (std::int64_t d : shape) {
    if (d == 0) return {offset, offset};
  }
  // Overflow-checked: view_of feeds user-supplied strides and offsets through here.
  std::int64_t lo = offset, hi = 0;
  bool overflow = __builtin_add_overflow(offset, 1, &hi);
  for (std::size_t i = 0; i < shape.size() && !overflow; ++i) {
    std::int64_t reach = 0;
    overflow = __builtin_mul_overflow(shape[i] - 1, strides[i], &reach) ||
               (reach < 0 ? __builtin_add_overflow(lo, reach, &lo)
                          : __builtin_add_overflow(hi, reach, &hi));
  }
  if (overflow) throw_validation("layout", "element extent of the layout overflows int64");
  return {lo, hi};
}

Tensor::Tensor() : storage_(make_storage(DType::F64, {})), layout_{DType::F64, {}, {}, 0} {}

Tensor::Tensor(Tensor&& other) : Tensor() {
  std::swap(storage_, other.storage_);
  std::swap(layout_, other.layout_);
}

Tensor& Tensor::operator=(Tensor&& other) {
  if (this != &other) {
    Tensor zero;  // allocated first: a failure leaves both tensors as they were
    storage_ = std::exchange(other.storage_, std::move(zero.storage_));
    layout_ = std::exchange(other.layout_, std::move(zero.layout_));
  }
  return *this;
}

Tensor Tensor::zeros(DType dtype, Shape shape) {
  auto storage = make_storage(dtype, shape);
  Strides strides = col_major_strides(shape);
  return Tensor(std::move(storage), TensorLayout{dtype, std::move(shape), std::move(strides), 0});
}

template <Element T>
Tensor Tensor::from_col_major(Shape shape, std::span<const T> data) {
  Tensor t = zeros(dtype_of_v<T>, std::move(shape));
  if (static_cast<std::int64_t>(data.size()) != t.numel()) {
    throw_validation("from_col_major", "shape " + shape_to_string(t.shape()) + " needs " +
                                           std::to_string(t.numel()) + " elements, got " +
                                           std::to_string(data.size()));
  }
  if (!data.empty()) std::memcpy(t.raw_data(), data.data(), data.size_bytes());
  return t;
}

template <Element T>
Tensor Tensor::from_row_major(Shape shape, std::span<const T> data) {
  Tensor t = zeros(dtype_of_v<T>, shape);
  if (static_cast<std::int64_t>(data.size()) != t.numel()) {
    throw_validation("from_row_major", "shape " + shape_to_string(t.shape()) + " needs " +
                                           std::to_string(t.numel()) + " elements, got " +
                                           std::to_string(data.size()));
  }
  // Row-major data is a strided (C-order) view; copying it into compact column-major
  // storage keeps every logical index pointing at the same value.
  T* d = t.data<T>();
  for_each_index(t.shape(), row_major_strides(shape), 0, t.strides(), 0,
                 [&](std::int64_t i, std::int64_t j) { d[j] = data[static_cast<std::size_t>(i)]; });
  return t;
}

#define TENFERRO_INSTANTIATE_FACTORIES(T)                               \
  template Tensor Tensor::from_col_major<T>(Shape, std::span<const T>); \
  template Tensor Tensor::from_row_major<T>(Shape, std::span<const T>);
TENFERRO_INSTANTIATE_FACTORIES(float)
TENFERRO_INSTANTIATE_FACTORIES(double)
TENFERRO_INSTANTIATE_FACTORIES(std::complex<float>)
TENFERRO_INSTANTIATE_FACTORIES(std::complex<double>)
#undef TENFERRO_INSTANTIATE_FACTORIES

Tensor Tensor::view_of(std::shared_ptr<HostStorage> storage, TensorLayout layout) {
  if (!storage) throw_validation("view_of", "null storage");
  const std::size_t item = checked_dtype_size(layout.dtype, "view_of");
  if (layout.shape.size() != layout.strides.size()) {
    throw_validation("view_of", "shape and strides differ in rank");
  }
  const std::int64_t n = checked_numel(layout.shape);
  if (n > 0) {
    auto [lo, hi] = layout.extent();
    const auto capacity = static_cast<std::int64_t>(storage->size_bytes() / item);
    if (lo < 0 || hi > capacity) throw_validation("view_of", "layout reaches outside its storage");
  }
  return Tensor(std::move(storage), std::move(layout));
}

std::int64_t Tensor::dim(std::int64_t axis) const {
  return shape()[static_cast<std::size_t>(normalize_axis(axis, rank(), "dim"))];
}

void Tensor::check_dtype(DType expected) const {
  if (expected != dtype()) {
    throw_validation("tensor", "element type " + std::string(dtype_name(expected)) +
                                   " requested from a " + std::string(dtype_name(dtype())) +
                                   " tensor");
  }
}

std::int64_t Tensor::element_index(std::span<const std::int64_t> index) const {
  if (static_cast<std::int64_t>(index.size()) != rank()) {
    throw_validation("tensor.at", "index of rank " + std::to_string(index.size()) +
                                      " for a tensor of rank " + std::to_string(rank()));
  }
  std::int64_t e = offset();
  for (std::size_t i = 0; i < index.size(); ++i) {
    if (index[i] < 0 || index[i] >= shape()[i]) {
      throw_validation("tensor.at", "index " + std::to_string(index[i]) +
                                        " out of range for axis " + std::to_string(i) +
                                        " of extent " + std::to_string(shape()[i]));
    }
    e += index[i] * strides()[i];
  }
  return e;
}

template <Element T>
T& Tensor::at(std::span<const std::int64_t> index) {
  check_dtype(dtype_of_v<T>);
  return reinterpret_cast<T*>(storage_->data())[element_index(index)];
}
template <Element T>
const T& Tensor::at(std::span<const std::int64_t> index) const {
  check_dtype(dtype_of_v<T>);
  return reinterpret_cast<const T*>(storage_->data())[element_index(index)];
}

template <Element T>
std::vector<T> Tensor::to_vector() const {
  check_dtype(dtype_of_v<T>);
  Tensor c = contiguous();
  const T* p = c.data<T>();
  return std::vector<T>(p, p + c.numel());
}

#define TENFERRO_INSTANTIATE_ACCESS(T)                                  \
  template T& Tensor::at<T>(std::span<const std::int64_t>);             \
  template const T& Tensor::at<T>(std::span<const std::int64_t>) const; \
  template std::vector<T> Tensor::to_vector<T>() const;
TENFERRO_INSTANTIATE_ACCESS(float)
TENFERRO_INSTANTIATE_ACCESS(double)
TENFERRO_INSTANTIATE_ACCESS(std::complex<float>)
TENFERRO_INSTANTIATE_ACCESS(std::complex<double>)
#undef TENFERRO_INSTANTIATE_ACCESS

std::byte* Tensor::raw_data() {
  return storage_->data() + offset() * static_cast<std::int64_t>(dtype_size(dtype()));
}
const std::byte* Tensor::raw_data() const {
  return storage_->data() + offset() * static_cast<std::int64_t>(dtype_size(dtype()));
}

TensorLayout TensorLayout::permuted(std::span<const std::int64_t> perm) const {
  const std::int64_t r = rank();
  if (static_cast<std::int64_t>(perm.size()) != r) {
    throw_validation("permute", "permutation of length " + std::to_string(perm.size()) +
                                    " for rank " + std::to_string(r));
  }
  std::vector<bool> seen(static_cast<std::size_t>(r), false);
  TensorLayout t = *this;
  for (std::int64_t i = 0; i < r; ++i) {
    const auto p =
        static_cast<std::size_t>(normalize_axis(perm[static_cast<std::size_t>(i)], r, "permute"));
    if (seen[p]) throw_validation("permute", "axis " + std::to_string(p) + " repeated");
    seen[p] = true;
    t.shape[static_cast<std::size_t>(i)] = shape[p];
    t.strides[static_cast<std::size_t>(i)] = strides[p];
  }
  return t;
}

TensorLayout TensorLayout::reshaped(Shape new_shape) const {
  if (!is_compact())
    throw_validation("reshape", "reshape needs compact data: call contiguous() first");
  if (checked_numel(new_shape) != numel()) {
    throw_validation("reshape", "cannot reshape " + shape_to_string(shape) + " to " +
                                    shape_to_string(new_shape));
  }
  TensorLayout t = *this;
  t.strides = col_major_strides(new_shape);
  t.shape = std::move(new_shape);
  return t;
}

Tensor Tensor::permute(std::span<const std::int64_t> perm) const {
  return Tensor(storage_, layout_.permuted(perm));
}

Tensor Tensor::transpose(std::int64_t a, std::int64_t b) const {
  const std::int64_t r = rank();
  a = normalize_axis(a, r, "transpose");
  b = normalize_axis(b, r, "transpose");
  std::vector<std::int64_t> perm(static_cast<std::size_t>(r));
  std::iota(perm.begin(), perm.end(), 0);
  std::swap(perm[static_cast<std::size_t>(a)], perm[static_cast<std::size_t>(b)]);
  return permute(perm);
}

Tensor Tensor::slice(std::int64_t axis, std::int64_t start, std::int64_t stop,
                     std::int64_t step) const {
  axis = normalize_axis(axis, rank(), "slice");
  const auto ax = static_cast<std::size_t>(axis);
  const std::int64_t n = shape()[ax];
  if (step <= 0) throw_validation("slice", "step must be positive");
  if (start < 0 || stop < start || stop > n) {
    throw_validation("slice", "range [" + std::to_string(start) + ", " + std::to_string(stop) +
                                  ") outside extent " + std::to_string(n));
  }
  Tensor t = *this;
  // Written so that no step (up to INT64_MAX) can overflow; the stride only matters, and
  // only then stays within the storage, when at least two elements are taken.
  const std::int64_t count = stop == start ? 0 : (stop - start - 1) / step + 1;
  if (count > 0) t.layout_.offset += start * strides()[ax];
  t.layout_.shape[ax] = count;
  if (count > 1) t.layout_.strides[ax] = strides()[ax] * step;
  return t;
}

Tensor Tensor::reshape(Shape new_shape) const {
  return Tensor(storage_, layout_.reshaped(std::move(new_shape)));
}

Tensor Tensor::contiguous() const {
  return is_compact() ? *this : clone();
}

Tensor Tensor::clone() const {
  Tensor out = zeros(dtype(), shape());
  copy_into(*this, out);
  return out;
}

void copy_into(const Tensor& src, Tensor& dst) {
  if (src.dtype() != dst.dtype() || src.shape() != dst.shape()) {
    throw_validation("copy_into", "source " + shape_to_string(src.shape()) + " " +
                                      std::string(dtype_name(src.dtype())) + " vs destination " +
                                      shape_to_string(dst.shape()) + " " +
                                      std::string(dtype_name(dst.dtype())));
  }
  // A destination that holds one element at several indices (a stride 0 over an extent above
  // 1) would keep whichever write came last: refused, as NumPy refuses writing to a broadcast.
  for (std::size_t a = 0; a < dst.shape().size() && dst.numel() > 0; ++a) {
    if (dst.layout().strides[a] == 0 && dst.shape()[a] > 1) {
      throw_validation("copy_into", "the destination repeats its elements along axis " +
                                        std::to_string(a) +
                                        " (stride 0): write to a compact tensor");
    }
  }
  // Views of one storage whose element ranges overlap (x[1:] from x[:-1]) read elements the
  // copy has already written, in an order that depends on the layouts: through a copy of src,
  // as NumPy does.
  if (src.numel() > 0 && src.storage() == dst.storage()) {
    const auto [src_lo, src_hi] = src.layout().extent();
    const auto [dst_lo, dst_hi] = dst.layout().extent();
    if (src_lo < dst_hi && dst_lo < src_hi) {
      const Tensor staged = src.clone();
      visit_dtype(src.dtype(), [&](auto zero) { copy_typed<decltype(zero)>(staged, dst); });
      return;
    }
  }
  visit_dtype(src.dtype(), [&](auto zero) { copy_typed<decltype(zero)>(src, dst); });
}

}  // namespace tenferro
