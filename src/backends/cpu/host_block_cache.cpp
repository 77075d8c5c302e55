#include "backends/cpu/host_block_cache.hpp"

#include <algorithm>

#include "tenferro/core/error.hpp"

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
  // The block goes back to this cache when the last sharer is gone (also when the holder cannot
  // be allocated: the handle then gives it back as it unwinds); the cache stays alive as long
  // as any of its blocks is out.
  auto holder = std::make_shared<CachedBlock>(take_block(shared_from_this(), bytes));
  return std::shared_ptr<HostStorage>(holder, holder->get());
}

CachedBlock HostBlockCache::take_block(const std::shared_ptr<HostBlockCache>& cache,
                                       std::size_t bytes) {
  if (bytes < kSmallMinBytes || !host_block_cache_enabled()) {
    return CachedBlock(std::make_unique<HostStorage>(bytes, HostStorage::Uninitialized{}), nullptr);
  }
  std::unique_ptr<HostStorage> block = cache->take(bytes);
  if (!block) {
    try {
      block = std::make_unique<HostStorage>(bytes, HostStorage::Uninitialized{});
    } catch (const ResourceError&) {
      // The kept blocks (up to 512 MiB) are memory the process holds for no one: a cache must
      // never turn an allocation that fits into a ResourceError. Freed, then one more try.
      cache->release_free_blocks();
      block = std::make_unique<HostStorage>(bytes, HostStorage::Uninitialized{});
    }
  }
  return CachedBlock(std::move(block), cache);
}

void HostBlockCache::release_free_blocks() noexcept {
  std::vector<std::unique_ptr<HostStorage>> freed[2];  // freed outside the lock
  {
    std::lock_guard lock(lock_);
    freed[0].swap(small_.free);
    freed[1].swap(large_.free);
    small_.bytes = large_.bytes = 0;
  }
}

CachedBlock& CachedBlock::operator=(CachedBlock&& other) noexcept {
  if (this != &other) {
    give_back();
    block_ = std::move(other.block_);
    cache_ = std::move(other.cache_);
  }
  return *this;
}

CachedBlock::~CachedBlock() {
  give_back();
}

void CachedBlock::give_back() noexcept {
  if (block_ && cache_) cache_->give_back(block_.release());
  block_.reset();
  cache_.reset();
}

std::unique_ptr<HostStorage> HostBlockCache::take(std::size_t bytes) {
  Pool& pool = pool_for(bytes);
  std::lock_guard lock(lock_);
  // The smallest fitting block; among equal ones the newest (the most likely still in cache).
  auto best = pool.free.end();
  for (auto it = pool.free.begin(); it != pool.free.end(); ++it) {
    const std::size_t size = (*it)->size_bytes();
    if (size >= bytes && size - bytes <= (bytes >> pool.slack) &&
        (best == pool.free.end() || size <= (*best)->size_bytes())) {
      best = it;
    }
  }
  if (best == pool.free.end()) return nullptr;
  std::unique_ptr<HostStorage> block = std::move(*best);
  pool.free.erase(best);
  pool.bytes -= block->size_bytes();
  return block;
}

void HostBlockCache::give_back(HostStorage* raw) noexcept {
  std::unique_ptr<HostStorage> block(raw);
  Pool& pool = pool_for(block->size_bytes());
  if (block->size_bytes() > pool.max_bytes) return;   // too big to keep: freed on return
  std::vector<std::unique_ptr<HostStorage>> evicted;  // freed outside the lock
  std::lock_guard lock(lock_);
  try {
    pool.free.push_back(std::move(block));
  } catch (...) {
    return;  // no room to remember it: freed on return
  }
  pool.bytes += pool.free.back()->size_bytes();
  while (pool.free.size() > pool.max_blocks || pool.bytes > pool.max_bytes) {
    pool.bytes -= pool.free.front()->size_bytes();
    try {
      evicted.push_back(std::move(pool.free.front()));
    } catch (...) {
      // the erase below frees it (under the lock, when memory is this short)
    }
    pool.free.erase(pool.free.begin());
  }
}

std::size_t HostBlockCache::cached_bytes() const {
  std::lock_guard lock(lock_);
  return small_.bytes + large_.bytes;
}

std::size_t HostBlockCache::cached_blocks() const {
  std::lock_guard lock(lock_);
  return small_.free.size() + large_.free.size();
}

}  // namespace tenferro::cpu_memory
