// The launch geometry shared by element-wise device kernels: 256-thread blocks, a grid capped
// at 2^20 blocks, and a grid-stride loop so any count fits that grid.
#pragma once

#include <algorithm>
#include <cstdint>

namespace tenferro::cuda_kernels {

constexpr int kGridThreads = 256;

inline unsigned grid_blocks_for(std::int64_t count) {
  return static_cast<unsigned>(
      std::min<std::int64_t>((count + kGridThreads - 1) / kGridThreads, std::int64_t{1} << 20));
}

}  // namespace tenferro::cuda_kernels

#define TENFERRO_GRID_LOOP(i, count)                                                      \
  for (std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; i < (count); \
       i += std::int64_t(gridDim.x) * blockDim.x)
