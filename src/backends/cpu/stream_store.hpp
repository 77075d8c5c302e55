// When a kernel's stores should be non-temporal ("streaming"): when its operands and result do
// not fit in the last-level cache together. A plain store first reads the line it writes
// (read-for-ownership), so an element-wise op over arrays larger than the cache moves four
// streams through memory: two inputs, the output's old contents and the output; a streaming
// store writes whole lines without reading them: three streams. On the 2-core Zen 4 VM (32 MiB
// L3) add of two float64 arrays of 16 MiB took 600-670 against 860-900 us, of 32 MiB 1.60-1.68
// against 2.07-2.34 ms. Below the cache the plain store wins: a streamed result is not in the
// cache for the op that reads it next. The element-wise SIMD kernels take the answer as a flag
// (ops/prims/cpu/simd/simd_ops.hpp).
#pragma once

#include <cstddef>

namespace tenferro::cpu_stream {

// The last-level cache of this machine in bytes (Linux's sysfs, else sysconf, else 32 MiB),
// read once. A call whose operands and result together reach it streams its stores.
std::size_t last_level_cache_bytes();

inline bool worth_streaming(std::size_t bytes_moved) {
  return bytes_moved >= last_level_cache_bytes();
}

}  // namespace tenferro::cpu_stream
