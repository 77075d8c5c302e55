// The CPU reduction kernel. Each output element walks its reduced sub-tensor in column-major
// order; sums use a wider accumulator (double for F32/C32) and pairwise blocks, so a 10^7-term
// sum loses O(log n) ulps, not O(n).
#include <cmath>
#include <limits>
#include <vector>

#include "ops/prims/cpu/cpu_kernels.hpp"
#include "ops/prims/cpu/element_math.hpp"
#include "ops/prims/cpu/strided_iteration.hpp"

namespace tenferro::prims_cpu {
namespace {

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
  // n contiguous terms term(p[0]) .. term(p[n-1]): whole blocks summed in a tight loop with four
  // independent partial sums (so the loop runs at memory speed), each block pushed as one term.
  template <class T, class Term>
  void add_run(const T* p, std::int64_t n, Term term) {
    std::int64_t i = 0;
    if (in_block_ == 0) {
      for (; i + kBlock <= n; i += kBlock) {
        Acc a0(0), a1(0), a2(0), a3(0);
        for (int j = 0; j < kBlock; j += 4) {
          a0 += term(p[i + j]);
          a1 += term(p[i + j + 1]);
          a2 += term(p[i + j + 2]);
          a3 += term(p[i + j + 3]);
        }
        push((a0 + a1) + (a2 + a3));
      }
    }
    for (; i < n; ++i) add(term(p[i]));
  }
  Acc total() const {
    Acc s = block_;
    for (int k = 0; k < 64; ++k) {
      if ((blocks_ >> k) & 1u) s += levels_[k];
    }
    return s;
  }

 private:
  static constexpr int kBlock = 64;
  void push(Acc s) {
    int k = 0;
    while ((blocks_ >> k) & 1u) {
      s += levels_[k];
      levels_[k] = Acc(0);
      ++k;
    }
    levels_[k] = s;
    ++blocks_;
  }
  Acc block_{0};
  int in_block_ = 0;
  std::uint64_t blocks_ = 0;
  Acc levels_[64]{};
};

template <class T>
using Wide = std::conditional_t<kIsComplex<T>, std::complex<double>, double>;

// Reductions that keep axis 0 while it is contiguous (a sum over the columns of a matrix, say):
// walking each output's reduced elements would stride through memory once per output, so the
// whole run of axis-0 outputs is accumulated together instead, in memory order (vectorisable),
// with partial sums folded every kRowBlock reduced steps to bound the rounding growth.
constexpr std::int64_t kRowBlock = 256;

template <class T, class W, class Step, class Combine, class Finish>
void row_reduce(const ReduceCall& c, Step step, Combine combine, W identity, Finish finish) {
  const TensorLayout& in = c.in.layout;
  const std::int64_t n0 = in.shape[0];
  Shape red_shape, kept_shape;
  Strides red_strides, kept_in_strides, kept_out_strides;
  for (std::size_t i = 1; i < in.shape.size(); ++i) {
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
  const std::int64_t out_stride0 = c.out.layout.strides[0];
  for_each_strided<2>(kept_shape, {kept_in_strides, kept_out_strides},
                      {in.offset, c.out.layout.offset}, [&](const std::array<std::int64_t, 2>& o) {
                        std::vector<W> total(static_cast<std::size_t>(n0), identity);
                        std::vector<W> block(static_cast<std::size_t>(n0), identity);
                        std::int64_t steps = 0;
                        for_each_strided<1>(
                            red_shape, {red_strides}, {o[0]},
                            [&](const std::array<std::int64_t, 1>& r) {
                              const T* row = x + r[0];
                              for (std::int64_t j = 0; j < n0; ++j) {
                                block[static_cast<std::size_t>(j)] =
                                    step(block[static_cast<std::size_t>(j)], row[j]);
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

// The row path for the kinds it serves; false when the generic path must run.
template <class T>
bool try_row_reduce(const ReduceCall& c, std::int64_t count) {
  const TensorLayout& in = c.in.layout;
  if (in.shape.empty() || c.reduced[0] || in.strides[0] != 1 || in.shape[0] < 8 || count < 2) {
    return false;
  }
  using W = Wide<T>;
  const auto store = [](std::byte* out, std::int64_t at, W v) {
    reinterpret_cast<T*>(out)[at] = static_cast<T>(v);
  };
  const auto add = [](W a, W b) { return a + b; };
  switch (c.kind) {
    case PrimKind::Sum:
      row_reduce<T, W>(
          c, [](W a, T v) { return a + static_cast<W>(v); }, add, W(0), store);
      return true;
    case PrimKind::Mean: {
      const double n = static_cast<double>(count);
      row_reduce<T, W>(
          c, [](W a, T v) { return a + static_cast<W>(v); }, add, W(0),
          [n](std::byte* out, std::int64_t at, W v) {
            reinterpret_cast<T*>(out)[at] = static_cast<T>(v / n);
          });
      return true;
    }
    case PrimKind::Prod:
      row_reduce<T, W>(
          c, [](W a, T v) { return a * static_cast<W>(v); }, [](W a, W b) { return a * b; }, W(1),
          store);
      return true;
    case PrimKind::Norm:
      row_reduce<T, double>(
          c,
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
        const auto pick = [is_max](T a, T b) { return is_max ? nan_max(a, b) : nan_min(a, b); };
        // -inf for max, +inf for min: identities that a NaN still overrides.
        const T identity =
            is_max ? -std::numeric_limits<T>::infinity() : std::numeric_limits<T>::infinity();
        row_reduce<T, T>(c, pick, pick, identity, [](std::byte* out, std::int64_t at, T v) {
          reinterpret_cast<T*>(out)[at] = v;
        });
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
        W p(1);
        each([&](T v) { p *= static_cast<W>(v); });
        reinterpret_cast<T*>(out_bytes)[out_offset] = static_cast<T>(p);
        return;
      }
      case PrimKind::Max:
      case PrimKind::Min:
        if constexpr (!kIsComplex<T>) {
          T m = x[base];
          each([&](T v) { m = k == PrimKind::Max ? nan_max(m, v) : nan_min(m, v); });
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
