#include "backends/cpu/host_block_cache.hpp"

#include <algorithm>

namespace tenferro::cpu_memory {

bool host_block_cache_enabled() noexcept {
#if defined(__SANITIZE_ADDRESS__)
  return false;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
  return false;
#else
  return true;
#endif
#else
  return true;
#endif
}

std::shared_ptr<HostStorage> HostBlockCache::allocate(std::size_t bytes) {
  if (bytes < kMinBytes || !host_block_cache_enabled()) {
    return std::make_shared<HostStorage>(bytes, HostStorage::Uninitialized{});
  }
  std::unique_ptr<HostStorage> block = take(bytes);
  if (!block) block = std::make_unique<HostStorage>(bytes, HostStorage::Uninitialized{});
  std::byte* data = block->data();
  // The block goes back to this cache when the last tensor using it is gone; the cache stays
  // alive as long as any of its blocks is out.
  std::shared_ptr<HostStorage> owner(block.release(), [self = shared_from_this()](HostStorage* b) {
    self->give_back(std::unique_ptr<HostStorage>(b));
  });
  return std::make_shared<HostStorage>(data, bytes, std::move(owner));
}

std::unique_ptr<HostStorage> HostBlockCache::take(std::size_t bytes) {
  std::lock_guard lock(mutex_);
  auto best = free_.end();
  for (auto it = free_.begin(); it != free_.end(); ++it) {
    const std::size_t size = (*it)->size_bytes();
    if (size >= bytes && size / 2 <= bytes &&
        (best == free_.end() || size < (*best)->size_bytes())) {
      best = it;
    }
  }
  if (best == free_.end()) return nullptr;
  std::unique_ptr<HostStorage> block = std::move(*best);
  free_.erase(best);
  cached_bytes_ -= block->size_bytes();
  return block;
}

void HostBlockCache::give_back(std::unique_ptr<HostStorage> block) noexcept {
  std::vector<std::unique_ptr<HostStorage>> evicted;  // freed outside the lock
  {
    std::lock_guard lock(mutex_);
    if (block->size_bytes() > kMaxBytes) return;  // too big to keep: freed on return
    try {
      free_.push_back(std::move(block));
    } catch (...) {
      return;  // no room to remember it: the block is simply freed
    }
    cached_bytes_ += free_.back()->size_bytes();
    while (free_.size() > kMaxBlocks || cached_bytes_ > kMaxBytes) {
      cached_bytes_ -= free_.front()->size_bytes();
      try {
        evicted.push_back(std::move(free_.front()));
      } catch (...) {
        // unique_ptr's destructor frees it below when the erase drops it
      }
      free_.erase(free_.begin());
    }
  }
}

std::size_t HostBlockCache::cached_bytes() const {
  std::lock_guard lock(mutex_);
  return cached_bytes_;
}

std::size_t HostBlockCache::cached_blocks() const {
  std::lock_guard lock(mutex_);
  return free_.size();
}

}  // namespace tenferro::cpu_memory
