// The CPU reduction kernel, on the backend's strided reductions (backends/cpu/strided_reduce.hpp):
// each output element walks its reduced sub-tensor in memory order, or the outputs along
// a kept unit-stride axis are accumulated together; sums use a wider accumulator (double for
// F32/C32) and pairwise blocks, so a 10^7-term sum loses O(log n) ulps, not O(n).
#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <optional>
#include <type_traits>

#include "backends/cpu/strided_reduce.hpp"
#include "ops/prims/cpu/cpu_kernels.hpp"
#include "ops/prims/cpu/element_math.hpp"
#include "ops/prims/cpu/simd/simd_ops.hpp"

namespace tenferro::prims_cpu {
namespace {

using prims_internal::PrimKind;
using prims_internal::ReduceCall;

using cpu_strided::PairwiseSum;
using cpu_strided::ReduceSplit;
using cpu_strided::ReduceView;

template <class T>
using Wide = cpu_strided::WideSum<T>;

// The layer's view of a reduction call.
ReduceView view_of(const ReduceCall& c) {
  const TensorLayout& in = c.in.layout;
  return {in.shape,
          in.strides,
          in.offset,
          c.out.layout.strides,
          c.out.layout.offset,
          std::span<const std::uint8_t>(c.reduced.data(), in.shape.size())};
}

// bl[j] = op(bl[j], row[r * stride + j]) one row at a time; false (nothing done) when the
// kernel does not run `op`, which the first row decides for all (rows >= 1).
template <class T>
bool binary_rows(simd::Isa isa, simd::Op op, T* bl, const T* row, std::int64_t stride,
                 std::int64_t rows, std::int64_t n) {
  if (!simd::binary(isa, op, bl, row, bl, n)) return false;
  for (std::int64_t r = 1; r < rows; ++r) simd::binary(isa, op, bl, row + r * stride, bl, n);
  return true;
}

// bl[j] = op(bl[j], row[r * stride + j]) for `rows` rows by the SIMD kernels when the
// accumulator has the element type (an F64 sum, any real max/min) and `op` is the step, or is an
// F32 sum's double (the element widened, then added), or `op` is Norm (the element's square in
// double added): the same IEEE operations per element, so the same result as the scalar step.
// Sums and norms take all the rows in one call, their accumulators in registers
// (simd::add_rows): with the scalar widening step a float32 mean over the rows of a 1024^2
// matrix ran at 0.37x NumPy's time, with a vector step per row at 0.65x.
template <class W, class T>
auto simd_row_step(std::optional<simd::Op> op) {
  if constexpr (std::is_same_v<W, double> &&
                (std::is_same_v<T, float> || std::is_same_v<T, double>)) {
    return [op](W* bl, const T* row, std::int64_t stride, std::int64_t rows, std::int64_t n) {
      const simd::Isa isa = simd::best_isa();
      if (!op || isa == simd::Isa::None) return false;
      if (*op == simd::Op::Norm || *op == simd::Op::Add) {
        const simd::SumKind kind =
            *op == simd::Op::Norm ? simd::SumKind::Squares : simd::SumKind::Values;
        return simd::add_rows(isa, bl, row, stride, rows, n, kind);
      }
      if constexpr (std::is_same_v<T, float>) {
        return false;
      } else {
        return binary_rows(isa, *op, bl, row, stride, rows, n);
      }
    };
  } else if constexpr (std::is_same_v<W, float> && std::is_same_v<T, float>) {
    return [op](W* bl, const T* row, std::int64_t stride, std::int64_t rows, std::int64_t n) {
      const simd::Isa isa = simd::best_isa();
      return op && isa != simd::Isa::None && binary_rows(isa, *op, bl, row, stride, rows, n);
    };
  } else {
    (void)op;  // the accumulator is wider than the elements: the scalar step runs
    return [](W*, const T*, std::int64_t, std::int64_t, std::int64_t) { return false; };
  }
}

// n contiguous terms into s: whole blocks by the vector kernel, which computes add_run's own
// block values bit for bit (each block's 16 lanes in the same order), at the vector width (the
// baseline loop ran in SSE2 registers: a float32 norm took three times NumPy's sdot); the rest
// by add_run. `kind` says what `term` computes of an element (simd_ops.hpp's SumKind).
template <class T, class Term>
void add_terms_serial(PairwiseSum<double>& s, const T* p, std::int64_t n, simd::SumKind kind,
                      Term term) {
  static_assert(PairwiseSum<double>::kBlock == simd::kSumBlock &&
                PairwiseSum<double>::kLanes == simd::kSumLanes);
  simd::Isa isa = simd::best_isa();
  // float32 squares widened into FMAs: AVX2's form on a CPU that halves AVX-512 (cpu_isa.hpp);
  // both kernels give add_run's bits.
  if (std::is_same_v<T, float> && kind == simd::SumKind::Squares && isa == simd::Isa::Avx512 &&
      cpu_isa::avx512_in_halves()) {
    isa = simd::Isa::Avx2;
  }
  // A block that earlier runs started is completed term by term (add_run stages it); the whole
  // blocks after it go to the vector kernel.
  const std::int64_t started = std::min(n, s.to_block_end());
  s.add_run(p, started, term);
  p += started;
  n -= started;
  if (isa != simd::Isa::None && s.at_block_start()) {
    constexpr std::int64_t kChunk = 64;  // block values per kernel call
    double sums[kChunk];
    while (n >= simd::kSumBlock) {
      const std::int64_t blocks = std::min(n / simd::kSumBlock, kChunk);
      if (!simd::block_sums(isa, reinterpret_cast<const Real<T>*>(p), blocks, sums, kind)) break;
      for (std::int64_t b = 0; b < blocks; ++b) s.push_block(sums[b]);
      p += blocks * simd::kSumBlock;
      n -= blocks * simd::kSumBlock;
    }
  }
  s.add_run(p, n, term);
}

// The same over the host threads when the run is long and s holds nothing yet: aligned parts of
// 2^kPartLevel blocks each summed on their own, their subtrees then pushed in order
// (PairwiseSum::push_subtree), so the result has the serial sum's bits for any thread count. A
// float64 norm of 2^20 values ran on one thread while NumPy's ddot ran on two (0.46x).
template <class T, class Term>
void add_terms(PairwiseSum<double>& s, const T* p, std::int64_t n, simd::SumKind kind, Term term) {
  constexpr int kPartLevel = 8;  // parts of 256 blocks: 65536 terms
  constexpr std::int64_t kPart = simd::kSumBlock << kPartLevel;
  // From 4 MiB of input: on the 2-core Zen 4 VM two threads took a float64 norm of 2^20 values
  // from 108 to 80 us and a sum from 93 to 52 us, but gained nothing at 2^18 (2 MiB).
  constexpr std::int64_t kSplitBytes = std::int64_t{4} << 20;
  const int threads = cpu_parallel::host_kernel_threads();
  const std::int64_t parts = n / kPart;
  if (threads < 2 || parts < 2 || s.blocks() != 0 || !s.at_block_start() ||
      n * static_cast<std::int64_t>(sizeof(T)) < kSplitBytes || cpu_parallel::in_parallel_part())
    return add_terms_serial(s, p, n, kind, term);
  SmallVector<double, 64> subtrees(static_cast<std::size_t>(parts));
  cpu_parallel::parallel_chunks(parts, threads, [&](std::int64_t begin, std::int64_t end) {
    for (std::int64_t i = begin; i < end; ++i) {
      PairwiseSum<double> part;
      add_terms_serial(part, p + i * kPart, kPart, kind, term);
      subtrees[static_cast<std::size_t>(i)] = part.subtree(kPartLevel);
    }
  });
  for (const double v : subtrees) s.push_subtree(v, kPartLevel);
  add_terms_serial(s, p + parts * kPart, n - parts * kPart, kind, term);
}

template <class T, class W, class Step, class Combine, class Finish>
void row_reduce(const ReduceCall& c, std::size_t axis, Step step, Combine combine, W identity,
                Finish finish, std::optional<simd::Op> vector_step = std::nullopt) {
  std::byte* out_bytes = c.out.buffer->host_data();
  cpu_strided::row_reduce<T, W>(
      reinterpret_cast<const T*>(c.in.buffer->host_data()), view_of(c), axis, step, combine,
      identity, [&](std::int64_t at, W v) { finish(out_bytes, at, v); },
      simd_row_step<W, T>(vector_step));
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
  const std::size_t axis = cpu_strided::row_axis(view_of(c));
  if (axis == c.in.layout.shape.size() || count < 2) return false;
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
              // |v|^2 first, then the sum: the per-output path's term (a + re^2 + im^2 would add
              // the parts one at a time).
              return a + (static_cast<double>(v.real()) * v.real() +
                          static_cast<double>(v.imag()) * v.imag());
            } else {
              return a + static_cast<double>(v) * v;
            }
          },
          [](double a, double b) { return a + b; }, 0.0,
          [](std::byte* out, std::int64_t at, double v) {
            reinterpret_cast<Real<T>*>(out)[at] = static_cast<Real<T>>(std::sqrt(v));
          },
          simd::Op::Norm);
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

