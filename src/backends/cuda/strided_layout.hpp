// Turns a common shape and per-operand strides into the compact index the strided CUDA
// kernels walk: extent-1 axes dropped, axes ordered by the first operand's stride (so
// consecutive threads write consecutive elements), and neighbours that are one run of memory
// in every operand merged. Host-side only.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <numeric>
#include <span>
#include <vector>

#include "backends/cuda/strided_kernels.hpp"
#include "tenferro/core/error.hpp"

namespace tenferro::cuda_layout {

template <int N>
struct Coalesced {
  cuda_kernels::StridedIndex<N> index;
  std::int64_t count = 1;
};

template <int N>
Coalesced<N> coalesce(std::span<const std::int64_t> shape,
                      const std::array<std::span<const std::int64_t>, N>& strides) {
  Coalesced<N> out;
  std::vector<std::size_t> axes;
  for (std::size_t a = 0; a < shape.size(); ++a) {
    out.count *= shape[a];
    if (shape[a] != 1) axes.push_back(a);
  }
  if (out.count == 0) return out;
  auto abs_stride = [&](std::size_t a) {
    const std::int64_t s = strides[0][a];
    return s < 0 ? -s : s;
  };
  std::stable_sort(axes.begin(), axes.end(),
                   [&](std::size_t x, std::size_t y) { return abs_stride(x) < abs_stride(y); });
  int rank = 0;
  for (std::size_t a : axes) {
    bool merge = rank > 0;
    for (int n = 0; merge && n < N; ++n) {
      const std::int64_t prev_stride = out.index.stride[n][rank - 1];
      merge = strides[n][a] == prev_stride * out.index.extent[rank - 1];
    }
    if (merge) {
      out.index.extent[rank - 1] *= shape[a];
      continue;
    }
    if (rank == cuda_kernels::kMaxRank) {
      throw_error(ErrorKind::Unsupported, ErrorPhase::Execute, "einsum",
                  "a CUDA view needs more than " + std::to_string(cuda_kernels::kMaxRank) +
                      " non-mergeable axes");
    }
    out.index.extent[rank] = shape[a];
    for (int n = 0; n < N; ++n) out.index.stride[n][rank] = strides[n][a];
    ++rank;
  }
  out.index.rank = rank;
  return out;
}

}  // namespace tenferro::cuda_layout
