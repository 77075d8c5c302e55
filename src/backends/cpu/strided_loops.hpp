// The CPU backend's strided loops, under every CPU kernel of every family (einsum's copy,
// multiply, sums and accumulations; every prims kernel): N operands walk one shape, each with
// its own strides.
//
// A LoopNest is the shape after the usual simplifications: extents of 1 dropped, axes
// optionally ordered by one operand's strides (the innermost axis is its fastest), and
// neighbouring axes fused where every operand steps through them as through one axis. Its
// innermost axis is a "run"; run_nest calls inner(offsets, length, inner_strides) once per
// run, so a kernel writes its inner loop itself (and the compiler can vectorise it).
// for_each_strided is the per-element form, split over host threads when large.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "backends/cpu/host_parallel.hpp"
#include "tenferro/core/dim_vector.hpp"

namespace tenferro::cpu_strided {

// Below this many elements a kernel stays on the calling thread.
inline constexpr std::int64_t kParallelElements = std::int64_t{1} << 16;

template <std::size_t N>
using Strides = std::array<std::span<const std::int64_t>, N>;

// A nest's axes are kept inline up to this many (no allocation per kernel call: an einsum of
// small tensors makes hundreds of calls, each a handful of axes).
inline constexpr std::size_t kNestInline = 12;
using NestDims = SmallVector<std::int64_t, kNestInline>;

template <std::size_t N>
struct LoopNest {
  NestDims extents;                 // innermost first
  std::array<NestDims, N> strides;  // per operand, same axis order
  bool empty = false;               // some extent is 0: nothing to visit

