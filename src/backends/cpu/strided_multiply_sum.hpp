// The CPU backend's product-and-sum of two strided views without a GEMM: dst[kept] = the sum
// over the folded axes of a * b, in one pass over the operands in a's memory order.
//
// It is for products that read every element of the large operand once (a matrix-vector
// shape: every label of b is one of a's). A GEMM gains nothing from reuse there, and when the
// large operand's kept and folded axes interleave in memory (a tree network's
// `kpryzWß,przW->kyß`), laying it out for a GEMM is a permuting copy: two more passes over the
// largest tensor of the step, each slower than this one.
//
// Each output accumulates in WideSum<T> (double for float, as the backend's sums do) in a
// compact scratch array laid out in a's order of the kept axes, so that a run along a's
// fastest axis is a vectorisable multiply-add into consecutive accumulators (kept axis; with a
// folded axis next, a small matrix-vector product whose accumulators stay in registers) or a
// dot product into one (folded axis). Threads split the kept axis a steps through slowest:
// each writes its own outputs, and every output adds its terms in the same order whatever
// the threads.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <numeric>
#include <span>
#include <vector>

#include "backends/cpu/host_parallel.hpp"
#include "backends/cpu/strided_loops.hpp"
#include "backends/cpu/strided_reduce.hpp"
#include "tenferro/core/dim_vector.hpp"

