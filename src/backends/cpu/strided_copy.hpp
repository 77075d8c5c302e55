// The CPU backend's strided copy, under einsum's permuting copies and prims' same-dtype casts
// (contiguous, concatenate): dst = src over one shape, each with its own strides. When the two
// views' fastest axes differ (a transpose), the copy walks 32 x 32 tiles of those two axes, so
// both the reads and the writes stay within a few cache lines per tile. When either view's runs
// are short (permutations of many small axes: hypernetworks' intermediates), it walks blocks of
// two composite axes instead (copy_blocks). Otherwise it copies run by run (memcpy where both
// runs are contiguous). Large copies are split over the host threads.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <numeric>
#include <span>
#include <vector>

#include "backends/cpu/host_parallel.hpp"
#include "backends/cpu/strided_loops.hpp"
#include "tenferro/core/dim_vector.hpp"

namespace tenferro::cpu_strided {

inline constexpr std::int64_t kCopyTile = 32;

// Block sides of copy_blocks, in elements: up to 256 x 64 elements per block (64 KiB of
// float32, within L2 for every dtype).
inline constexpr std::int64_t kBlockDst = 256, kBlockSrc = 64;
// The fewest elements copy_blocks takes on: below, a copy is a few runs and the tables cost
// more than they save.
inline constexpr std::int64_t kMinBlock = 64;

// The offsets of every multi-index of `axes` (first fastest) in both operands of `nest`: up to
// Inline entries on the stack (a copy of a few hundred elements is called hundreds of times by
// one einsum of small tensors), more on the heap (D is one axis longer than kBlockDst).
template <std::size_t Inline>
struct AxisTable {
  SmallVector<std::int64_t, Inline> dst{0}, src{0};

