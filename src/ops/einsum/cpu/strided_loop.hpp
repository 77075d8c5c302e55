// A small N-operand strided loop nest for the CPU einsum kernels: drops extents of 1,
// orders the axes by one operand's strides (the innermost axis is its fastest), fuses axes
// that are contiguous in every operand, and calls `inner(offsets, length, inner_strides)`
// once per innermost run.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <numeric>
#include <vector>

namespace tenferro::einsum_internal::cpu_loops {

template <std::size_t N>
struct LoopNest {
  std::vector<std::int64_t> extents;                 // innermost first
  std::array<std::vector<std::int64_t>, N> strides;  // per operand, same axis order
  bool empty = false;
};

template <std::size_t N>
LoopNest<N> make_nest(const std::vector<std::int64_t>& shape,
                      const std::array<const std::vector<std::int64_t>*, N>& strides,
                      std::size_t order_by) {
  LoopNest<N> nest;
  std::vector<std::size_t> axes;
  for (std::size_t a = 0; a < shape.size(); ++a) {
    if (shape[a] == 0) nest.empty = true;
    if (shape[a] > 1) axes.push_back(a);
  }
  if (nest.empty) return nest;
  const auto& key = *strides[order_by];
  std::stable_sort(axes.begin(), axes.end(), [&](std::size_t x, std::size_t y) {
    return std::abs(key[x]) < std::abs(key[y]);
  });
  for (std::size_t a : axes) {
    bool merged = false;
    if (!nest.extents.empty()) {
      merged = true;
      for (std::size_t op = 0; op < N; ++op)
        if ((*strides[op])[a] != nest.strides[op].back() * nest.extents.back()) merged = false;
    }
    if (merged) {
      nest.extents.back() *= shape[a];
    } else {
      nest.extents.push_back(shape[a]);
      for (std::size_t op = 0; op < N; ++op) nest.strides[op].push_back((*strides[op])[a]);
    }
  }
  return nest;
}

// Calls inner(offsets, length, inner_strides) for every innermost run of the nest.
template <std::size_t N, class Inner>
void run_nest(const LoopNest<N>& nest, std::array<std::int64_t, N> base, Inner&& inner) {
  if (nest.empty) return;
  const std::size_t rank = nest.extents.size();
  if (rank == 0) {
    inner(base, std::int64_t{1}, std::array<std::int64_t, N>{});
    return;
  }
  std::array<std::int64_t, N> inner_strides;
  for (std::size_t op = 0; op < N; ++op) inner_strides[op] = nest.strides[op][0];
  std::vector<std::int64_t> index(rank, 0);
  std::array<std::int64_t, N> offsets = base;
  for (;;) {
    inner(offsets, nest.extents[0], inner_strides);
    std::size_t axis = 1;
    for (; axis < rank; ++axis) {
      ++index[axis];
      for (std::size_t op = 0; op < N; ++op) offsets[op] += nest.strides[op][axis];
      if (index[axis] < nest.extents[axis]) break;
      for (std::size_t op = 0; op < N; ++op)
        offsets[op] -= nest.strides[op][axis] * nest.extents[axis];
      index[axis] = 0;
    }
    if (axis == rank) return;
  }
}

}  // namespace tenferro::einsum_internal::cpu_loops
