#include "ops/einsum/workspace.hpp"

#include <algorithm>

#include "tenferro/einsum.hpp"
#include "tenferro/runtime/runtime.hpp"

namespace tenferro::einsum_internal {

std::shared_ptr<Buffer> WorkspacePool::take(std::size_t bytes) {
  std::lock_guard lock(mutex_);
  std::vector<std::shared_ptr<Buffer>>* same_size = free_.find(bytes);
  if (same_size == nullptr || same_size->empty()) return nullptr;
  std::shared_ptr<Buffer> b = std::move(same_size->back());
  same_size->pop_back();
  retained_ -= bytes;
  count_locked(b->size_bytes());  // under the same lock: a warm call takes dozens of buffers
  return b;
}

void WorkspacePool::note_allocated(std::size_t bytes) {
  std::lock_guard lock(mutex_);
  count_locked(bytes);
}

void WorkspacePool::count_locked(std::size_t bytes) {
  stats_.live_bytes += bytes;
  stats_.high_water_bytes = std::max(stats_.high_water_bytes, stats_.live_bytes);
  stats_.largest_buffer_bytes = std::max(stats_.largest_buffer_bytes, bytes);
}

std::size_t WorkspacePool::retained_buffers() {
  std::lock_guard lock(mutex_);
  std::size_t n = 0;
  free_.for_each(
      [&](std::size_t, const std::vector<std::shared_ptr<Buffer>>& kept) { n += kept.size(); });
  return n;
}

WorkspaceStats WorkspacePool::stats() {
  std::lock_guard lock(mutex_);
  return stats_;
}

void WorkspacePool::reset_stats() {
  std::lock_guard lock(mutex_);
  stats_.high_water_bytes = stats_.live_bytes;
  stats_.largest_buffer_bytes = 0;
}

void WorkspacePool::take_slots(std::span<const ScratchSlot> slots, std::size_t live_peak,
                               std::size_t largest, std::vector<std::shared_ptr<Buffer>>& out) {
  out.clear();
  out.resize(slots.size());
  std::lock_guard lock(mutex_);
  for (std::size_t i = 0; i < slots.size(); ++i) {
    std::vector<std::shared_ptr<Buffer>>* same_size = free_.find(slots[i].bytes);
    if (same_size == nullptr || same_size->empty()) continue;
    out[i] = std::move(same_size->back());
    same_size->pop_back();
    retained_ -= slots[i].bytes;
  }
  stats_.live_bytes += live_peak;
  stats_.high_water_bytes = std::max(stats_.high_water_bytes, stats_.live_bytes);
  stats_.largest_buffer_bytes = std::max(stats_.largest_buffer_bytes, largest);
}

void WorkspacePool::give_back_slots(std::vector<std::shared_ptr<Buffer>>& buffers,
                                    std::size_t live_peak) {
  std::lock_guard lock(mutex_);
  stats_.live_bytes -= std::min(stats_.live_bytes, live_peak);
  keep_locked(buffers);
}

void WorkspacePool::give_back(std::vector<std::shared_ptr<Buffer>>& buffers) {
  std::lock_guard lock(mutex_);
  for (const auto& b : buffers) stats_.live_bytes -= std::min(stats_.live_bytes, b->size_bytes());
  keep_locked(buffers);
}

void WorkspacePool::keep_locked(std::vector<std::shared_ptr<Buffer>>& buffers) {
  for (auto& b : buffers) {
    if (!b) continue;  // a slot whose allocation failed (take_slots' caller unwinding)
    const std::size_t bytes = b->size_bytes();
    // Dropped (freed by the backend): past the byte bound, and empty buffers, which allocate()
    // never takes back and which the byte bound would never stop (one per call of an einsum
    // with a zero-extent intermediate).
    if (bytes == 0 || retained_ + bytes > max_retained_) continue;
    retained_ += bytes;
    free_[bytes].push_back(std::move(b));
  }
  buffers.clear();
  // Sizes no buffer is kept for any more stay in the table for their vector's capacity, up to
  // a bound: a caller of ever new shapes must not grow it without end.
  if (free_.size() > kMaxSizes) {
    std::vector<std::size_t> empty;
    free_.for_each([&](std::size_t size, const std::vector<std::shared_ptr<Buffer>>& kept) {
      if (kept.empty()) empty.push_back(size);
    });
    for (std::size_t size : empty) free_.erase(size);
  }
}

namespace {

std::shared_ptr<WorkspacePool> pool_of(EagerRuntime& runtime) {
  // The store accounts the most the pool may retain, so its byte bound stays honest; a store
  // bound below 256 MiB keeps a quarter of it for the pool (at 64 MiB against a 32 MiB bound,
  // the pool and the plans evicted each other on every call: every einsum planned again).
  const std::size_t max_retained =
      std::min(WorkspacePool::kMaxRetainedBytes, runtime.caches().limits().max_bytes / 4);
  return runtime.caches().get_or_create<WorkspacePool>(
      // A view: the warm lookup builds no string.
      CacheKeyView::of(einsum_family::kFamily, "workspace", "pool"),
      [&] { return std::make_shared<WorkspacePool>(max_retained); }, max_retained);
}

}  // namespace

std::size_t workspace_retained_buffers(EagerRuntime& runtime) {
  return pool_of(runtime)->retained_buffers();
}

WorkspaceStats workspace_stats(EagerRuntime& runtime) {
  return pool_of(runtime)->stats();
}

void reset_workspace_stats(EagerRuntime& runtime) {
  pool_of(runtime)->reset_stats();
}

Workspace::Workspace(EagerRuntime& runtime) : runtime_(runtime), pool_(pool_of(runtime)) {}

Workspace::~Workspace() {
  std::vector<std::shared_ptr<Buffer>> all;
  all.reserve(held_.size());
  held_.for_each(
      [&](const Buffer*, std::shared_ptr<Buffer>& buffer) { all.push_back(std::move(buffer)); });
  pool_->give_back(all);
}

void Workspace::release_unused(std::initializer_list<const Buffer*> consumed) {
  std::vector<std::shared_ptr<Buffer>> unused;
  const auto check = [&](const Buffer* b) {
    if (b == nullptr) return;
    std::shared_ptr<Buffer>* held = held_.find(b);
    if (held == nullptr || held->use_count() != 1) return;
    unused.push_back(std::move(*held));
    held_.erase(b);
  };
  for (const Buffer* b : fresh_) check(b);
  for (const Buffer* b : consumed) check(b);
  fresh_.clear();
  if (!unused.empty()) pool_->give_back(unused);
}

std::vector<std::shared_ptr<Buffer>> Workspace::take_slots(std::span<const ScratchSlot> slots,
                                                           std::size_t live_peak,
                                                           std::size_t largest) {
  std::vector<std::shared_ptr<Buffer>> buffers;
  pool_->take_slots(slots, live_peak, largest, buffers);
  try {
    for (std::size_t i = 0; i < slots.size(); ++i) {
      if (!buffers[i]) buffers[i] = runtime_.empty(slots[i].dtype, {slots[i].numel}).buffer();
    }
  } catch (...) {
    pool_->give_back_slots(buffers, live_peak);  // those it had, and the statistics' count
    throw;
  }
  return buffers;
}

void Workspace::give_back_slots(std::vector<std::shared_ptr<Buffer>>& buffers,
                                std::size_t live_peak) {
  pool_->give_back_slots(buffers, live_peak);
}

EagerTensor Workspace::allocate(DType dtype, const Shape& shape) {
  const std::size_t bytes = checked_bytes(checked_numel(shape), dtype_size(dtype));
  std::shared_ptr<Buffer> buffer = bytes > 0 ? pool_->take(bytes) : nullptr;  // counted
  if (!buffer) {
    buffer = runtime_.empty(dtype, shape).buffer();
    if (bytes > 0) pool_->note_allocated(buffer->size_bytes());
  }
  fresh_.push_back(buffer.get());
  held_[buffer.get()] = buffer;
  EagerTensor scratch(runtime_.shared_from_this(), std::move(buffer),
                      TensorLayout{dtype, shape, col_major_strides(shape), 0});
  if (observer_) observer_->allocated(scratch);
  return scratch;
}

}  // namespace tenferro::einsum_internal
