// The CPU reduction kernel. Each output element walks its reduced sub-tensor in column-major
// order; sums use a wider accumulator (double for F32/C32) and pairwise blocks, so a 10^7-term
// sum loses O(log n) ulps, not O(n).
#include <cmath>
#include <limits>
#include <optional>
#include <type_traits>
#include <vector>

#include "backends/cpu/strided_loops.hpp"
#include "ops/prims/cpu/cpu_kernels.hpp"
#include "ops/prims/cpu/element_math.hpp"
#include "ops/prims/cpu/simd/simd_ops.hpp"

namespace tenferro::prims_cpu {
namespace {

using cpu_strided::for_each_strided;

using prims_internal::PrimKind;
using prims_internal::ReduceCall;

// Cascade summation: blocks of kBlock terms summed directly, block sums combined like a binary
// counter (pairwise), so the error grows with log2(n / kBlock).
template <class Acc>
class PairwiseSum {
 public:
  void add(Acc x) {
    block_ += x;
    if (++in_block_ == kBlock) {
      push(block_);
      block_ = Acc(0);
      in_block_ = 0;
    }
  }
  // n contiguous terms term(p[0]) .. term(p[n-1]): whole blocks of kBlock summed in a tight loop
  // with kLanes independent partial sums (the compiler keeps them in vector registers, so the
  // loop runs at memory speed), combined pairwise and pushed as one term. Each term passes
  // through kBlock / kLanes = 16 serial additions, log2(kLanes) pairwise ones and
  // log2(n / kBlock) levels: the same depth as the former 64-term blocks of 4 partial sums.
  template <class T, class Term>
  void add_run(const T* p, std::int64_t n, Term term) {
    std::int64_t i = 0;
    if (in_block_ == 0) {
      for (; i + kBlock <= n; i += kBlock) {
        Acc a[kLanes];
        for (int l = 0; l < kLanes; ++l) a[l] = Acc(0);
        for (int j = 0; j < kBlock; j += kLanes) {
          for (int l = 0; l < kLanes; ++l) a[l] += term(p[i + j + l]);
        }
        for (int w = kLanes / 2; w > 0; w /= 2) {
          for (int l = 0; l < w; ++l) a[l] += a[l + w];
        }
        push(a[0]);
      }
    }
    for (; i < n; ++i) add(term(p[i]));
  }
  Acc total() const {
    Acc s = block_;
    for (int k = 0; k < 64 && (blocks_ >> k) != 0; ++k) {
      if ((blocks_ >> k) & 1u) s += levels_[k];
    }
    return s;
  }

