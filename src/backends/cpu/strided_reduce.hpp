// The CPU backend's reductions over strided views, under prims' sum/mean/norm/prod/max/min and
// einsum's sums over trailing axes: one walk of the folded axes per output, or one pass along
// a kept unit-stride axis for many outputs at once, with the arithmetic handed in as functors.
// Sums of more than kShortSum terms per output fold in a wider accumulator (double for float,
// complex<double> for complex<float>), per output in pairwise blocks or, in the row pass, in
// blocks of kRowBlock terms: a float accumulator adding 2^25 ones stops at 2^24.
#pragma once

#include <algorithm>
#include <array>
#include <complex>
#include <cstddef>
#include <cstdint>
#include <new>
#include <span>
#include <type_traits>

#include "backends/cpu/host_parallel.hpp"
#include "backends/cpu/strided_loops.hpp"
#include "core/real_type.hpp"
#include "tenferro/core/dim_vector.hpp"

namespace tenferro::cpu_strided {

// Cascade summation: blocks of kBlock terms summed directly, block sums combined like a binary
// counter (pairwise), so the error grows with log2(n / kBlock). A block's value depends on its
// terms alone, not on how they arrived: terms added one at a time or in runs that start inside a
// block (a strided view, the rows of a C-ordered array) are staged until the block is whole and
// then summed as a contiguous run's block is, so a view, its contiguous copy and a reshape of it
// give the same bits. The terms of the last, partial block are added in order (total()).
template <class Acc>
class PairwiseSum {
 public:
  static constexpr int kBlock = 256;
  static constexpr int kLanes = 16;
  void add(Acc x) {
    ::new (static_cast<void*>(stage() + in_block_)) Acc(x);
    if (++in_block_ == kBlock) {
      push(block_value(stage(), [](Acc v) { return v; }));
      in_block_ = 0;
    }
  }
  // n contiguous terms term(p[0]) .. term(p[n-1]): a started block completed term by term, then
  // whole blocks of kBlock summed in a tight loop with kLanes independent partial sums (the
  // compiler keeps them in vector registers, so the loop runs at memory speed), combined
  // pairwise and pushed as one term. Each term passes through kBlock / kLanes = 16 serial
  // additions, log2(kLanes) pairwise ones and log2(n / kBlock) levels: the same depth as the
  // former 64-term blocks of 4 partial sums.
  template <class T, class Term>
  void add_run(const T* p, std::int64_t n, Term term) {
    std::int64_t i = 0;
    for (; in_block_ != 0 && i < n; ++i) add(term(p[i]));
    for (; i + kBlock <= n; i += kBlock) push(block_value(p + i, term));
    for (; i < n; ++i) add(term(p[i]));
  }
  // The terms still needed to complete the started block (0 at a block start).
  std::int64_t to_block_end() const { return in_block_ == 0 ? 0 : kBlock - in_block_; }
  // A whole block's value, computed elsewhere as add_run computes it (a vector kernel), pushed
  // as add_run pushes its own: only between blocks (at_block_start()).
  bool at_block_start() const { return in_block_ == 0; }
  void push_block(Acc s) { push(s); }
  // The whole blocks pushed so far.
  std::uint64_t blocks() const { return blocks_; }
  // The value of the 2^level blocks pushed into a sum that held none before (blocks() ==
  // 2^level): the subtree a binary counter builds of them.
  Acc subtree(int level) const { return levels_[level]; }
  // Pushes such a subtree as pushing its 2^level blocks one by one would (the same additions in
  // the same order: the counter's low bits return to zero and the carry enters at `level`). Only
  // at a block start with blocks() a multiple of 2^level: how a long sum is split over threads
  // and still gives the serial sum's bits.
  void push_subtree(Acc s, int level) {
    int k = level;
    while ((blocks_ >> k) & 1u) {
      s += levels_[k];
      ++k;
    }
    levels_[k] = s;
    blocks_ += std::uint64_t{1} << level;
  }
  Acc total() const {
    Acc s(0);
    for (int i = 0; i < in_block_; ++i) s += stage()[i];
    for (int k = 0; k < 64 && (blocks_ >> k) != 0; ++k) {
      if ((blocks_ >> k) & 1u) s += levels_[k];
    }
    return s;
  }

