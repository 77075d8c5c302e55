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

HostBlockCache::~HostBlockCache() {
  for (Pool* pool : {&small_, &large_}) {
    for (HostStorage* block : pool->free) delete block;
  }
}

std::shared_ptr<HostStorage> HostBlockCache::allocate(std::size_t bytes) {
  if (bytes < kSmallMinBytes || !host_block_cache_enabled()) {
    return std::make_shared<HostStorage>(bytes, HostStorage::Uninitialized{});
  }
  HostStorage* block = take(bytes);
  if (block == nullptr) block = new HostStorage(bytes, HostStorage::Uninitialized{});
  // The block goes back to this cache when the last tensor using it is gone (also when the
  // control block cannot be allocated: shared_ptr then calls the deleter); the cache stays alive
  // as long as any of its blocks is out. A reused block may be larger than `bytes`: the CPU
  // buffer around it keeps the size that was asked for.
  return std::shared_ptr<HostStorage>(block, GiveBack{shared_from_this()});
}

HostStorage* HostBlockCache::take(std::size_t bytes) {
  Pool& pool = pool_for(bytes);
  std::lock_guard lock(mutex_);
  // The newest fitting block (the one most likely still in cache), smallest first among them.
  auto best = pool.free.end();
  for (auto it = pool.free.begin(); it != pool.free.end(); ++it) {
    const std::size_t size = (*it)->size_bytes();
    if (size >= bytes && size / pool.fit_num <= bytes / pool.fit_den &&
        (best == pool.free.end() || size <= (*best)->size_bytes())) {
      best = it;
    }
  }
  if (best == pool.free.end()) return nullptr;
  HostStorage* block = *best;
  pool.free.erase(best);
  pool.bytes -= block->size_bytes();
  return block;
}

void HostBlockCache::give_back(HostStorage* block) noexcept {
  Pool& pool = pool_for(block->size_bytes());
  if (block->size_bytes() > pool.max_bytes) {
    delete block;  // too big to keep
    return;
  }
  std::vector<HostStorage*> evicted;  // freed outside the lock
  {
    std::lock_guard lock(mutex_);
    try {
      pool.free.push_back(block);
      pool.bytes += block->size_bytes();
      block = nullptr;  // kept
    } catch (...) {
      // no room to remember it: freed below
    }
    while (pool.free.size() > pool.max_blocks || pool.bytes > pool.max_bytes) {
      HostStorage* oldest = pool.free.front();
      pool.free.erase(pool.free.begin());
      pool.bytes -= oldest->size_bytes();
      try {
        evicted.push_back(oldest);
      } catch (...) {
        delete oldest;  // freed under the lock, once, when memory is this short
      }
    }
  }
  delete block;  // null unless the pool could not take it
  for (HostStorage* b : evicted) delete b;
}

std::size_t HostBlockCache::cached_bytes() const {
  std::lock_guard lock(mutex_);
  return small_.bytes + large_.bytes;
}

std::size_t HostBlockCache::cached_blocks() const {
  std::lock_guard lock(mutex_);
  return small_.free.size() + large_.free.size();
}

}  // namespace tenferro::cpu_memory
