// Reuse of a CPU backend's large host blocks. A fresh multi-megabyte allocation comes from the
// kernel as untouched pages, and the first write to each page faults: for a memory-bound op on
// 2^24 doubles that doubled the time of the op itself. Blocks of at least kMinBytes freed by the
// backend's tensors come back here and are handed out again (best fit within 2x), up to
// kMaxBlocks blocks and kMaxBytes bytes held; anything beyond is freed at once. Under
// AddressSanitizer nothing is kept, so that a use after free of a buffer is still reported.
#pragma once

#include <cstddef>
#include <memory>
#include <mutex>
#include <vector>

#include "tenferro/core/tensor.hpp"

namespace tenferro::cpu_memory {

class HostBlockCache : public std::enable_shared_from_this<HostBlockCache> {
 public:
  static constexpr std::size_t kMinBytes = std::size_t{1} << 20;
  static constexpr std::size_t kMaxBlocks = 8;
  static constexpr std::size_t kMaxBytes = std::size_t{512} << 20;

  // Storage of `bytes` (contents unspecified): a reused block when one fits, else a new one
  // (a ResourceError when the host cannot provide it, as HostStorage).
  std::shared_ptr<HostStorage> allocate(std::size_t bytes);
  std::size_t cached_bytes() const;
  std::size_t cached_blocks() const;

 private:
  std::unique_ptr<HostStorage> take(std::size_t bytes);
  void give_back(std::unique_ptr<HostStorage> block) noexcept;

  mutable std::mutex mutex_;
  std::vector<std::unique_ptr<HostStorage>> free_;  // oldest first
  std::size_t cached_bytes_ = 0;
};

// Whether this build keeps blocks at all (false under AddressSanitizer).
bool host_block_cache_enabled() noexcept;

}  // namespace tenferro::cpu_memory