 private:
  // The block of kBlock terms term(p[0]) .. term(p[kBlock - 1]): lane l adds terms l, l + kLanes,
  // ... in order, then the lanes fold pairwise (simd::block_sums computes the same bits).
  template <class T, class Term>
  static Acc block_value(const T* p, Term term) {
    Acc a[kLanes];
    for (int l = 0; l < kLanes; ++l) a[l] = Acc(0);
    for (int j = 0; j < kBlock; j += kLanes) {
      for (int l = 0; l < kLanes; ++l) a[l] += term(p[j + l]);
    }
    for (int w = kLanes / 2; w > 0; w /= 2) {
      for (int l = 0; l < w; ++l) a[l] += a[l + w];
    }
    return a[0];
  }
  void push(Acc s) {
    int k = 0;
    while ((blocks_ >> k) & 1u) {
      s += levels_[k];
      ++k;
    }
    levels_[k] = s;
    ++blocks_;
  }
  // The started block's terms, stage()[0 .. in_block_): raw storage, written before it is read
  // (std::complex's constructor would zero 256 values for every sum, and a reduction to many
  // outputs builds one sum per output).
  Acc* stage() { return std::launder(reinterpret_cast<Acc*>(stage_bytes_)); }
  const Acc* stage() const { return std::launder(reinterpret_cast<const Acc*>(stage_bytes_)); }
  int in_block_ = 0;
  alignas(Acc) unsigned char stage_bytes_[kBlock * sizeof(Acc)];
  std::uint64_t blocks_ = 0;
  // levels_[k] is read only while bit k of blocks_ is set, i.e. after push wrote it: no zeroing
  // (a reduction to many outputs builds one of these per output).
  Acc levels_[64];
};

// The accumulator of a sum of T.
template <class T>
using WideSum = std::conditional_t<kIsComplexType<T>, std::complex<double>, double>;

// A reduction's operands: the input's shape, strides and offset; the output's strides by input
// axis (read on the kept axes only) and offset; which axes are folded. Offsets and strides are
// in elements.
struct ReduceView {
  std::span<const std::int64_t> shape;
  std::span<const std::int64_t> in_strides;
  std::int64_t in_offset = 0;
  std::span<const std::int64_t> out_strides;
  std::int64_t out_offset = 0;
  std::span<const std::uint8_t> reduced;
};

// The folded sub-space (shape and input strides) and the kept space (shape, input and output
// strides); count: the folded elements per output. The kept axes are in axis order; the folded
// ones by increasing |stride|, so an output's elements are walked in memory order (a full sum
// of a C-ordered matrix walked in axis order stepped a row at a time: 19x NumPy's time).
struct ReduceSplit {
  DimVector red_shape, kept_shape;
  DimVector red_strides, kept_in_strides, kept_out_strides;
  std::int64_t count = 1;
};

inline std::int64_t abs_stride(std::int64_t stride) {
  return stride < 0 ? -stride : stride;
}

inline ReduceSplit split_reduction(const ReduceView& v, std::size_t skip_axis = SIZE_MAX) {
  ReduceSplit s;
  for (std::size_t i = 0; i < v.shape.size(); ++i) {
    if (i == skip_axis) continue;
    if (v.reduced[i]) {
      s.red_shape.push_back(v.shape[i]);
      s.red_strides.push_back(v.in_strides[i]);
      s.count *= v.shape[i];
    } else {
      s.kept_shape.push_back(v.shape[i]);
      s.kept_in_strides.push_back(v.in_strides[i]);
      s.kept_out_strides.push_back(v.out_strides[i]);
    }
  }
  // An insertion sort (a few axes; stable, so equal strides keep axis order).
  for (std::size_t i = 1; i < s.red_strides.size(); ++i) {
    for (std::size_t j = i;
         j > 0 && abs_stride(s.red_strides[j]) < abs_stride(s.red_strides[j - 1]); --j) {
      std::swap(s.red_strides[j], s.red_strides[j - 1]);
      std::swap(s.red_shape[j], s.red_shape[j - 1]);
    }
  }
  return s;
}

// The kept axis with unit input stride (and at least `min_extent` long) along which row_reduce
// runs many outputs at once; shape.size() when there is none.
inline std::size_t row_axis(const ReduceView& v, std::int64_t min_extent = 8) {
  for (std::size_t i = 0; i < v.shape.size(); ++i) {
    if (!v.reduced[i] && v.in_strides[i] == 1 && v.shape[i] >= min_extent) return i;
  }
  return v.shape.size();
}

// The walk over one output's folded elements, built once per reduction (a loop nest costs a few
// allocations; an output may fold only a handful of elements): each(x, base, run) calls
// run(p, n) for the folded elements of the output at input offset `base`, in the folded axes'
// order (memory order: split_reduction), as contiguous runs when the first folded axis has unit
// stride and `runs` allows it, one element at a time otherwise (n = 1). Serial: run usually
// accumulates.
class FoldedRuns {
 public:
  explicit FoldedRuns(const ReduceSplit& s, bool runs = true) {
    if (runs && !s.red_strides.empty() && s.red_strides[0] == 1) {
      run_length_ = s.red_shape[0];
      const DimVector outer_shape(s.red_shape.begin() + 1, s.red_shape.end());
      const DimVector outer_strides(s.red_strides.begin() + 1, s.red_strides.end());
      nest_ = make_nest<1>(outer_shape, {outer_strides}, std::nullopt);
    } else {
      nest_ = make_nest<1>(s.red_shape, {s.red_strides}, std::nullopt);
    }
    empty_ = s.count == 0 || nest_.empty;
  }
  template <class T, class Run>
  void each(const T* x, std::int64_t base, Run&& run) const {
    if (empty_) return;
    run_nest_range<1>(nest_, {base}, 0, nest_.runs(),
                      [&](const std::array<std::int64_t, 1>& off, std::int64_t n,
                          const std::array<std::int64_t, 1>& step) {
                        for (std::int64_t k = 0; k < n; ++k)
                          run(x + off[0] + k * step[0], run_length_);
                      });
  }