namespace tenferro::cpu_strided {

// The operands: one shape whose first kept_rank axes are kept and the rest folded; a's and
// b's strides over all of it (0 where an operand broadcasts), dst's over the kept axes.
// Offsets and strides are in elements.
struct MultiplySumView {
  std::span<const std::int64_t> shape;
  std::size_t kept_rank = 0;
  std::span<const std::int64_t> a_strides, b_strides, dst_strides;
  std::int64_t a_offset = 0, b_offset = 0, dst_offset = 0;
};

namespace multiply_sum_detail {

// acc[o0] += a[o1] * b[o2] along one run of `n` elements with steps `step`.
template <class T, class W>
void add_run(W* acc, const T* a, const T* b, const std::array<std::int64_t, 3>& at, std::int64_t n,
             const std::array<std::int64_t, 3>& step) {
  W* c = acc + at[0];
  const T* x = a + at[1];
  const T* y = b + at[2];
  if (step[0] == 0) {  // a folded axis: a dot product into one accumulator
    W s[4] = {W(0), W(0), W(0), W(0)};
    std::int64_t j = 0;
    if (step[1] == 1 && step[2] == 1) {
      for (; j + 4 <= n; j += 4)
        for (int l = 0; l < 4; ++l) s[l] += static_cast<W>(x[j + l]) * static_cast<W>(y[j + l]);
    } else if (step[1] == 1 && step[2] == 0) {
      const W yv = static_cast<W>(*y);
      for (; j + 4 <= n; j += 4)
        for (int l = 0; l < 4; ++l) s[l] += static_cast<W>(x[j + l]) * yv;
    }
    for (; j < n; ++j) s[0] += static_cast<W>(x[j * step[1]]) * static_cast<W>(y[j * step[2]]);
    *c += (s[0] + s[1]) + (s[2] + s[3]);
    return;
  }
  if (step[0] == 1 && step[1] == 1 && step[2] == 0) {  // a kept axis, b constant along it
    const W yv = static_cast<W>(*y);
    for (std::int64_t j = 0; j < n; ++j) c[j] += static_cast<W>(x[j]) * yv;
    return;
  }
  if (step[0] == 1 && step[1] == 1 && step[2] == 1) {
    for (std::int64_t j = 0; j < n; ++j) c[j] += static_cast<W>(x[j]) * static_cast<W>(y[j]);
    return;
  }
  for (std::int64_t j = 0; j < n; ++j)
    c[j * step[0]] += static_cast<W>(x[j * step[1]]) * static_cast<W>(y[j * step[2]]);
}

// The innermost two axes of the nest at once: n0 x n1 elements, axis 0 with steps step0 and
// axis 1 with steps step1. Where one of them is kept (its accumulators consecutive) and the
// other folded, this is a small matrix-vector product whose accumulators stay in registers
// across the folded axis, kLanes at a time: tree_100's `kpryzWß,przW->kyß` in NumPy's order
// (ß kept, then z and W folded), or a folded axis first and a kept one next. Otherwise one run
// per index of axis 1.
inline constexpr std::int64_t kLanes = 8;

// acc[j] += sum_w a[j * a_kept + w * a_folded] * b[j * b_kept + w * b_folded] for j < n_kept,
// w < n_folded; kAKept / kBKept fix the kept steps at compile time where they are 1 or 0
// (-1: read from the arguments).
template <class T, class W, std::int64_t kAKept, std::int64_t kBKept>
void add_matrix_vector(W* acc, const T* a, const T* b, std::int64_t n_kept, std::int64_t a_kept_arg,
                       std::int64_t b_kept_arg, std::int64_t n_folded, std::int64_t a_folded,
                       std::int64_t b_folded) {
  const std::int64_t a_kept = kAKept >= 0 ? kAKept : a_kept_arg;
  const std::int64_t b_kept = kBKept >= 0 ? kBKept : b_kept_arg;
  std::int64_t j = 0;
  for (; j + kLanes <= n_kept; j += kLanes) {
    W t[kLanes];
    for (std::int64_t l = 0; l < kLanes; ++l) t[l] = acc[j + l];
    for (std::int64_t w = 0; w < n_folded; ++w) {
      const T* x = a + j * a_kept + w * a_folded;
      const T* y = b + j * b_kept + w * b_folded;
      for (std::int64_t l = 0; l < kLanes; ++l)
        t[l] += static_cast<W>(x[l * a_kept]) * static_cast<W>(y[l * b_kept]);
    }
    for (std::int64_t l = 0; l < kLanes; ++l) acc[j + l] = t[l];
  }
  for (; j < n_kept; ++j) {
    W t = acc[j];
    for (std::int64_t w = 0; w < n_folded; ++w)
      t += static_cast<W>(a[j * a_kept + w * a_folded]) *
           static_cast<W>(b[j * b_kept + w * b_folded]);
    acc[j] = t;
  }
}

template <class T, class W>
void add_matrix_vector(W* acc, const T* a, const T* b, std::int64_t n_kept, std::int64_t a_kept,
                       std::int64_t b_kept, std::int64_t n_folded, std::int64_t a_folded,
                       std::int64_t b_folded) {
  if (a_kept == 1 && b_kept == 0)
    add_matrix_vector<T, W, 1, 0>(acc, a, b, n_kept, 1, 0, n_folded, a_folded, b_folded);
  else if (a_kept == 1 && b_kept == 1)
    add_matrix_vector<T, W, 1, 1>(acc, a, b, n_kept, 1, 1, n_folded, a_folded, b_folded);
  else
    add_matrix_vector<T, W, -1, -1>(acc, a, b, n_kept, a_kept, b_kept, n_folded, a_folded,
                                    b_folded);
}

template <class T, class W>
void add_plane(W* acc, const T* a, const T* b, const std::array<std::int64_t, 3>& at,
               std::int64_t n0, const std::array<std::int64_t, 3>& step0, std::int64_t n1,
               const std::array<std::int64_t, 3>& step1) {
  if (step0[0] == 1 && step1[0] == 0) {
    add_matrix_vector<T, W>(acc + at[0], a + at[1], b + at[2], n0, step0[1], step0[2], n1, step1[1],
                            step1[2]);
    return;
  }
  if (step0[0] == 0 && step1[0] == 1) {
    add_matrix_vector<T, W>(acc + at[0], a + at[1], b + at[2], n1, step1[1], step1[2], n0, step0[1],
                            step0[2]);
    return;
  }
  std::array<std::int64_t, 3> row = at;
  for (std::int64_t w = 0; w < n1; ++w) {
    add_run<T, W>(acc, a, b, row, n0, step0);
    for (std::size_t k = 0; k < 3; ++k) row[k] += step1[k];
  }
}

}  // namespace multiply_sum_detail

template <class T>
void multiply_sum(const T* a, const T* b, T* dst, const MultiplySumView& v) {
  using W = WideSum<T>;
  const std::size_t rank = v.shape.size();
  // The accumulators: compact over the kept axes, in a's order of them (its fastest first).
  std::vector<std::size_t> kept(v.kept_rank);
  std::iota(kept.begin(), kept.end(), std::size_t{0});
  std::stable_sort(kept.begin(), kept.end(), [&](std::size_t x, std::size_t y) {
    return std::abs(v.a_strides[x]) < std::abs(v.a_strides[y]);
  });
  DimVector acc_strides(rank, 0);
  std::int64_t outputs = 1;
  for (std::size_t axis : kept) {
    acc_strides[axis] = outputs;
    outputs *= v.shape[axis];
  }
  if (outputs == 0) return;
  std::vector<W> acc(static_cast<std::size_t>(outputs), W(0));

  // The split: the kept axis a steps through slowest (the last of `kept` longer than 1).
  std::size_t split = rank;
  for (auto it = kept.rbegin(); it != kept.rend(); ++it)
    if (v.shape[*it] > 1) {
      split = *it;
      break;
    }
  std::int64_t elements = 1;
  for (std::int64_t e : v.shape) elements *= e;
  const int threads =
      elements >= kParallelElements && split < rank ? cpu_parallel::host_kernel_threads() : 1;

  const auto part = [&](std::int64_t begin, std::int64_t end) {
    DimVector shape(v.shape.begin(), v.shape.end());
    std::array<std::int64_t, 3> base{0, v.a_offset, v.b_offset};
    if (split < rank) {
      shape[split] = end - begin;
      base[0] += begin * acc_strides[split];
      base[1] += begin * v.a_strides[split];
      base[2] += begin * v.b_strides[split];
    }
    LoopNest<3> nest = make_nest<3>(shape, {acc_strides, v.a_strides, v.b_strides}, 1);
    if (nest.empty) return;
    // The innermost axis moves into the kernel and the rest of the nest walks planes (a nest
    // left with no axis is one plane of one row; one with none at all, one element).
    std::int64_t n0 = 1;
    std::array<std::int64_t, 3> step0{};
    if (!nest.extents.empty()) {
      n0 = nest.extents.front();
      nest.extents.erase(nest.extents.begin());
      for (std::size_t k = 0; k < 3; ++k) {
        step0[k] = nest.strides[k].front();
        nest.strides[k].erase(nest.strides[k].begin());
      }
    }
    run_nest(nest, base,
             [&](const std::array<std::int64_t, 3>& at, std::int64_t n1,
                 const std::array<std::int64_t, 3>& step1) {
               multiply_sum_detail::add_plane<T, W>(acc.data(), a, b, at, n0, step0, n1, step1);
             });
  };
  const std::int64_t split_extent = split < rank ? v.shape[split] : 1;
  if (threads > 1 && split_extent > 1) {
    cpu_parallel::parallel_chunks(split_extent, threads, part);
  } else {
    part(0, split_extent);
  }

  // dst = the accumulators (an empty fold leaves them zero, the empty sum).
  const std::span<const std::int64_t> kept_shape = v.shape.first(v.kept_rank);
  const std::span<const std::int64_t> kept_acc(acc_strides.data(), v.kept_rank);
  for_each_strided<2>(
      kept_shape, {v.dst_strides, kept_acc}, {v.dst_offset, 0},
      [&](const std::array<std::int64_t, 2>& o) { dst[o[0]] = static_cast<T>(acc[o[1]]); }, true,
      0);
}

}  // namespace tenferro::cpu_strided
