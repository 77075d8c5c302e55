// cumsum and cumprod on the CPU (kernel_calls.hpp's ScanCall): running sums (products) in
// WideSum<T> (double for F32, complex<double> for C32), each output rounded once, so a float32
// scan of 10^7 terms keeps float64's error, not float32's.
//  - A contiguous axis (in and out): the line is cut into kChains segments. A first pass folds
//    each segment (kChains independent chains), the segments' offsets follow, and a second pass
//    runs every segment's chain from its offset, writing the outputs. Two reads and one write
//    per element, but no chain waits on another: a single running sum is bound by the adder's
//    latency (NumPy's loop: one element per 4 cycles). Each output is its segment's terms added
//    left to right onto the offset, so only the offsets are associated differently.
//  - Otherwise, a panel of lines along the first other axis advances together, element j of
//    every line after element j - 1 (a loop the compiler vectorises when that axis is
//    contiguous): each line strictly left to right, as NumPy's loop.
#include <algorithm>
#include <array>
#include <cstdint>

#include "backends/cpu/strided_loops.hpp"
#include "backends/cpu/strided_reduce.hpp"
#include "ops/prims/cpu/cpu_kernels.hpp"

namespace tenferro::prims_cpu {
namespace {

using prims_internal::PrimKind;
using prims_internal::ScanCall;

template <class T>
using Wide = cpu_strided::WideSum<T>;

constexpr std::int64_t kChains = 8;
// Lines shorter than this run as one chain (the segments' set-up costs more than it saves).
constexpr std::int64_t kChainedLine = 256;
// Lines of a panel: their running sums stay in one small stack buffer.
constexpr std::int64_t kPanel = 256;

// The scan's step and its identity.
template <class W>
struct Plus {
  static W identity() { return W{}; }
  static void step(W& s, W x) { s += x; }
};
template <class W>
struct Times {
  static W identity() { return W{1}; }
  static void step(W& s, W x) { s *= x; }
};

// One axis of the call: extent and the strides of in and out along it.
struct Axis {
  std::int64_t n = 1, in = 0, out = 0;
};

// A contiguous line of n elements.
template <class T, class Op>
void contiguous_line(const T* x, T* y, std::int64_t n) {
  using W = Wide<T>;
  if (n < kChainedLine) {
    W s = Op::identity();
    for (std::int64_t i = 0; i < n; ++i) {
      Op::step(s, static_cast<W>(x[i]));
      y[i] = static_cast<T>(s);
    }
    return;
  }
  // Segments of len elements; the last one also takes the remainder, walked after the chains.
  const std::int64_t len = n / kChains, tail = len * kChains;
  std::array<W, kChains> s;
  s.fill(Op::identity());
  for (std::int64_t i = 0; i < len; ++i) {
    for (std::int64_t c = 0; c < kChains; ++c) Op::step(s[c], static_cast<W>(x[c * len + i]));
  }
  for (std::int64_t i = tail; i < n; ++i) Op::step(s[kChains - 1], static_cast<W>(x[i]));
  // Each chain starts from the fold of the segments before it.
  W offset = Op::identity();
  for (std::int64_t c = 0; c < kChains; ++c) {
    const W total = s[c];
    s[c] = offset;
    Op::step(offset, total);
  }
  for (std::int64_t i = 0; i < len; ++i) {
    for (std::int64_t c = 0; c < kChains; ++c) {
      Op::step(s[c], static_cast<W>(x[c * len + i]));
      y[c * len + i] = static_cast<T>(s[c]);
    }
  }
  for (std::int64_t i = tail; i < n; ++i) {
    Op::step(s[kChains - 1], static_cast<W>(x[i]));
    y[i] = static_cast<T>(s[kChains - 1]);
  }
}

// `lines` lines along `across` (their first elements x + i * across.in), scanned along `axis`.
template <class T, class Op>
void panel(const T* x, T* y, const Axis& axis, const Axis& across) {
  using W = Wide<T>;
  std::array<W, kPanel> s;
  for (std::int64_t first = 0; first < across.n; first += kPanel) {
    const std::int64_t m = std::min(kPanel, across.n - first);
    const T* xp = x + first * across.in;
    T* yp = y + first * across.out;
    std::fill_n(s.begin(), m, Op::identity());
    for (std::int64_t j = 0; j < axis.n; ++j) {
      const T* xr = xp + j * axis.in;
      T* yr = yp + j * axis.out;
      if (across.in == 1 && across.out == 1) {
        for (std::int64_t i = 0; i < m; ++i) {
          Op::step(s[i], static_cast<W>(xr[i]));
          yr[i] = static_cast<T>(s[i]);
        }
      } else {
        for (std::int64_t i = 0; i < m; ++i) {
          Op::step(s[i], static_cast<W>(xr[i * across.in]));
          yr[i * across.out] = static_cast<T>(s[i]);
        }
      }
    }
  }
}

template <class T, class Op>
void scan_typed(const ScanCall& c) {
  const TensorLayout& in = c.in.layout;
  const TensorLayout& out = c.out.layout;
  const auto a = static_cast<std::size_t>(c.axis);
  const Axis axis{in.shape[a], in.strides[a], out.strides[a]};
  // The lines: every other axis (the scanned one as extent 1) in the backend's loop nest,
  // ordered by the output's strides and fused, so that a run of the nest is a row of lines
  // along their fastest axis: walked one line at a time when the scanned axis is contiguous,
  // else as panels.
  cpu_strided::NestDims lines(in.shape.begin(), in.shape.end());
  lines[a] = 1;
  const auto nest = cpu_strided::make_nest<2>(lines, {in.strides, out.strides}, std::size_t{1});
  const T* x = reinterpret_cast<const T*>(c.in.buffer->host_data()) + in.offset;
  T* y = reinterpret_cast<T*>(c.out.buffer->host_data()) + out.offset;
  const bool contiguous = axis.in == 1 && axis.out == 1;
  cpu_strided::run_nest(nest, {0, 0}, [&](const auto& at, std::int64_t n, const auto& step) {
    if (!contiguous) return panel<T, Op>(x + at[0], y + at[1], axis, Axis{n, step[0], step[1]});
    for (std::int64_t i = 0; i < n; ++i) {
      contiguous_line<T, Op>(x + at[0] + i * step[0], y + at[1] + i * step[1], axis.n);
    }
  });
}

}  // namespace

void scan(const ExecutionContext&, const ScanCall& call) {
  count_cpu_kernel_launch();
  if (call.kind != PrimKind::CumSum && call.kind != PrimKind::CumProd) {
    throw_error(ErrorKind::RuntimeState, ErrorPhase::Execute,
                std::string(prims_internal::prim_name(call.kind)), "not a CPU scan");
  }
  visit_dtype(call.in.layout.dtype, [&](auto tag) {
    using T = decltype(tag);
    if (call.kind == PrimKind::CumSum) {
      scan_typed<T, Plus<Wide<T>>>(call);
    } else {
      scan_typed<T, Times<Wide<T>>>(call);
    }
  });
}

}  // namespace tenferro::prims_cpu
