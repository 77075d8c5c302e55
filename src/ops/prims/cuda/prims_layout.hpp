// Host side: turns the strided operands of a prims kernel call into the compact index the
// kernels walk (prims_index.hpp): extent-1 axes dropped, axes ordered by the first operand's
// stride (the output, so consecutive threads write consecutive elements), and neighbours that
// are one run of memory in every operand merged. A compact operand thus becomes rank 1 and its
// kernel does no index division at all.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "ops/prims/cuda/prims_index.hpp"
#include "tenferro/core/error.hpp"

namespace tenferro::prims_internal::cuda_layout {

template <int N>
struct Coalesced {
  cuda_kernels::prims::Index<N> index;
  std::int64_t count = 1;  // elements of `shape`
};

// The axes `axes` of `shape`, with one stride vector per operand (each of shape's rank); a
// reduction coalesces its kept and its reduced axes separately.
template <int N>
Coalesced<N> coalesce(std::span<const std::int64_t> shape,
                      const std::array<std::span<const std::int64_t>, N>& strides,
                      const std::vector<std::size_t>& axes) {
  Coalesced<N> out;
  std::vector<std::size_t> kept;
  for (std::size_t a : axes) {
    out.count *= shape[a];
    if (shape[a] != 1) kept.push_back(a);
  }
  if (out.count == 0) return out;
  std::stable_sort(kept.begin(), kept.end(),
                   [&](std::size_t x, std::size_t y) { return strides[0][x] < strides[0][y]; });
  int rank = 0;
  for (std::size_t a : kept) {
    bool merge = rank > 0;
    for (int n = 0; merge && n < N; ++n) {
      merge = strides[n][a] == out.index.stride[n][rank - 1] * out.index.extent[rank - 1];
    }
    if (merge) {
      out.index.extent[rank - 1] *= shape[a];
      continue;
    }
    // Cannot happen (every kept extent is >= 2 and a tensor has fewer than 2^64 elements); a
    // typed error rather than an out-of-bounds write if it ever did.
    if (rank == cuda_kernels::prims::kMaxRank) {
      throw_error(ErrorKind::RuntimeState, ErrorPhase::Execute, "prims",
                  "a CUDA view has more than " + std::to_string(cuda_kernels::prims::kMaxRank) +
                      " non-mergeable axes");
    }
    out.index.extent[rank] = shape[a];
    for (int n = 0; n < N; ++n) out.index.stride[n][rank] = strides[n][a];
    ++rank;
  }
  out.index.rank = rank;
  return out;
}

// 0, 1, ..., rank - 1.
inline std::vector<std::size_t> all_axes(std::size_t rank) {
  std::vector<std::size_t> axes(rank);
  for (std::size_t a = 0; a < rank; ++a) axes[a] = a;
  return axes;
}

}  // namespace tenferro::prims_internal::cuda_layout