  AxisTable(const LoopNest<2>& nest, std::span<const std::size_t> axes) {
    for (const std::size_t a : axes) {
      const std::size_t n = dst.size();
      for (std::int64_t i = 1; i < nest.extents[a]; ++i)
        for (std::size_t j = 0; j < n; ++j) {
          dst.push_back(dst[j] + i * nest.strides[0][a]);
          src.push_back(src[j] + i * nest.strides[1][a]);
        }
    }
  }
};

// out[i .. i + Run) = in[from[i] .. from[i] + Run) for every Run-th i of `from` (a D table
// whose entries come in runs of Run consecutive offsets): one move of Run elements per run.
template <std::int64_t Run, class T, std::size_t Inline>
void copy_runs(T* out, const T* in, const SmallVector<std::int64_t, Inline>& from) {
  const std::int64_t* f = from.data();
  for (std::size_t i = 0; i < from.size(); i += Run)
    std::memcpy(static_cast<void*>(out + i), in + f[i], Run * sizeof(T));
}

// A permutation with short runs on either side, as hypernetworks' intermediates have (seven
// axes of extents 2-15, the source's fastest one among the destination's slowest): copying run
// by run reads each source cache line once per element, and the 2-D tiles need two axes of 8 or
// more. Instead, two composite axes: D, the destination's fastest axes (product up to
// kBlockDst), and S, the source's fastest among the others (up to kBlockSrc), each flattened
// through an offset table, walked block by block for every index of the remaining (outer) axes
// (none when D and S cover the whole copy: a small one, one block). The writes go along D and
// each block's reads stay within S's few cache lines. Returns false (nothing copied) when the
// layout has no such pair of axes.
template <class T>
bool copy_blocks(const LoopNest<2>& nest, T* dst, const T* src, int threads) {
  const std::size_t rank = nest.extents.size();
  if (rank < 3) return false;
  SmallVector<std::size_t, kNestInline> d_axes{0};
  std::int64_t d_size = nest.extents[0];
  while (d_axes.size() < rank && d_size * nest.extents[d_axes.size()] <= kBlockDst)
    d_size *= nest.extents[d_axes.size()], d_axes.push_back(d_axes.size());
  // The other axes by the source's |stride| (a stable insertion sort: no heap buffer).
  SmallVector<std::size_t, kNestInline> rest;
  for (std::size_t a = d_axes.size(); a < rank; ++a) {
    std::size_t j = rest.size();
    rest.push_back(a);
    for (; j > 0 && std::abs(nest.strides[1][rest[j - 1]]) > std::abs(nest.strides[1][a]); --j)
      rest[j] = rest[j - 1];
    rest[j] = a;
  }
  std::size_t s_count = 0;
  std::int64_t s_size = 1;
  while (s_count < rest.size() && s_size * nest.extents[rest[s_count]] <= kBlockSrc)
    s_size *= nest.extents[rest[s_count++]];
  // No S, or blocks too small to pay for their tables.
  if (s_count == 0 || d_size * s_size < kMinBlock) return false;
  const std::span<const std::size_t> s_axes(rest.data(), s_count);
  const std::span<const std::size_t> outer(rest.data() + s_count, rest.size() - s_count);
  const AxisTable<kBlockDst> td(nest, d_axes);
  const AxisTable<kBlockSrc> ts(nest, s_axes);
  std::int64_t outer_count = 1;
  for (const std::size_t a : outer) outer_count *= nest.extents[a];
  // D dense in the destination (its usual case: einsum copies into compact scratch): the
  // writes are a plain run and only the reads go through a table.
  bool d_dense = true;
  for (std::size_t i = 0; i < td.dst.size() && d_dense; ++i)
    d_dense = td.dst[i] == static_cast<std::int64_t>(i);
  // Axis 0 contiguous on both sides: D's table comes in runs of its extent, each one move.
  const std::int64_t run = nest.strides[0][0] == 1 && nest.strides[1][0] == 1 ? nest.extents[0] : 1;
  const auto items = [&](std::int64_t begin, std::int64_t end) {
    for (std::int64_t w = begin; w < end; ++w) {
      std::int64_t rest_index = w, d = 0, s = 0;
      for (const std::size_t a : outer) {
        const std::int64_t i = rest_index % nest.extents[a];
        rest_index /= nest.extents[a];
        d += i * nest.strides[0][a];
        s += i * nest.strides[1][a];
      }
      for (std::size_t j = 0; j < ts.dst.size(); ++j) {
        T* out = dst + d + ts.dst[j];
        const T* in = src + s + ts.src[j];
        if (d_dense && run == 2) {
          copy_runs<2>(out, in, td.src);
        } else if (d_dense && run == 3) {
          copy_runs<3>(out, in, td.src);
        } else if (d_dense && run == 4) {
          copy_runs<4>(out, in, td.src);
        } else if (d_dense) {
          copy_runs<1>(out, in, td.src);
        } else {
          for (std::size_t i = 0; i < td.dst.size(); ++i) out[td.dst[i]] = in[td.src[i]];
        }
      }
    }
  };
  if (threads > 1 && outer_count > 1) {
    cpu_parallel::parallel_chunks(outer_count, threads, items);
  } else {
    items(0, outer_count);
  }
  return true;
}

// dst[i] = src[i] for every multi-index i of `shape` (offsets already applied to the pointers;
// strides in elements). The views must not overlap.
template <class T>
void copy(std::span<const std::int64_t> shape, T* dst, std::span<const std::int64_t> dst_strides,
          const T* src, std::span<const std::int64_t> src_strides) {
  // Axes ordered by the destination's strides: its fastest axis is innermost.
  const LoopNest<2> nest = make_nest<2>(shape, {dst_strides, src_strides}, 0);
  if (nest.empty) return;
  const std::size_t rank = nest.extents.size();
  std::int64_t total = 1;
  for (const std::int64_t e : nest.extents) total *= e;
  const int threads = total >= kParallelElements ? cpu_parallel::host_kernel_threads() : 1;
  // The axis along which the source is contiguous (smallest non-zero stride).
  std::size_t p = 0;
  for (std::size_t a = 1; a < rank; ++a) {
    const auto sa = std::abs(nest.strides[1][a]);
    if (sa != 0 && (nest.strides[1][p] == 0 || sa < std::abs(nest.strides[1][p]))) p = a;
  }
  // Two axes of 8 or more, fastest in each view: 2-D tiles (below). Otherwise run by run, when
  // both views' runs are that one long axis, or the source repeats one value along the
  // destination's runs (a broadcast: each run is a fill; numpy.repeat's copy took 0.9 ns an
  // element in tiles); blocks of composite axes where runs are short.
  const bool fills = rank > 0 && nest.strides[1][0] == 0 && nest.extents[0] >= 8;
  const bool tiles = !fills && p != 0 && nest.extents[0] >= 8 && nest.extents[p] >= 8;
  const bool long_runs = (p == 0 || fills) && rank > 0 && nest.extents[0] >= 8;
  if (!tiles && !long_runs && copy_blocks(nest, dst, src, threads)) return;
  if (!tiles) {
    const auto runs = [&](std::int64_t begin, std::int64_t end) {
      run_nest_range<2>(nest, {0, 0}, begin, end, [&](auto off, std::int64_t n, auto st) {
        T* dp = dst + off[0];
        const T* sp = src + off[1];
        if (st[0] == 1 && st[1] == 1) {
          std::memcpy(static_cast<void*>(dp), sp, static_cast<std::size_t>(n) * sizeof(T));
        } else if (st[0] == 1 && st[1] == 0) {
          std::fill_n(dp, n, *sp);
        } else if (st[0] == 1 && st[1] == -1) {
          // A reversal (flip): with its strides fixed the loop vectorises (a shuffle per
          // vector); the general loop below took 0.7 ns an element, twice NumPy's flip.
          for (std::int64_t i = 0; i < n; ++i) dp[i] = sp[-i];
        } else {
          for (std::int64_t i = 0; i < n; ++i) dp[i * st[0]] = sp[i * st[1]];
        }
      });
    };
    const std::int64_t count = nest.runs();
    if (threads > 1 && count > 1) {
      cpu_parallel::parallel_chunks(count, threads, runs);
    } else {
      runs(0, count);
    }
    return;
  }
  // Tiles of axes 0 and p, for every index of the other (outer) axes. Work item w is the tile
  // column w % tile_columns of outer index w / tile_columns.
  std::array<DimVector, 2> outer_strides;
  DimVector outer_extents;
  for (std::size_t a = 1; a < rank; ++a) {
    if (a == p) continue;
    outer_extents.push_back(nest.extents[a]);
    outer_strides[0].push_back(nest.strides[0][a]);
    outer_strides[1].push_back(nest.strides[1][a]);
  }
  const std::int64_t n0 = nest.extents[0], np = nest.extents[p];
  const std::int64_t d0 = nest.strides[0][0], dp = nest.strides[0][p];
  const std::int64_t s0 = nest.strides[1][0], sp = nest.strides[1][p];
  const std::int64_t tile_columns = (np + kCopyTile - 1) / kCopyTile;
  std::int64_t outer_count = 1;
  for (const std::int64_t e : outer_extents) outer_count *= e;
  const auto items = [&](std::int64_t begin, std::int64_t end) {
    for (std::int64_t w = begin; w < end; ++w) {
      std::int64_t rest = w / tile_columns, d = 0, s = 0;
      for (std::size_t a = 0; a < outer_extents.size(); ++a) {
        const std::int64_t i = rest % outer_extents[a];
        rest /= outer_extents[a];
        d += i * outer_strides[0][a];
        s += i * outer_strides[1][a];
      }
      const std::int64_t jb = (w % tile_columns) * kCopyTile, je = std::min(np, jb + kCopyTile);
      for (std::int64_t ib = 0; ib < n0; ib += kCopyTile) {
        const std::int64_t ie = std::min(n0, ib + kCopyTile);
        for (std::int64_t j = jb; j < je; ++j)
          for (std::int64_t i = ib; i < ie; ++i)
            dst[d + i * d0 + j * dp] = src[s + i * s0 + j * sp];
      }
    }
  };
  const std::int64_t count = outer_count * tile_columns;
  if (threads > 1 && count > 1) {
    cpu_parallel::parallel_chunks(count, threads, items);
  } else {
    items(0, count);
  }
}

}  // namespace tenferro::cpu_strided