// A float64 or complex128 norm whose sum of squares overflowed (inf from finite parts), or that
// is below 2^-484 with a nonzero part under 2^-511 (whose square lost bits in the subnormal
// range, or vanished), is computed again with every part scaled by the power of two that brings
// the largest near 1, as LAPACK's nrm2 scales: sqrt(sum (x / 2^e)^2) * 2^e. Only outputs that
// were wrong change: (1e200, 1e200) gave inf and (1e-200, 1e-200) gave 0 (an adversarial
// review); a small norm whose squares all stayed normal keeps its bits, also the row pass's
// grouping of them (a second review: rescaling those too changed them). float32 and complex64
// squares never leave float64's range.
template <class T>
void rescale_out_of_range_norms(const ReduceCall& c, const ReduceView& view,
                                const ReduceSplit& split) {
  if constexpr (std::is_same_v<Real<T>, double>) {
    if (c.kind != PrimKind::Norm) return;
    const T* x = reinterpret_cast<const T*>(c.in.buffer->host_data());
    auto* out = reinterpret_cast<double*>(c.out.buffer->host_data());
    const cpu_strided::FoldedRuns folded(split);
    const auto parts = [](T v) {
      if constexpr (kIsComplex<T>) {
        return std::array<double, 2>{v.real(), v.imag()};
      } else {
        return std::array<double, 1>{v};
      }
    };
    cpu_strided::for_each_output(view, split, [&](std::int64_t base, std::int64_t at) {
      const double r = out[at];
      const bool overflowed = r == std::numeric_limits<double>::infinity();
      if (!overflowed && !(r < 0x1p-484)) return;  // in range, or NaN
      double largest = 0;
      bool lost = false;  // a nonzero part whose square is below the normal range
      folded.each(x, base, [&](const T* p, std::int64_t n) {
        for (std::int64_t i = 0; i < n; ++i) {
          for (const double part : parts(p[i])) {
            const double a = std::fabs(part);
            largest = std::max(largest, a);
            lost = lost || (a != 0 && a < 0x1p-511);
          }
        }
      });
      // All zero: 0 is right; an infinite part: inf is (a NaN part made r NaN, kept above).
      if (largest == 0 || !std::isfinite(largest)) return;
      if (!overflowed && !lost) return;
      const int e = std::ilogb(largest);
      PairwiseSum<double> s;
      folded.each(x, base, [&](const T* p, std::int64_t n) {
        s.add_run(p, n, [&](T v) {
          double sum = 0;
          for (const double part : parts(v)) {
            const double scaled = std::ldexp(part, -e);
            sum += scaled * scaled;
          }
          return sum;
        });
      });
      out[at] = std::ldexp(std::sqrt(s.total()), e);
    });
  }
}

