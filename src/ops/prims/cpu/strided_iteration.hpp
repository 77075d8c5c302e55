// Column-major iteration over a shape with several strided operands: the loop under every CPU
// prims kernel. Axis 0 is the inner loop; the outer axes advance like an odometer, so each
// element costs an add per operand, and a split of the outer range runs on host threads.
#pragma once

#include <array>
#include <cstdint>
#include <span>

#include "backends/cpu/host_parallel.hpp"
#include "tenferro/core/shape.hpp"

namespace tenferro::prims_cpu {

// Below this many elements a kernel stays on the calling thread.
inline constexpr std::int64_t kParallelElements = std::int64_t{1} << 16;

// Whether every operand walks `shape` as one compact column-major run (extent-1 axes ignored).
template <std::size_t N>
bool all_compact(std::span<const std::int64_t> shape,
                 const std::array<std::span<const std::int64_t>, N>& strides) {
  for (std::size_t k = 0; k < N; ++k) {
    std::int64_t expected = 1;
    for (std::size_t i = 0; i < shape.size(); ++i) {
      if (shape[i] != 1 && strides[k][i] != expected) return false;
      expected *= shape[i];
    }
  }
  return true;
}

// Calls f(offsets) for every multi-index of `shape` in column-major order, where offsets[k] is
// base[k] + sum_i index[i] * strides[k][i]. Work is split over host threads when large and
// `parallel` (pass false when f accumulates into shared state).
template <std::size_t N, class F>
void for_each_strided(std::span<const std::int64_t> shape,
                      const std::array<std::span<const std::int64_t>, N>& strides,
                      const std::array<std::int64_t, N>& base, F&& f, bool parallel = true) {
  const std::size_t rank = shape.size();
  if (rank == 0) {
    f(base);
    return;
  }
  // Every operand compact column-major (the common case): one flat loop the compiler can
  // vectorise, split over threads when large.
  if (all_compact<N>(shape, strides)) {
    std::int64_t n = 1;
    for (std::int64_t e : shape) n *= e;
    const auto flat = [&](std::int64_t begin, std::int64_t end) {
      for (std::int64_t i = begin; i < end; ++i) {
        std::array<std::int64_t, N> e;
        for (std::size_t k = 0; k < N; ++k) e[k] = base[k] + i;
        f(e);
      }
    };
    const int threads = parallel ? cpu_parallel::host_kernel_threads() : 1;
    if (threads > 1 && n >= kParallelElements) {
      cpu_parallel::parallel_chunks(n, threads, flat);
    } else {
      flat(0, n);
    }
    return;
  }
  const std::int64_t inner = shape[0];
  std::int64_t outer = 1;
  for (std::size_t i = 1; i < rank; ++i) outer *= shape[i];
  if (inner == 0 || outer == 0) return;
  const auto run = [&](std::int64_t begin, std::int64_t end) {
    // Decode `begin` into the outer multi-index and its offsets.
    std::array<std::int64_t, 64> index{};
    std::array<std::int64_t, N> offs = base;
    std::int64_t rest = begin;
    for (std::size_t i = 1; i < rank; ++i) {
      index[i] = rest % shape[i];
      rest /= shape[i];
      for (std::size_t k = 0; k < N; ++k) offs[k] += index[i] * strides[k][i];
    }
    for (std::int64_t o = begin; o < end; ++o) {
      std::array<std::int64_t, N> e = offs;
      for (std::int64_t j = 0; j < inner; ++j) {
        f(e);
        for (std::size_t k = 0; k < N; ++k) e[k] += strides[k][0];
      }
      for (std::size_t i = 1; i < rank; ++i) {  // odometer step over the outer axes
        for (std::size_t k = 0; k < N; ++k) offs[k] += strides[k][i];
        if (++index[i] < shape[i]) break;
        for (std::size_t k = 0; k < N; ++k) offs[k] -= index[i] * strides[k][i];
        index[i] = 0;
      }
    }
  };
  const int threads = parallel ? cpu_parallel::host_kernel_threads() : 1;
  if (parallel && threads > 1 && inner * outer >= kParallelElements && outer > 1) {
    cpu_parallel::parallel_chunks(outer, threads, run);
  } else {
    run(0, outer);
  }
}

}  // namespace tenferro::prims_cpu