  // Runs of the nest: the product of every extent but the innermost.
  std::int64_t runs() const {
    std::int64_t n = 1;
    for (std::size_t a = 1; a < extents.size(); ++a) n *= extents[a];
    return n;
  }
};

// The nest of `shape` for operands of `strides`. With `order_by`, axes are sorted by that
// operand's |stride| (stable) before fusing; without it they keep their column-major order, so
// elements are visited in exactly the order of the unsimplified loops.
template <std::size_t N>
LoopNest<N> make_nest(std::span<const std::int64_t> shape, const Strides<N>& strides,
                      std::optional<std::size_t> order_by) {
  LoopNest<N> nest;
  SmallVector<std::size_t, kNestInline> axes;
  for (std::size_t a = 0; a < shape.size(); ++a) {
    if (shape[a] == 0) nest.empty = true;
    if (shape[a] > 1) axes.push_back(a);
  }
  if (nest.empty) return nest;
  if (order_by) {  // a stable insertion sort: std::stable_sort takes a buffer from the heap
    const auto& key = strides[*order_by];
    for (std::size_t i = 1; i < axes.size(); ++i) {
      const std::size_t a = axes[i];
      std::size_t j = i;
      for (; j > 0 && std::abs(key[axes[j - 1]]) > std::abs(key[a]); --j) axes[j] = axes[j - 1];
      axes[j] = a;
    }
  }
  for (std::size_t a : axes) {
    bool fused = !nest.extents.empty();
    for (std::size_t op = 0; fused && op < N; ++op)
      fused = strides[op][a] == nest.strides[op].back() * nest.extents.back();
    if (fused) {
      nest.extents.back() *= shape[a];
    } else {
      nest.extents.push_back(shape[a]);
      for (std::size_t op = 0; op < N; ++op) nest.strides[op].push_back(strides[op][a]);
    }
  }
  return nest;
}

// Calls inner(offsets, length, inner_strides) for runs [begin, end) of the nest (in order;
// offsets[k] = base[k] + the run's start in operand k).
template <std::size_t N, class Inner>
void run_nest_range(const LoopNest<N>& nest, const std::array<std::int64_t, N>& base,
                    std::int64_t begin, std::int64_t end, Inner&& inner) {
  if (nest.empty || begin >= end) return;
  const std::size_t rank = nest.extents.size();
  if (rank == 0) {
    inner(base, std::int64_t{1}, std::array<std::int64_t, N>{});
    return;
  }
  std::array<std::int64_t, N> inner_strides;
  for (std::size_t op = 0; op < N; ++op) inner_strides[op] = nest.strides[op][0];
  // Decode `begin` into the outer multi-index and its offsets.
  NestDims index(rank, 0);
  std::array<std::int64_t, N> offsets = base;
  std::int64_t rest = begin;
  for (std::size_t a = 1; a < rank; ++a) {
    index[a] = rest % nest.extents[a];
    rest /= nest.extents[a];
    for (std::size_t op = 0; op < N; ++op) offsets[op] += index[a] * nest.strides[op][a];
  }
  for (std::int64_t r = begin; r < end; ++r) {
    inner(offsets, nest.extents[0], inner_strides);
    for (std::size_t a = 1; a < rank; ++a) {  // odometer step over the outer axes
      for (std::size_t op = 0; op < N; ++op) offsets[op] += nest.strides[op][a];
      if (++index[a] < nest.extents[a]) break;
      for (std::size_t op = 0; op < N; ++op) offsets[op] -= index[a] * nest.strides[op][a];
      index[a] = 0;
    }
  }
}

// Every run of the nest, in order, on the calling thread.
template <std::size_t N, class Inner>
void run_nest(const LoopNest<N>& nest, const std::array<std::int64_t, N>& base, Inner&& inner) {
  run_nest_range(nest, base, 0, nest.runs(), inner);
}

// Whether every operand walks `shape` as one compact column-major run (extent-1 axes ignored).
template <std::size_t N>
bool all_compact(std::span<const std::int64_t> shape, const Strides<N>& strides) {
  for (std::size_t k = 0; k < N; ++k) {
    std::int64_t expected = 1;
    for (std::size_t i = 0; i < shape.size(); ++i) {
      if (shape[i] != 1 && strides[k][i] != expected) return false;
      expected *= shape[i];
    }
  }
  return true;
}

// Whether every operand has the same strides (on the axes longer than 1) and those strides
// lay the shape out densely in some axis order (C order, say): then element i of the memory
// block is the same multi-index in every operand, and one flat loop covers them all.
template <std::size_t N>
bool all_dense_alike(std::span<const std::int64_t> shape, const Strides<N>& strides) {
  std::array<std::int64_t, 8> order_strides{};  // the non-unit axes' strides, at most 8 kept
  std::array<std::int64_t, 8> order_extents{};
  std::size_t count = 0;
  for (std::size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] == 1) continue;
    for (std::size_t k = 1; k < N; ++k) {
      if (strides[k][i] != strides[0][i]) return false;
    }
    if (count == order_strides.size()) return false;  // rank above 8: take the general path
    order_strides[count] = strides[0][i];
    order_extents[count] = shape[i];
    ++count;
  }
  // Dense: sorted by stride, each stride is the product of the extents before it.
  for (std::size_t a = 1; a < count; ++a) {  // insertion sort, count <= 8
    for (std::size_t b = a; b > 0 && order_strides[b] < order_strides[b - 1]; --b) {
      std::swap(order_strides[b], order_strides[b - 1]);
      std::swap(order_extents[b], order_extents[b - 1]);
    }
  }
  std::int64_t expected = 1;
  for (std::size_t a = 0; a < count; ++a) {
    if (order_strides[a] != expected) return false;
    expected *= order_extents[a];
  }
  return true;
}

// The steps of a std::integer_sequence as an array (usable in constant expressions).
template <std::int64_t... Steps>
constexpr std::array<std::int64_t, sizeof...(Steps)> steps_of(
    std::integer_sequence<std::int64_t, Steps...>) {
  return {Steps...};
}