template <class T>
void run_typed(const ReduceCall& c) {
  const ReduceView view = view_of(c);
  const ReduceSplit split = cpu_strided::split_reduction(view);
  const std::int64_t count = split.count;
  if (try_row_reduce<T>(c, count)) return rescale_out_of_range_norms<T>(c, view, split);
  const T* x = reinterpret_cast<const T*>(c.in.buffer->host_data());
  std::byte* out_bytes = c.out.buffer->host_data();
  const PrimKind k = c.kind;
  const cpu_strided::FoldedRuns folded(split);
  // Reductions over each kept index run serially inside; the kept space is split over threads.
  const auto reduce_one = [&](std::int64_t base, std::int64_t out_offset) {
    // The folded elements one by one, and by contiguous runs where there are some.
    const auto each_run = [&](auto&& run) { folded.each(x, base, run); };
    const auto each = [&](auto&& f) {
      each_run([&](const T* p, std::int64_t n) {
        for (std::int64_t i = 0; i < n; ++i) f(p[i]);
      });
    };
    using W = Wide<T>;
    switch (k) {
      case PrimKind::Sum:
      case PrimKind::Mean: {
        PairwiseSum<W> s;
        each_run([&](const T* p, std::int64_t n) {
          const auto widen = [](T v) { return static_cast<W>(v); };
          if constexpr (kIsComplex<T>) {
            s.add_run(p, n, widen);
          } else {
            add_terms(s, p, n, simd::SumKind::Values, widen);
          }
        });
        W total = s.total();
        if (k == PrimKind::Mean) total /= static_cast<double>(count);
        reinterpret_cast<T*>(out_bytes)[out_offset] = static_cast<T>(total);
        return;
      }
      case PrimKind::Norm: {
        PairwiseSum<double> s;
        each_run([&](const T* p, std::int64_t n) {
          if constexpr (kIsComplex<T>) {
            add_terms(s, p, n, simd::SumKind::ComplexSquares, [](T v) {
              return static_cast<double>(v.real()) * v.real() +
                     static_cast<double>(v.imag()) * v.imag();
            });
          } else {
            add_terms(s, p, n, simd::SumKind::Squares,
                      [](T v) { return static_cast<double>(v) * v; });
          }
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
          if (!split.red_strides.empty() && split.red_strides[0] == 1 &&
              simd::best_isa() != simd::Isa::None) {
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
  cpu_strided::for_each_output(view, split, reduce_one);
  rescale_out_of_range_norms<T>(c, view, split);
}

}  // namespace

void reduce(const ExecutionContext&, const ReduceCall& call) {
  count_cpu_kernel_launch();
  if (call.kind == PrimKind::ArgMax || call.kind == PrimKind::ArgMin) {
    return arg_extreme(call, view_of(call));
  }
  visit_dtype(call.in.layout.dtype, [&](auto tag) { run_typed<decltype(tag)>(call); });
}

}  // namespace tenferro::prims_cpu
