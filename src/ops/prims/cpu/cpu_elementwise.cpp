// The CPU element-wise kernel: one strided loop per call, the element function chosen by kind
// and dtype outside the loop (a kind is a template constant inside it, so the loop body has no
// switch and vectorises). Contiguous float/double operands of the common kinds go to the SIMD
// kernels of simd/ instead.
#include <type_traits>

#include "backends/cpu/stream_store.hpp"
#include "backends/cpu/strided_copy.hpp"
#include "backends/cpu/strided_loops.hpp"
#include "ops/prims/cpu/cpu_kernels.hpp"
#include "ops/prims/cpu/element_math.hpp"
#include "ops/prims/cpu/simd/simd_ops.hpp"

namespace tenferro::prims_cpu {
namespace {

using cpu_strided::all_dense_alike;
using cpu_strided::for_each_strided;
using cpu_strided::LoopNest;
using cpu_strided::make_nest;
using cpu_strided::run_nest_range;
using cpu_strided::Strides;
using prims_internal::adds_beta;

using prims_internal::ElementwiseCall;
using prims_internal::PrimKind;
using prims_internal::StridedOperand;

// Element counts from which a call is split over the host threads; below them waking a worker
// costs more than it saves. An arithmetic op moves a few bytes per element and little else, so
// its bound is in bytes of an operand: on the 2-core Zen 4 VM (shared with other builds,
// AVX-512, two threads against one, medians) add of 2 MiB operands took 91 against 57 us (float32
// 2^19), of 4 MiB 121-166 against 113-121 us (float32 2^20) and 124-143 against 110-120 us
// (float64 2^19), of 8 MiB 275-398 against 373-449 us (float32 2^21) and 307-348 against 440
// us (float64 2^20). A transcendental op computes enough per element from fewer: exp float64
// 2^16 112 against 88 us, 2^17 153 against 181 us, 2^19 448 against 726 us.
constexpr std::int64_t kParallelTranscendental = std::int64_t{1} << 17;
constexpr std::int64_t kParallelArithmeticBytes = std::int64_t{8} << 20;

constexpr std::int64_t parallel_from(PrimKind op, std::size_t element_bytes) {
  return is_transcendental(op)
             ? kParallelTranscendental
             : kParallelArithmeticBytes / static_cast<std::int64_t>(element_bytes);
}

// The same bounds while the workers are awake (cpu_parallel::host_workers_awake: a call within
// 60 us of a split or 100 us of a wake), when a split costs no wake-up. Back to back on the same
// VM, two threads against one: add of float64 2^15 (256 KiB operands) 2.2 against 4.9-5.9 us,
// 2^16 5.2-5.7 against 13.5-14.1 us, 2^18 33 against 52 us; exp of float64 2^13 1.9-2.4
// against 2.35 us, 2^15 5.2 against 8.9 us (exp is the cheapest transcendental op per element).
constexpr std::int64_t kAwakeTranscendental = std::int64_t{1} << 15;
constexpr std::int64_t kAwakeArithmeticBytes = std::int64_t{256} << 10;

constexpr std::int64_t awake_from(PrimKind op, std::size_t element_bytes) {
  return is_transcendental(op) ? kAwakeTranscendental
                               : kAwakeArithmeticBytes / static_cast<std::int64_t>(element_bytes);
}

// From how many elements a call of `n` elements splits: the awake bound while the workers are
// awake, else the parked one. A call between the two bounds that finds them parked runs alone
// and wakes them, so the next call of a loop over such arrays finds them awake. Element-wise
// results are the same bits split or not (PrimsSplit), so timing never changes a value.
std::int64_t split_from(PrimKind op, std::size_t element_bytes, std::int64_t n) {
  const int threads = cpu_parallel::host_kernel_threads();
  const std::int64_t awake = awake_from(op, element_bytes);
  if (threads <= 1 || n < awake) return parallel_from(op, element_bytes);
  if (cpu_parallel::host_workers_awake(threads)) return awake;
  const std::int64_t parked = parallel_from(op, element_bytes);
  if (n < parked) cpu_parallel::wake_host_workers(threads);
  return parked;
}

template <class T>
T* data_of(const StridedOperand& o) {
  return reinterpret_cast<T*>(o.buffer->host_data());
}

// out[i] = f(in0[i]) with In/Out element types.
template <class In, class Out, class F>
void map1(const ElementwiseCall& c, F f) {
  const In* x = data_of<In>(c.in[0]);
  Out* y = data_of<Out>(c.out);
  for_each_strided<2>(
      c.out.layout.shape, {c.in[0].layout.strides, c.out.layout.strides},
      {c.in[0].layout.offset, c.out.layout.offset},
      [&](const std::array<std::int64_t, 2>& o) { y[o[1]] = f(x[o[0]]); },
      /*parallel=*/true, /*order_by (out)=*/1,
      split_from(c.kind, sizeof(Out), c.out.layout.numel()));
}

template <class In, class Out, class F>
void map2(const ElementwiseCall& c, F f) {
  const In* a = data_of<In>(c.in[0]);
  const In* b = data_of<In>(c.in[1]);
  Out* y = data_of<Out>(c.out);
  for_each_strided<3>(
      c.out.layout.shape, {c.in[0].layout.strides, c.in[1].layout.strides, c.out.layout.strides},
      {c.in[0].layout.offset, c.in[1].layout.offset, c.out.layout.offset},
      [&](const std::array<std::int64_t, 3>& o) { y[o[2]] = f(a[o[0]], b[o[1]]); },
      /*parallel=*/true, /*order_by (out)=*/2,
      split_from(c.kind, sizeof(Out), c.out.layout.numel()));
}

// out[i] = c[i] != 0 ? x[i] : y[i]: the branch not chosen is never read into the result.
template <class T>
void select3(const ElementwiseCall& c) {
  const T* cond = data_of<T>(c.in[0]);
  const T* x = data_of<T>(c.in[1]);
  const T* y = data_of<T>(c.in[2]);
  T* out = data_of<T>(c.out);
  const auto& in = c.in;
  for_each_strided<4>(
      c.out.layout.shape,
      {in[0].layout.strides, in[1].layout.strides, in[2].layout.strides, c.out.layout.strides},
      {in[0].layout.offset, in[1].layout.offset, in[2].layout.offset, c.out.layout.offset},
      [&](const std::array<std::int64_t, 4>& o) {
        out[o[3]] = nonzero(cond[o[0]]) ? x[o[1]] : y[o[2]];
      },
      /*parallel=*/true, /*order_by (out)=*/3, split_from(c.kind, sizeof(T), c.out.layout.numel()));
}

// Calls f(std::integral_constant<PrimKind, K>{}) for the K in Ks equal to k and returns true
// (false if none): the runtime kind becomes a compile-time one, outside the element loop.
template <PrimKind... Ks, class F>
bool with_kind(PrimKind k, F&& f) {
  return ((k == Ks ? (f(std::integral_constant<PrimKind, Ks>{}), true) : false) || ...);
}

// run(begin, end) over [0, n): split over the host pool from the op's bound (split_from), else
// on this thread.
template <class Run>
void run_split(PrimKind op, std::size_t element_bytes, std::int64_t n, const Run& run) {
  const int threads = cpu_parallel::host_kernel_threads();
  if (threads > 1 && n >= split_from(op, element_bytes, n)) {
    cpu_parallel::parallel_chunks(n, threads, run);
  } else if (n > 0) {
    run(0, n);
  }
}

// A vector kernel answered false for a kind it had said it runs (the zero-length probe).
[[noreturn]] void throw_kernel_refused(PrimKind op) {
  throw_error(ErrorKind::RuntimeState, ErrorPhase::Execute,
              std::string(prims_internal::prim_name(op)),
              "the SIMD kernel refused a kind it advertised");
}

// A unary or binary op with a vector kernel on strided or broadcast operands: each run of the
// loop nest is gathered into blocks on the stack (an operand of unit step is read in place, one
// of step 0 is a block of copies of its value), run through the vector kernel and scattered
// back. Each lane of a vector kernel depends on its own input only (tested), so a view's values
// are the bits its contiguous copy would give: the scalar libm loop differed from the vector
// kernels in the last bit of up to 45% of the values (and was 5-20x slower for exp and sin);
// a product with a broadcast column ran the scalar loop at a third of NumPy's speed. false
// (nothing run) for an arithmetic binary op whose runs are shorter than kShortestRun elements: a
// kernel call per few elements costs more than the scalar loop, whose IEEE operations give the
// same bits (pow, whose scalar std::pow would not, always runs here).
template <class T, std::size_t N>
bool run_gathered(const ElementwiseCall& c, simd::Isa isa) {
  static_assert(N == 2 || N == 3, "unary (input, output) or binary (two inputs, output)");
  constexpr std::size_t kInputs = N - 1;
  constexpr std::int64_t kBlock = 256;
  Strides<N> strides;
  std::array<std::int64_t, N> offsets;
  for (std::size_t k = 0; k < kInputs; ++k) {
    strides[k] = c.in[k].layout.strides;
    offsets[k] = c.in[k].layout.offset;
  }
  strides[kInputs] = c.out.layout.strides;
  offsets[kInputs] = c.out.layout.offset;
  const LoopNest<N> nest = make_nest<N>(c.out.layout.shape, strides, kInputs);
  if (nest.empty) return true;
  constexpr std::int64_t kShortestRun = 16;
  if (kInputs == 2 && !is_transcendental(c.kind) &&
      (nest.extents.empty() || nest.extents[0] < kShortestRun))
    return false;
  std::array<const T*, kInputs> in;
  for (std::size_t k = 0; k < kInputs; ++k) in[k] = data_of<T>(c.in[k]);
  T* y = data_of<T>(c.out);
  const auto runs = [&](std::int64_t begin, std::int64_t end) {
    run_nest_range(nest, offsets, begin, end,
                   [&](const std::array<std::int64_t, N>& at, std::int64_t length,
                       const std::array<std::int64_t, N>& step) {
                     T blocks[kInputs][kBlock], out[kBlock];
                     for (std::size_t k = 0; k < kInputs; ++k) {
                       if (step[k] == 0)
                         std::fill_n(blocks[k], std::min(kBlock, length), in[k][at[k]]);
                     }
                     for (std::int64_t j0 = 0; j0 < length; j0 += kBlock) {
                       const std::int64_t len = std::min(kBlock, length - j0);
                       std::array<const T*, kInputs> src;
                       for (std::size_t k = 0; k < kInputs; ++k) {
                         const T* p = in[k] + at[k] + j0 * step[k];
                         if (step[k] == 1) {
                           src[k] = p;
                         } else {
                           if (step[k] != 0) {
                             for (std::int64_t j = 0; j < len; ++j, p += step[k]) blocks[k][j] = *p;
                           }
                           src[k] = blocks[k];
                         }
                       }
                       T* dst = y + at[kInputs] + j0 * step[kInputs];
                       T* to = step[kInputs] == 1 ? dst : out;
                       const bool ok = kInputs == 1 ? simd::unary(isa, c.kind, src[0], to, len)
                                                    : simd::binary(isa, c.kind, src[0],
                                                                   src[kInputs - 1], to, len);
                       if (!ok) throw_kernel_refused(c.kind);
                       if (step[kInputs] != 1) {
                         for (std::int64_t j = 0; j < len; ++j, dst += step[kInputs]) *dst = out[j];
                       }
                     }
                   });
  };
  const std::int64_t outer = nest.runs();
  const std::int64_t elements = outer * (nest.extents.empty() ? 1 : nest.extents[0]);
  const int threads = cpu_parallel::host_kernel_threads();
  if (threads > 1 && outer > 1 && elements >= split_from(c.kind, sizeof(T), elements)) {
    cpu_parallel::parallel_chunks(outer, threads, runs);
  } else {
    runs(0, outer);
  }
  return true;
}

// How a binary call's operands lie for the vector kernels: both inputs and the result in one
// dense block alike, or one input a single value broadcast over the shape (x / 3.0, the mean a
// variance subtracts; `broadcast` names it) and the other with the result in one dense block.
struct BinaryLayout {
  bool vector = false;
  int broadcast = -1;
};

bool single_value(const TensorLayout& l) {
  for (std::size_t i = 0; i < l.shape.size(); ++i)
    if (l.shape[i] > 1 && l.strides[i] != 0) return false;
  return true;
}

BinaryLayout binary_layout(const ElementwiseCall& c) {
  const auto& shape = c.out.layout.shape;
  const auto& in = c.in;
  if (all_dense_alike<3>(shape, {in[0].layout.strides, in[1].layout.strides, c.out.layout.strides}))
    return {true, -1};
  for (int k = 0; k < 2; ++k) {
    if (single_value(in[k].layout) &&
        all_dense_alike<2>(shape, {in[1 - k].layout.strides, c.out.layout.strides}))
      return {true, k};
  }
  return {};
}

// kernel(a, b, y, len) over elements [begin, end) of a binary call laid out as `layout` says (a,
// b, y at their first element): a broadcast operand is read from a block of copies of its value,
// so that the kernels written for two arrays serve it, a block at a time.
template <class T, class Kernel>
void run_binary(const T* a, const T* b, T* y, int broadcast, std::int64_t begin, std::int64_t end,
                Kernel kernel) {
  if (broadcast < 0) return kernel(a + begin, b + begin, y + begin, end - begin);
  constexpr std::int64_t kBlock = 512;
  T copies[kBlock];
  std::fill_n(copies, kBlock, broadcast == 0 ? *a : *b);
  for (std::int64_t i = begin; i < end; i += kBlock) {
    const std::int64_t len = std::min(kBlock, end - i);
    if (broadcast == 0) {
      kernel(copies, b + i, y + i, len);
    } else {
      kernel(a + i, copies, y + i, len);
    }
  }
}

// The SIMD path: every operand of dtype T and one compact column-major run (or a binary op's
// broadcast value, binary_layout), T real, and a vector kernel for the kind. false when the
// caller must run the scalar loops.
template <class T>
bool try_simd(const ElementwiseCall& c) {
  if constexpr (kIsComplex<T>) {
    return false;
  } else {
    const simd::Isa isa = simd::best_isa();
    if (isa == simd::Isa::None) return false;
    const PrimKind op = c.kind;
    const std::size_t arity = static_cast<std::size_t>(c.arity);
    // Affine on a real dtype has real scalars (a complex one made the dtype complex); its
    // kernel takes them rounded to T, as scale_by and add_scalar do.
    const bool affine = op == PrimKind::Affine, where = op == PrimKind::Where;
    if (affine && (c.alpha.imag() != 0.0 || c.beta.imag() != 0.0)) return false;
    const T alpha = static_cast<T>(c.alpha.real()), beta = static_cast<T>(c.beta.real());
    const bool shift = adds_beta(c.beta);
    // A zero-length call asks whether the ISA has a vector kernel for the op.
    if (!affine && !where &&
        (arity == 1 ? !simd::unary(isa, op, static_cast<const T*>(nullptr), nullptr, 0)
                    : arity != 2 || !simd::binary(isa, op, static_cast<const T*>(nullptr), nullptr,
                                                  nullptr, 0))) {
      return false;
    }
    const auto& shape = c.out.layout.shape;
    for (std::size_t i = 0; i < arity; ++i) {
      if (c.in[i].layout.dtype != c.out.layout.dtype) return false;
    }
    // One dense block in one shared axis order (column-major, or NumPy's C order): element i
    // of each operand's block is the same multi-index.
    const auto& in = c.in;
    const BinaryLayout two = arity == 2 ? binary_layout(c) : BinaryLayout{};
    const bool dense =
        arity == 1   ? all_dense_alike<2>(shape, {in[0].layout.strides, c.out.layout.strides})
        : arity == 2 ? two.vector
                     : all_dense_alike<4>(shape, {in[0].layout.strides, in[1].layout.strides,
                                                  in[2].layout.strides, c.out.layout.strides});
    if (!dense) {
      if (affine || where) return false;
      return arity == 1 ? run_gathered<T, 2>(c, isa) : run_gathered<T, 3>(c, isa);
    }
    const std::int64_t n = c.out.layout.numel();
    const T* x = data_of<T>(c.in[0]) + c.in[0].layout.offset;
    const T* b = arity >= 2 ? data_of<T>(c.in[1]) + c.in[1].layout.offset : nullptr;
    const T* b2 = arity == 3 ? data_of<T>(c.in[2]) + c.in[2].layout.offset : nullptr;
    T* y = data_of<T>(c.out) + c.out.layout.offset;
    // Operands and result beyond the last-level cache: streaming stores (stream_store.hpp).
    const bool stream =
        cpu_stream::worth_streaming(static_cast<std::size_t>(n) * sizeof(T) * (arity + 1));
    const auto run = [&](std::int64_t begin, std::int64_t end) {
      const std::int64_t len = end - begin;
      if (arity == 2) {
        return run_binary(x, b, y, two.broadcast, begin, end,
                          [&](const T* p, const T* q, T* r, std::int64_t count) {
                            if (!simd::binary(isa, op, p, q, r, count, stream))
                              throw_kernel_refused(op);
                          });
      }
      const bool ok =
          where    ? simd::select(isa, x + begin, b + begin, b2 + begin, y + begin, len, stream)
          : affine ? simd::affine(isa, x + begin, y + begin, len, alpha, beta, shift, stream)
                   : simd::unary(isa, op, x + begin, y + begin, len, stream);
      if (!ok) throw_kernel_refused(op);
    };
    run_split(op, sizeof(T), n, run);
    return true;
  }
}

// Complex operands of one dense block (or a binary op's broadcast value, binary_layout):
// products and quotients by the vector kernels (the scalar rule redone where a part came out
// NaN: Annex G's infinity recovery, the quotients outside the kernel's range, a real divisor's
// repair); sums,
// differences and scaling by a real number as the real kernels on the interleaved parts
// (std::complex adds part by part, scale_by multiplies each part); |z| by the vector kernel, the
// scalar rule (complex_magnitude) redone for the values outside its formula's range, so its bits
// are the scalar rule's and views (which run it) agree with their contiguous copies. false when
// the caller must run the scalar loops (the other kinds, views, no vector ISA).
template <class T>
bool try_simd_complex(const ElementwiseCall& c) {
  if constexpr (!kIsComplex<T>) {
    return false;
  } else {
    using R = Real<T>;
    const PrimKind op = c.kind;
    const bool scale = op == PrimKind::Affine && c.alpha.imag() == 0.0 && !adds_beta(c.beta);
    const bool by_parts = op == PrimKind::Add || op == PrimKind::Sub;
    const bool magnitude = op == PrimKind::Abs;  // the one with a real output
    const simd::Isa isa = simd::best_isa();
    const bool product = op == PrimKind::Mul, quotient = op == PrimKind::Div;
    if ((!product && !quotient && !scale && !by_parts && !magnitude) || isa == simd::Isa::None)
      return false;
    for (int i = 0; i < c.arity && !magnitude; ++i)
      if (c.in[i].layout.dtype != c.out.layout.dtype) return false;
    const auto& shape = c.out.layout.shape;
    const BinaryLayout two = c.arity == 2 ? binary_layout(c) : BinaryLayout{};
    const bool dense =
        c.arity == 1 ? all_dense_alike<2>(shape, {c.in[0].layout.strides, c.out.layout.strides})
                     : two.vector;
    if (!dense) return false;
    const T* x = data_of<T>(c.in[0]) + c.in[0].layout.offset;
    const T* b = c.arity == 2 ? data_of<T>(c.in[1]) + c.in[1].layout.offset : nullptr;
    // The output: real magnitudes, or complex values.
    R* const m = magnitude ? data_of<R>(c.out) + c.out.layout.offset : nullptr;
    T* const y = magnitude ? nullptr : data_of<T>(c.out) + c.out.layout.offset;
    const auto parts = [](const T* v) { return reinterpret_cast<const R*>(v); };
    const auto run = [&](std::int64_t begin, std::int64_t end) {
      const std::int64_t len = end - begin;
      if (magnitude) {
        bool outside = false;
        if (!simd::complex_abs(isa, parts(x + begin), m + begin, len, outside))
          throw_kernel_refused(op);
        if (outside)
          for (std::int64_t i = begin; i < end; ++i) m[i] = complex_magnitude(x[i]);
        return;
      }
      if (scale) {
        if (!simd::affine(isa, parts(x + begin), reinterpret_cast<R*>(y + begin), 2 * len,
                          static_cast<R>(c.alpha.real()), R(0), false))
          throw_kernel_refused(op);
        return;
      }
      run_binary(x, b, y, two.broadcast, begin, end,
                 [&](const T* p, const T* q, T* r, std::int64_t count) {
                   R* const rr = reinterpret_cast<R*>(r);
                   bool ok = true, some_nan = false;
                   if (by_parts) {
                     ok = simd::binary(isa, op, parts(p), parts(q), rr, 2 * count);
                   } else {
                     ok = simd::complex_binary(isa, op, parts(p), parts(q), rr, count, some_nan);
                   }
                   if (!ok) throw_kernel_refused(op);
                   // A value with a NaN part is redone by the scalar rule: the kernels'
                   // bits where both parts are NaN, its real-divisor repair
                   // (complex_quotient) where one is.
                   if (some_nan)
                     for (std::int64_t i = 0; i < count; ++i)
                       if (std::isnan(r[i].real()) || std::isnan(r[i].imag()))
                         r[i] = product ? p[i] * q[i] : complex_quotient(p[i], q[i]);
                 });
    };
    run_split(op, sizeof(T), c.out.layout.numel(), run);
    return true;
  }
}

template <class In, class Out>
Out convert(In x) {
  if constexpr (kIsComplex<Out>) {
    using R = Real<Out>;
    if constexpr (kIsComplex<In>) {
      return Out(static_cast<R>(x.real()), static_cast<R>(x.imag()));
    } else {
      return Out(static_cast<R>(x), R(0));
    }
  } else {
    static_assert(!kIsComplex<In>, "complex -> real casts are refused before execution");
    return static_cast<Out>(x);
  }
}

// A float32 <-> float64 cast (complex64 <-> complex128 too: their parts, interleaved) of one
// dense block by the vector conversion; false when the caller must run the scalar loop.
template <class In, class Out>
bool try_simd_convert(const ElementwiseCall& c) {
  using RealIn = Real<In>;
  using RealOut = Real<Out>;
  constexpr bool kPair = kIsComplex<In> == kIsComplex<Out> && !std::is_same_v<RealIn, RealOut> &&
                         std::is_floating_point_v<RealIn> && std::is_floating_point_v<RealOut>;
  if constexpr (!kPair) {
    return false;
  } else {
    const simd::Isa isa = simd::best_isa();
    if (isa == simd::Isa::None ||
        !all_dense_alike<2>(c.out.layout.shape, {c.in[0].layout.strides, c.out.layout.strides})) {
      return false;
    }
    constexpr std::int64_t kParts = kIsComplex<In> ? 2 : 1;
    const auto* x = reinterpret_cast<const RealIn*>(data_of<In>(c.in[0]) + c.in[0].layout.offset);
    auto* y = reinterpret_cast<RealOut*>(data_of<Out>(c.out) + c.out.layout.offset);
    const std::int64_t n = c.out.layout.numel() * kParts;
    const auto run = [&](std::int64_t begin, std::int64_t end) {
      if (!simd::convert(isa, x + begin, y + begin, end - begin))
        throw_kernel_refused(PrimKind::Cast);
    };
    run_split(PrimKind::Cast, sizeof(RealOut), n, run);
    return true;
  }
}

template <class In>
void cast_from(const ElementwiseCall& c) {
  visit_dtype(c.out.layout.dtype, [&](auto out_tag) {
    using Out = decltype(out_tag);
    if constexpr (std::is_same_v<In, Out>) {
      // A same-dtype cast is a copy (contiguous, concatenate): the backend's strided copy,
      // tiled where the two views' fastest axes differ.
      cpu_strided::copy<In>(c.out.layout.shape, data_of<In>(c.out) + c.out.layout.offset,
                            c.out.layout.strides, data_of<In>(c.in[0]) + c.in[0].layout.offset,
                            c.in[0].layout.strides);
    } else if constexpr (kIsComplex<In> && !kIsComplex<Out>) {
      throw_error(ErrorKind::RuntimeState, ErrorPhase::Execute, "cast",
                  "complex -> real reached the CPU kernel");
    } else if (!try_simd_convert<In, Out>(c)) {
      map1<In, Out>(c, [](In x) { return convert<In, Out>(x); });
    }
  });
}

// false where the op has no kernel for T (a real-only op of the list on complex values, a
// complex Complex): the registration table admits none of them, so reaching one is an internal
// error.
template <PrimKind K, class T>
bool map_unary(const ElementwiseCall& c) {
  if constexpr (kHasMath<K, T>) {
    using Out = decltype(unary_op<K>(T{}));
    map1<T, Out>(c, [](T x) { return unary_op<K>(x); });
    return true;
  } else {
    return false;
  }
}

template <PrimKind K, class T>
bool map_binary(const ElementwiseCall& c) {
  if constexpr (K == PrimKind::Complex) {
    if constexpr (kIsComplex<T>)
      return false;
    else
      map2<T, std::complex<T>>(c, [](T re, T im) { return std::complex<T>(re, im); });
  } else if constexpr (kHasMath<K, T>) {
    map2<T, T>(c, [](T a, T b) { return binary_op<K>(a, b); });
  } else {
    return false;
  }
  return true;
}

template <class T>
void run_typed(const ElementwiseCall& c) {
  using enum PrimKind;
  const PrimKind k = c.kind;
  if (try_simd<T>(c) || try_simd_complex<T>(c)) return;
  switch (k) {
    case Greater:
    case GreaterEqual:
    case Less:
    case LessEqual:
    case Equal:
    case NotEqual:
      with_kind<Greater, GreaterEqual, Less, LessEqual, Equal, NotEqual>(k, [&](auto kc) {
        map2<T, prims_cpu::Real<T>>(c, [](T a, T b) {
          return compare(decltype(kc)::value, a, b) ? prims_cpu::Real<T>(1) : prims_cpu::Real<T>(0);
        });
      });
      return;
    case PrimKind::Where:
      return select3<T>(c);
    case PrimKind::Affine: {
      const auto alpha = c.alpha, beta = c.beta;
      if (!adds_beta(beta)) return map1<T, T>(c, [alpha](T x) { return scale_by(alpha, x); });
      return map1<T, T>(c, [alpha, beta](T x) { return add_scalar(scale_by(alpha, x), beta); });
    }
    case PrimKind::Axpby: {
      const auto alpha = c.alpha, beta = c.beta;
      return map2<T, T>(c,
                        [alpha, beta](T x, T y) { return scale_by(alpha, x) + scale_by(beta, y); });
    }
    case PrimKind::Cast:
      return cast_from<T>(c);
      // Every math op of the op list, each with its element function fixed at compile time.
#define TENFERRO_CPU_UNARY_CASE(Kind, fn, python_name, dtypes) \
  case Kind:                                                   \
    if (map_unary<Kind, T>(c)) return;                         \
    break;
#define TENFERRO_CPU_BINARY_CASE(Kind, fn, python_name, dtypes) \
  case Kind:                                                    \
    if (map_binary<Kind, T>(c)) return;                         \
    break;
      TENFERRO_PRIMS_UNARY_OPS(TENFERRO_CPU_UNARY_CASE)
      TENFERRO_PRIMS_BINARY_OPS(TENFERRO_CPU_BINARY_CASE)
#undef TENFERRO_CPU_UNARY_CASE
#undef TENFERRO_CPU_BINARY_CASE
    default:
      break;
  }
  throw_error(ErrorKind::RuntimeState, ErrorPhase::Execute,
              std::string(prims_internal::prim_name(k)),
              "no CPU element-wise kernel for this dtype");
}

}  // namespace

void elementwise(const ExecutionContext&, const ElementwiseCall& call) {
  count_cpu_kernel_launch();
  visit_dtype(call.in[0].layout.dtype, [&](auto tag) { run_typed<decltype(tag)>(call); });
}

}  // namespace tenferro::prims_cpu