 private:
  static constexpr int kBlock = 256;
  static constexpr int kLanes = 16;
  void push(Acc s) {
    int k = 0;
    while ((blocks_ >> k) & 1u) {
      s += levels_[k];
      ++k;
    }
    levels_[k] = s;
    ++blocks_;
  }
  Acc block_{0};
  int in_block_ = 0;
  std::uint64_t blocks_ = 0;
  // levels_[k] is read only while bit k of blocks_ is set, i.e. after push wrote it: no zeroing
  // (a reduction to many outputs builds one of these per output).
  Acc levels_[64];
};

template <class T>
using Wide = std::conditional_t<kIsComplex<T>, std::complex<double>, double>;

// Reductions that keep a contiguous axis (a sum over the rows of a matrix, say, whichever axis
// has stride 1): walking each output's reduced elements would stride through memory once per
// output, so the whole run of outputs along that axis is accumulated together instead, in
// memory order (vectorisable), with partial sums folded every kRowBlock reduced steps to bound
// the rounding growth. `axis` is that kept unit-stride axis.
constexpr std::int64_t kRowBlock = 256;

// bl[j] = op(bl[j], row[j]) by the SIMD kernels when the accumulator has the element type (an
// F64 sum, any real max/min) and `op` is the step: the same IEEE operation per element, so the
// same result as the scalar step, two to four times wider than the baseline SSE2 loop.
template <class W, class T>
bool row_step(std::optional<simd::Op> op, W* bl, const T* row, std::int64_t n) {
  if constexpr (std::is_same_v<W, T> && (std::is_same_v<T, float> || std::is_same_v<T, double>)) {
    const simd::Isa isa = simd::best_isa();
    return op && isa != simd::Isa::None && simd::binary(isa, *op, bl, row, bl, n);
  } else {
    return false;
  }
}

template <class T, class W, class Step, class Combine, class Finish>
void row_reduce(const ReduceCall& c, std::size_t axis, Step step, Combine combine, W identity,
                Finish finish, std::optional<simd::Op> vector_step = std::nullopt) {
  const TensorLayout& in = c.in.layout;
  const std::int64_t n0 = in.shape[axis];
  Shape red_shape, kept_shape;
  Strides red_strides, kept_in_strides, kept_out_strides;
  for (std::size_t i = 0; i < in.shape.size(); ++i) {
    if (i == axis) continue;
    if (c.reduced[i]) {
      red_shape.push_back(in.shape[i]);
      red_strides.push_back(in.strides[i]);
    } else {
      kept_shape.push_back(in.shape[i]);
      kept_in_strides.push_back(in.strides[i]);
      kept_out_strides.push_back(c.out.layout.strides[i]);
    }
  }
  const T* x = reinterpret_cast<const T*>(c.in.buffer->host_data());
  std::byte* out_bytes = c.out.buffer->host_data();
  const std::int64_t out_stride0 = c.out.layout.strides[axis];
  for_each_strided<2>(kept_shape, {kept_in_strides, kept_out_strides},
                      {in.offset, c.out.layout.offset}, [&](const std::array<std::int64_t, 2>& o) {
                        std::vector<W> total(static_cast<std::size_t>(n0), identity);
                        std::vector<W> block(static_cast<std::size_t>(n0), identity);
                        W* const bl = block.data();
                        std::int64_t steps = 0;
                        for_each_strided<1>(
                            red_shape, {red_strides}, {o[0]},
                            [&](const std::array<std::int64_t, 1>& r) {
                              const T* row = x + r[0];
                              if (!row_step(vector_step, bl, row, n0)) {
                                for (std::int64_t j = 0; j < n0; ++j) bl[j] = step(bl[j], row[j]);
                              }
                              if (++steps == kRowBlock) {
                                for (std::int64_t j = 0; j < n0; ++j) {
                                  const auto k = static_cast<std::size_t>(j);
                                  total[k] = combine(total[k], block[k]);
                                  block[k] = identity;
                                }
                                steps = 0;
                              }
                            },
                            /*parallel=*/false);
                        for (std::int64_t j = 0; j < n0; ++j) {
                          const auto k = static_cast<std::size_t>(j);
                          finish(out_bytes, o[1] + j * out_stride0, combine(total[k], block[k]));
                        }
                      });
}

// nan_max/nan_min in a form the compiler vectorises (two compares and a select): v replaces a
// when it is larger (smaller) or a NaN; a NaN accumulator stays (no compare with it is true);
// equal values keep a, so the first of equal values (-0 before +0, say) wins as in the serial
// rule.
template <class R>
R pick_max(R a, R v) {
  return ((a < v) | (v != v)) ? v : a;
}
template <class R>
R pick_min(R a, R v) {
  return ((v < a) | (v != v)) ? v : a;
}

// The row path for the kinds it serves; false when the generic path must run.
template <class T>
bool try_row_reduce(const ReduceCall& c, std::int64_t count) {
  const TensorLayout& in = c.in.layout;
  std::size_t axis = in.shape.size();
  for (std::size_t i = 0; i < in.shape.size(); ++i) {
    if (!c.reduced[i] && in.strides[i] == 1 && in.shape[i] >= 8) {
      axis = i;
      break;
    }
  }
  if (axis == in.shape.size() || count < 2) return false;
  using W = Wide<T>;
  const auto store = [](std::byte* out, std::int64_t at, W v) {
    reinterpret_cast<T*>(out)[at] = static_cast<T>(v);
  };
  const auto add = [](W a, W b) { return a + b; };
  switch (c.kind) {
    case PrimKind::Sum:
      row_reduce<T, W>(
          c, axis, [](W a, T v) { return a + static_cast<W>(v); }, add, W(0), store, simd::Op::Add);
      return true;
    case PrimKind::Mean: {
      const double n = static_cast<double>(count);
      row_reduce<T, W>(
          c, axis, [](W a, T v) { return a + static_cast<W>(v); }, add, W(0),
          [n](std::byte* out, std::int64_t at, W v) {
            reinterpret_cast<T*>(out)[at] = static_cast<T>(v / n);
          },
          simd::Op::Add);
      return true;
    }
    case PrimKind::Prod:
      row_reduce<T, W>(
          c, axis, [](W a, T v) { return a * static_cast<W>(v); }, [](W a, W b) { return a * b; },
          W(1), store);
      return true;
    case PrimKind::Norm:
      row_reduce<T, double>(
          c, axis,
          [](double a, T v) {
            if constexpr (kIsComplex<T>) {
              return a + static_cast<double>(v.real()) * v.real() +
                     static_cast<double>(v.imag()) * v.imag();
            } else {
              return a + static_cast<double>(v) * v;
            }
          },
          [](double a, double b) { return a + b; }, 0.0,
          [](std::byte* out, std::int64_t at, double v) {
            reinterpret_cast<Real<T>*>(out)[at] = static_cast<Real<T>>(std::sqrt(v));
          });
      return true;
    case PrimKind::Max:
    case PrimKind::Min:
      if constexpr (!kIsComplex<T>) {
        const bool is_max = c.kind == PrimKind::Max;
        // -inf for max, +inf for min: identities that a NaN still overrides.
        const T identity =
            is_max ? -std::numeric_limits<T>::infinity() : std::numeric_limits<T>::infinity();
        const auto store = [](std::byte* out, std::int64_t at, T v) {
          reinterpret_cast<T*>(out)[at] = v;
        };
        const auto max = [](T a, T v) { return pick_max(a, v); };
        const auto min = [](T a, T v) { return pick_min(a, v); };
        if (is_max) {
          row_reduce<T, T>(c, axis, max, max, identity, store, simd::Op::Maximum);
        } else {
          row_reduce<T, T>(c, axis, min, min, identity, store, simd::Op::Minimum);
        }
        return true;
      }
      return false;
    default:
      return false;
  }
}

template <class T>
void run_typed(const ReduceCall& c) {
  const TensorLayout& in = c.in.layout;
  const std::size_t rank = in.shape.size();
  // The reduced sub-space (shape and strides) and the kept space walked by the outer loop.
  Shape red_shape, kept_shape;
  Strides red_strides, kept_in_strides, kept_out_strides;
  std::int64_t count = 1;
  for (std::size_t i = 0; i < rank; ++i) {
    if (c.reduced[i]) {
      red_shape.push_back(in.shape[i]);
      red_strides.push_back(in.strides[i]);
      count *= in.shape[i];
    } else {
      kept_shape.push_back(in.shape[i]);
      kept_in_strides.push_back(in.strides[i]);
      kept_out_strides.push_back(c.out.layout.strides[i]);
    }
  }
  if (try_row_reduce<T>(c, count)) return;
  const T* x = reinterpret_cast<const T*>(c.in.buffer->host_data());
  std::byte* out_bytes = c.out.buffer->host_data();
  const PrimKind k = c.kind;
  // Reductions over each kept index run serially inside; the kept space is split over threads.
  const auto reduce_one = [&](std::int64_t base, std::int64_t out_offset) {
    const auto each = [&](auto&& f) {
      if (count == 0) return;
      // Serial: f accumulates into one accumulator.
      for_each_strided<1>(
          red_shape, {red_strides}, {base},
          [&](const std::array<std::int64_t, 1>& o) { f(x[o[0]]); }, /*parallel=*/false);
    };
    // The same walk by contiguous runs when the first reduced axis has stride 1.
    const auto each_run = [&](auto&& run) {
      if (count == 0) return;
      if (red_strides.empty() || red_strides[0] != 1) {
        each([&](const T& v) { run(&v, 1); });
        return;
      }
      const std::int64_t len = red_shape[0];
      Shape outer_shape(red_shape.begin() + 1, red_shape.end());
      Strides outer_strides(red_strides.begin() + 1, red_strides.end());
      for_each_strided<1>(
          outer_shape, {outer_strides}, {base},
          [&](const std::array<std::int64_t, 1>& o) { run(x + o[0], len); }, /*parallel=*/false);
    };
    using W = Wide<T>;
    switch (k) {
      case PrimKind::Sum:
      case PrimKind::Mean: {
        PairwiseSum<W> s;
        each_run([&](const T* p, std::int64_t n) {
          s.add_run(p, n, [](T v) { return static_cast<W>(v); });
        });
        W total = s.total();
        if (k == PrimKind::Mean) total /= static_cast<double>(count);
        reinterpret_cast<T*>(out_bytes)[out_offset] = static_cast<T>(total);
        return;
      }
      case PrimKind::Norm: {
        PairwiseSum<double> s;
        each_run([&](const T* p, std::int64_t n) {
          s.add_run(p, n, [](T v) {
            if constexpr (kIsComplex<T>) {
              return static_cast<double>(v.real()) * v.real() +
                     static_cast<double>(v.imag()) * v.imag();
            } else {
              return static_cast<double>(v) * v;
            }
          });
        });
        reinterpret_cast<Real<T>*>(out_bytes)[out_offset] =
            static_cast<Real<T>>(std::sqrt(s.total()));
        return;
      }
      case PrimKind::Prod: {
        // Eight partial products over contiguous runs (one serial multiply chain runs at the
        // multiplier's latency, not its throughput); the same n - 1 roundings as in order.
        W lanes[8];
        for (W& l : lanes) l = W(1);
        each_run([&](const T* p, std::int64_t n) {
          W acc[8];
          for (int l = 0; l < 8; ++l) acc[l] = lanes[l];
          std::int64_t i = 0;
          for (; i + 8 <= n; i += 8) {
            for (int l = 0; l < 8; ++l) acc[l] *= static_cast<W>(p[i + l]);
          }
          for (; i < n; ++i) acc[0] *= static_cast<W>(p[i]);
          for (int l = 0; l < 8; ++l) lanes[l] = acc[l];
        });
        const W prod = ((lanes[0] * lanes[1]) * (lanes[2] * lanes[3])) *
                       ((lanes[4] * lanes[5]) * (lanes[6] * lanes[7]));
        reinterpret_cast<T*>(out_bytes)[out_offset] = static_cast<T>(prod);
        return;
      }
      case PrimKind::Max:
      case PrimKind::Min:
        if constexpr (!kIsComplex<T>) {
          const bool is_max = k == PrimKind::Max;
          T m = x[base];
          if (!red_strides.empty() && red_strides[0] == 1 && simd::best_isa() != simd::Isa::None) {
            // Contiguous runs: kReduceLanes running maxima kept by the SIMD kernel
            // (nan_max/nan_min lane by lane, NaN-exact), each run's tail and the lanes then
            // folded by the serial rule. Which of -0 and +0 a lane keeps depends on
            // the lane split, so a zero result is recomputed by the serial rule below (rare).
            T lanes[simd::kReduceLanes];
            for (T& l : lanes) l = m;
            const simd::Op op = is_max ? simd::Op::Maximum : simd::Op::Minimum;
            const simd::Isa isa = simd::best_isa();
            each_run([&](const T* p, std::int64_t n) {
              simd::reduce_lanes(isa, op, p, n, lanes);
              for (std::int64_t i = n - n % simd::kReduceLanes; i < n; ++i) {
                lanes[0] = is_max ? nan_max(lanes[0], p[i]) : nan_min(lanes[0], p[i]);
              }
            });
            for (const T l : lanes) m = is_max ? nan_max(m, l) : nan_min(m, l);
            if (m != 0) {
              reinterpret_cast<T*>(out_bytes)[out_offset] = m;
              return;
            }
            m = x[base];
          }
          each([&](T v) { m = is_max ? nan_max(m, v) : nan_min(m, v); });
          reinterpret_cast<T*>(out_bytes)[out_offset] = m;
          return;
        }
        break;
      default:
        break;
    }
    throw_error(ErrorKind::RuntimeState, ErrorPhase::Execute,
                std::string(prims_internal::prim_name(k)),
                "no CPU reduction for this kind and dtype");
  };
  // The kept space: one output element each. Parallel when the whole input is large.
  for_each_strided<2>(kept_shape, {kept_in_strides, kept_out_strides},
                      {in.offset, c.out.layout.offset},
                      [&](const std::array<std::int64_t, 2>& o) { reduce_one(o[0], o[1]); });
}

}  // namespace

void reduce(const ExecutionContext&, const ReduceCall& call) {
  count_cpu_kernel_launch();
  visit_dtype(call.in.layout.dtype, [&](auto tag) { run_typed<decltype(tag)>(call); });
}

}  // namespace tenferro::prims_cpu