 private:
  std::int64_t run_length_ = 1;
  LoopNest<1> nest_;
  bool empty_ = false;
};

// Reductions that keep a contiguous axis (a sum over the rows of a matrix, say, whichever axis
// has stride 1): walking each output's reduced elements would stride through memory once per
// output, so a run of outputs along that axis is accumulated together instead, in memory order
// (vectorisable), with partial sums folded every kRowBlock reduced steps to bound the rounding
// growth. `axis` is that kept unit-stride axis (row_axis). The axis is cut into chunks of at
// most kRowChunk outputs, whose accumulators stay in the L1 cache; the chunks of every other
// kept index are the work split over the host threads when the input is large, so a threaded
// pass cuts the axis into at least as many chunks as there are threads. Each output folds its
// elements in the same order whatever the chunking and the threads.
//   step(W, T) -> W folds one element; combine(W, W) -> W folds two partial results;
//   finish(out_offset, W) stores one output; vector_step(W* acc, const T* row, stride, rows, n)
//   -> bool may do acc[j] = step(acc[j], row[r * stride + j]) for r < rows (in order) and j < n
//   itself (true) with the same result. When the folded elements are one axis of positive
//   stride, it gets the rows up to the next partial-sum fold at once, else one row at a time.
inline constexpr std::int64_t kRowBlock = 256;
// 1024 outputs: two 8 KB accumulators (double) in the L1 cache, and rows read 8 KB at a time.
// Chunks of 512 read a 1024-column float64 matrix 4 KB per row, one half after the other, at
// 0.85x the speed (24 against 28 GB/s, one thread, this machine).
inline constexpr std::int64_t kRowChunk = 1024;
// The shortest chunk a threaded pass cuts the axis into.
inline constexpr std::int64_t kRowChunkMin = 128;
// The input size, in bytes, from which the pass is split over the host threads: waking a worker
// costs tens of microseconds on the 2-core CI machine, and the pass moves 8 bytes or fewer per
// element it adds, so two threads share one memory path. float64 sums keeping their rows, one
// thread against two (medians): 300x300 10 against 81 us, 512x512 (2 MiB) 25-31 against 60-81
// us, 1024x1024 (8 MiB) 110-117 against 111-133 us, 2048x2048 (32 MiB) 1902 against 1340-1428
// us.
inline constexpr std::int64_t kRowParallelBytes = std::int64_t{16} << 20;

// The input and output offsets of kept index k (column-major over the split's kept axes).
struct KeptOffsets {
  std::int64_t in = 0, out = 0;
};
inline KeptOffsets kept_offsets(const ReduceView& v, const ReduceSplit& s, std::int64_t k) {
  std::int64_t in_at = v.in_offset, out_at = v.out_offset;
  for (std::size_t a = 0; a < s.kept_shape.size(); ++a) {
    const std::int64_t i = k % s.kept_shape[a];
    k /= s.kept_shape[a];
    in_at += i * s.kept_in_strides[a];
    out_at += i * s.kept_out_strides[a];
  }
  return {in_at, out_at};
}

template <class T, class W, class Step, class Combine, class Finish, class VectorStep>
void row_reduce(const T* x, const ReduceView& v, std::size_t axis, Step step, Combine combine,
                W identity, Finish finish, VectorStep vector_step) {
  const std::int64_t n0 = v.shape[axis];
  const ReduceSplit s = split_reduction(v, axis);
  const std::int64_t out_stride0 = v.out_strides[axis];
  // The rows: every folded index, one at a time (the rows are the unit of the pass).
  const FoldedRuns rows(s, /*runs=*/false);
  // One folded axis walked forwards: its rows are x + r * stride, and the kernel may take many.
  const bool one_strided_axis = s.red_shape.size() == 1 && s.red_strides[0] > 0;
  std::int64_t outer = 1;
  for (const std::int64_t e : s.kept_shape) outer *= e;
  std::int64_t elements = n0 * outer;
  for (const std::int64_t e : s.red_shape) elements *= e;
  const int threads = elements * static_cast<std::int64_t>(sizeof(T)) >= kRowParallelBytes
                          ? cpu_parallel::host_kernel_threads()
                          : 1;
  std::int64_t chunk = kRowChunk;
  if (threads > outer) {  // too few other kept indices to give every thread one
    const std::int64_t per_index = (threads + outer - 1) / outer;
    chunk = std::clamp((n0 + per_index - 1) / per_index, kRowChunkMin, kRowChunk);
  }
  const std::int64_t chunks = (n0 + chunk - 1) / chunk;
  const auto items = [&](std::int64_t begin, std::int64_t end) {
    W total[kRowChunk];
    W block[kRowChunk];
    for (std::int64_t w = begin; w < end; ++w) {
      // The kept index w / chunks (column-major over the other kept axes) and chunk w % chunks.
      const KeptOffsets kept = kept_offsets(v, s, w / chunks);
      const std::int64_t in_at = kept.in, out_at = kept.out;
      const std::int64_t j0 = (w % chunks) * chunk, len = std::min(chunk, n0 - j0);
      for (std::int64_t j = 0; j < len; ++j) total[j] = block[j] = identity;
      std::int64_t steps = 0;
      // `count` rows from `row` on (`stride` apart) into the block, then the fold of the block
      // into the total after every kRowBlock rows.
      const auto add_rows = [&](const T* row, std::int64_t stride, std::int64_t count) {
        if (!vector_step(block, row, stride, count, len)) {
          for (std::int64_t r = 0; r < count; ++r)
            for (std::int64_t j = 0; j < len; ++j) block[j] = step(block[j], row[r * stride + j]);
        }
        steps += count;
        if (steps == kRowBlock) {
          for (std::int64_t j = 0; j < len; ++j) {
            total[j] = combine(total[j], block[j]);
            block[j] = identity;
          }
          steps = 0;
        }
      };
      if (one_strided_axis) {
        const std::int64_t n_rows = s.red_shape[0], stride = s.red_strides[0];
        for (std::int64_t r = 0; r < n_rows;) {
          const std::int64_t count = std::min(kRowBlock - steps, n_rows - r);
          add_rows(x + in_at + j0 + r * stride, stride, count);
          r += count;
        }
      } else {
        rows.each(x, in_at + j0, [&](const T* row, std::int64_t) { add_rows(row, 0, 1); });
      }
      for (std::int64_t j = 0; j < len; ++j) {
        finish(out_at + (j0 + j) * out_stride0, combine(total[j], block[j]));
      }
    }
  };
  const std::int64_t count = outer * chunks;
  if (threads > 1 && count > 1) {
    cpu_parallel::parallel_chunks(count, threads, items);
  } else {
    items(0, count);
  }
}

// Calls per_output(input_base, output_offset) for every output; the outputs are split over the
// host threads when the input is large.
template <class PerOutput>
void for_each_output(const ReduceView& v, const ReduceSplit& s, PerOutput&& per_output) {
  for_each_strided<2>(s.kept_shape, {s.kept_in_strides, s.kept_out_strides},
                      {v.in_offset, v.out_offset},
                      [&](const std::array<std::int64_t, 2>& o) { per_output(o[0], o[1]); });
}

// A ReduceView with extent-1 axes dropped and neighbouring axes fused where the input and (on
// kept axes) the output step through them as through one axis, and both are kept or both
// folded. Each output then folds the same elements in the same column-major order, in longer
// runs: a sum over the trailing axes of a compact tensor becomes one kept and one folded axis.
struct CoalescedReduce {
  DimVector shape, in_strides, out_strides;
  SmallVector<std::uint8_t, 16> reduced;
  ReduceView view(std::int64_t in_offset, std::int64_t out_offset) const {
    return {shape, in_strides, in_offset, out_strides, out_offset, reduced};
  }
};

inline CoalescedReduce coalesce(const ReduceView& v) {
  CoalescedReduce c;
  for (std::size_t a = 0; a < v.shape.size(); ++a) {
    if (v.shape[a] == 1) continue;
    const bool folded = v.reduced[a] != 0;
    const std::size_t last = c.shape.size() - 1;
    if (!c.shape.empty() && (c.reduced[last] != 0) == folded &&
        v.in_strides[a] == c.in_strides[last] * c.shape[last] &&
        (folded || v.out_strides[a] == c.out_strides[last] * c.shape[last])) {
      c.shape[last] *= v.shape[a];
      continue;
    }
    c.shape.push_back(v.shape[a]);
    c.in_strides.push_back(v.in_strides[a]);
    c.out_strides.push_back(folded ? 0 : v.out_strides[a]);
    c.reduced.push_back(folded ? 1 : 0);
  }
  return c;
}

// Up to this many terms per output, sum() adds whole slices in the element type.
inline constexpr std::int64_t kShortSum = 16;

// out = the sum of x over the folded axes: in WideSum<T> and pairwise, but for at most
// kShortSum terms per output; every output written (an empty sum is zero).
template <class T>
void sum(const T* x, T* out, const ReduceView& view) {
  using W = WideSum<T>;
  const auto add = [](W a, W b) { return a + b; };
  const auto store = [out](std::int64_t at, W value) { out[at] = static_cast<T>(value); };
  const CoalescedReduce coalesced = coalesce(view);
  const ReduceView v = coalesced.view(view.in_offset, view.out_offset);
  const ReduceSplit s = split_reduction(v);
  if (s.count >= 1 && s.count <= kShortSum) {
    // A few terms per output (a trace of a 2 x 2 block, a sum over a short axis): one pass over
    // the input in its memory order, adding each element into its output in the element type
    // (count - 1 roundings per output). Serial: several runs add into one output.
    for_each_strided<1>(
        s.kept_shape, {s.kept_out_strides}, {v.out_offset},
        [&](const std::array<std::int64_t, 1>& o) { out[o[0]] = T{}; }, true, 0);
    for_each_strided<2>(
        v.shape, {v.in_strides, v.out_strides}, {v.in_offset, v.out_offset},
        [&](const std::array<std::int64_t, 2>& o) { out[o[1]] += x[o[0]]; }, false, 0);
    return;
  }
  // Even two outputs side by side read memory better by rows than each output on its own
  // (which steps through the input element by element).
  if (const std::size_t axis = row_axis(v, 2); axis < v.shape.size()) {
    row_reduce<T, W>(
        x, v, axis, [](W a, T e) { return a + static_cast<W>(e); }, add, W(0), store,
        [](W*, const T*, std::int64_t, std::int64_t, std::int64_t) { return false; });
    return;
  }
  const FoldedRuns folded(s);
  for_each_output(v, s, [&](std::int64_t base, std::int64_t at) {
    PairwiseSum<W> total;
    folded.each(x, base, [&](const T* p, std::int64_t n) {
      total.add_run(p, n, [](T e) { return static_cast<W>(e); });
    });
    store(at, total.total());
  });
}

}  // namespace tenferro::cpu_strided