// Calls body(std::integer_sequence<std::int64_t, steps...>{}) for a run whose operand 0 has
// unit step and whose other operands each have step 0 or 1, with those steps as compile-time
// constants (so the run's loop has constant strides and vectorises, broadcast operands
// included); false for any other run.
template <std::size_t N, std::size_t K = 1, std::int64_t... Steps, class Body>
bool with_unit_steps(const std::array<std::int64_t, N>& step, Body&& body) {
  if constexpr (K == N) {
    body(std::integer_sequence<std::int64_t, 1, Steps...>{});
    return true;
  } else {
    if (step[K] == 1) return with_unit_steps<N, K + 1, Steps..., 1>(step, body);
    if (step[K] == 0) return with_unit_steps<N, K + 1, Steps..., 0>(step, body);
    return false;
  }
}

// Calls f(offsets) for every multi-index of `shape`, where offsets[k] is base[k] + sum_i
// index[i] * strides[k][i]: an element-wise kernel is the functor f, this the loop. Without
// `order_by` the indices are visited in column-major order (so in exactly the order of the
// unsimplified loops); with it, in the memory order of that operand (for kernels that write
// it). Runs whose steps are all 0 or 1 (operand 0 contiguous) run with those steps fixed at
// compile time, so the compiler vectorises them. Work is split over host threads from
// `parallel_from` elements when `parallel` (pass false when f accumulates into shared state).
template <std::size_t N, class F>
void for_each_strided(std::span<const std::int64_t> shape, const Strides<N>& strides,
                      const std::array<std::int64_t, N>& base, F&& f, bool parallel = true,
                      std::optional<std::size_t> order_by = std::nullopt,
                      std::int64_t parallel_from = kParallelElements) {
  const int threads = parallel ? cpu_parallel::host_kernel_threads() : 1;
  // Every operand compact column-major (the common case), or, for a kernel that names the
  // operand it writes (so the order of visits is free), every operand laid out densely in one
  // shared axis order (NumPy's C order): one flat loop the compiler can vectorise, split over
  // threads when large.
  if (all_compact<N>(shape, strides) || (order_by && all_dense_alike<N>(shape, strides))) {
    std::int64_t n = 1;
    for (std::int64_t e : shape) n *= e;
    const auto flat = [&](std::int64_t begin, std::int64_t end) {
      for (std::int64_t i = begin; i < end; ++i) {
        std::array<std::int64_t, N> e;
        for (std::size_t k = 0; k < N; ++k) e[k] = base[k] + i;
        f(e);
      }
    };
    if (threads > 1 && n >= parallel_from) {
      cpu_parallel::parallel_chunks(n, threads, flat);
    } else {
      flat(0, n);
    }
    return;
  }
  const LoopNest<N> nest = make_nest<N>(shape, strides, order_by);
  if (nest.empty) return;
  const auto runs = [&](std::int64_t begin, std::int64_t end) {
    run_nest_range(nest, base, begin, end,
                   [&](std::array<std::int64_t, N> e, std::int64_t length,
                       const std::array<std::int64_t, N>& step) {
                     const bool fixed = step[0] == 1 && with_unit_steps<N>(step, [&](auto seq) {
                                          constexpr std::array<std::int64_t, N> steps =
                                              steps_of(decltype(seq){});
                                          for (std::int64_t j = 0; j < length; ++j) {
                                            std::array<std::int64_t, N> o;
                                            for (std::size_t k = 0; k < N; ++k)
                                              o[k] = e[k] + steps[k] * j;
                                            f(o);
                                          }
                                        });
                     if (fixed) return;
                     for (std::int64_t j = 0; j < length; ++j) {
                       f(e);
                       for (std::size_t k = 0; k < N; ++k) e[k] += step[k];
                     }
                   });
  };
  const std::int64_t outer = nest.runs();
  const std::int64_t inner = nest.extents.empty() ? 1 : nest.extents[0];
  if (threads > 1 && inner * outer >= parallel_from && outer > 1) {
    cpu_parallel::parallel_chunks(outer, threads, runs);
  } else {
    runs(0, outer);
  }
}

}  // namespace tenferro::cpu_strided
