// Reuse of a CPU backend's host blocks, in two ranges:
//   - large blocks (at least kLargeMinBytes): a fresh multi-megabyte allocation comes from the
//     kernel as untouched pages, and the first write to each page faults: for a memory-bound op
//     on 2^24 doubles that doubled the time of the op itself. Handed out again best fit within
//     2x, up to kLargeMaxBlocks blocks and kLargeMaxBytes bytes held.
//   - small blocks (kSmallMinBytes up to the large range): glibc serves them from its bins, not
//     its per-thread cache, and the malloc/free pair of an 8 KiB output was about a tenth of a
//     warm eager add of 1024 doubles. Handed out again within 1/8 of the size asked, up to
//     kSmallMaxBlocks blocks and kSmallMaxBytes bytes held.
// A block comes back when the last tensor using it is gone; anything beyond the bounds is freed
// at once. Under AddressSanitizer nothing is kept, so that a use after free of a buffer is still
// reported.
#pragma once

#include <cstddef>
#include <memory>
#include <mutex>
#include <new>
#include <vector>

#include "core/fork_reset.hpp"
#include "core/spin_lock.hpp"
#include "tenferro/core/tensor.hpp"

namespace tenferro::cpu_memory {

class HostBlockCache;

// One block out of a cache, owned alone: given back to its cache when the handle dies (freed
// at once past the cache's bounds, or when it came from no cache). What a CPU buffer holds, so
// that a buffer and its block cost one allocation between them (a shared HostStorage with a
// give-back deleter cost a control block of its own on every output).
class CachedBlock {
 public:
  CachedBlock() = default;
  CachedBlock(std::unique_ptr<HostStorage> block, std::shared_ptr<HostBlockCache> cache) noexcept
      : block_(std::move(block)), cache_(std::move(cache)) {}
  CachedBlock(CachedBlock&&) noexcept = default;
  CachedBlock& operator=(CachedBlock&& other) noexcept;
  ~CachedBlock();
  HostStorage* get() const noexcept { return block_.get(); }

 private:
  void give_back() noexcept;
  std::unique_ptr<HostStorage> block_;
  std::shared_ptr<HostBlockCache> cache_;  // empty: the block is freed, not kept
};

class HostBlockCache : public std::enable_shared_from_this<HostBlockCache> {
 public:
  static constexpr std::size_t kSmallMinBytes = std::size_t{2} << 10;
  static constexpr std::size_t kSmallMaxBlocks = 16;
  static constexpr std::size_t kSmallMaxBytes = std::size_t{4} << 20;
  static constexpr std::size_t kLargeMinBytes = std::size_t{1} << 20;
  static constexpr std::size_t kLargeMaxBlocks = 8;
  static constexpr std::size_t kLargeMaxBytes = std::size_t{512} << 20;

  // Storage of `bytes` (contents unspecified): a reused block when one fits, else a new one
  // (a ResourceError when the host cannot provide it even with the kept blocks freed, as
  // HostStorage), held by one owner (a CPU buffer). A reused block may be larger than `bytes`:
  // the buffer keeps the size asked for.
  // Called with the owner's pointer to the cache (a CPU backend, for every output it allocates):
  // the block copies it instead of locking a weak one (a compare-and-swap per output).
  static CachedBlock take_block(const std::shared_ptr<HostBlockCache>& cache, std::size_t bytes);
  // The same block shared (given back after the last sharer).
  std::shared_ptr<HostStorage> allocate(std::size_t bytes);
  std::size_t cached_bytes() const;
  std::size_t cached_blocks() const;
  // Frees every kept block (take_block does when an allocation fails, before it tries again).
  void release_free_blocks() noexcept;

 private:
  // One size range: its free blocks (oldest first) and bounds.
  struct Pool {
    std::vector<std::unique_ptr<HostStorage>> free;
    std::size_t bytes = 0;
    std::size_t max_blocks;
    std::size_t max_bytes;
    // A block of `size` serves a request of `bytes` when bytes <= size <= bytes + (bytes >> slack).
    unsigned slack;
  };
  friend class CachedBlock;  // gives its block back

  Pool& pool_for(std::size_t bytes) noexcept { return bytes < kLargeMinBytes ? small_ : large_; }
  std::unique_ptr<HostStorage> take(std::size_t bytes);
  void give_back(HostStorage* block) noexcept;

  // Taken twice by every output (take, give_back): a lock of one atomic instruction.
  mutable core::SpinLock lock_;
  Pool small_{{}, 0, kSmallMaxBlocks, kSmallMaxBytes, 3};  // within 1/8
  Pool large_{{}, 0, kLargeMaxBlocks, kLargeMaxBytes, 0};  // within 2x
  // Last, so it unregisters first: a forked child whose parent held lock_ at the fork starts
  // with no kept blocks and a fresh lock (core/fork_reset.hpp).
  core::ForkReset fork_reset_{[this] {
    if (!core::remake_if_held(lock_)) return;
    new (&small_.free) std::vector<std::unique_ptr<HostStorage>>;
    new (&large_.free) std::vector<std::unique_ptr<HostStorage>>;
    small_.bytes = large_.bytes = 0;
  }};
};

// Whether this build keeps blocks at all (false under AddressSanitizer).
bool host_block_cache_enabled() noexcept;

}  // namespace tenferro::cpu_memory
