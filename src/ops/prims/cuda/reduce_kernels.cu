// Reduction prims kernels: sum, mean, prod, max, min, norm over any set of axes; argmax and
// argmin over one (an accumulator is then the value and its index along the axis, `im`).
//
// Accumulation is in double (double complex for complex inputs) whatever the input precision,
// and sums (sum, mean, norm) are Kahan-compensated per thread, then combined by a tree: a
// 10^7-term sum keeps a relative error near the double epsilon, not 10^7 * epsilon.
//  - Many outputs or short reductions: one thread per output, a serial compensated loop.
//  - Few outputs with long reductions: each output's reduced range is cut into `parts` chunks,
//    one block per chunk (threads stride through the chunk, then a shared-memory tree), and
//    when there is more than one part a second kernel combines the parts' results from a
//    workspace, again compensated and by a tree. No atomics: the result is deterministic.
// A float64 or complex128 norm whose sum of squares left float64's range is recomputed on the
// device, with the parts scaled by a power of two, by the kernel that writes it (see
// rescaled_norm); float32 and complex64 squares never leave it.
#include <algorithm>
#include <type_traits>

#include "ops/prims/cuda/element_ops.cuh"

namespace tenferro::cuda_kernels::prims {
namespace {

// An accumulator value; real reductions use `re` only. 16 bytes: one workspace slot.
struct Acc {
  double re, im;
};
static_assert(sizeof(Acc) == 16, "a workspace slot is 16 bytes");

// One Kahan step. An infinite partial sum stops the compensation (inf - inf would turn the
// correction, and then the sum, into NaN); NaN stays NaN through s.
__device__ __forceinline__ void kahan_add(double& s, double& c, double x) {
  const double y = x - c;
  const double t = s + y;
  c = isfinite(t) ? (t - s) - y : 0.0;
  s = t;
}

template <PrimKind Op, class T>
struct Reducer {
  static constexpr bool kComplex = kIsComplex<T>;
  static constexpr bool kSumLike =
      Op == PrimKind::Sum || Op == PrimKind::Mean || Op == PrimKind::Norm;
  static constexpr bool kIndex = Op == PrimKind::ArgMax || Op == PrimKind::ArgMin;
  using Out = std::conditional_t<Op == PrimKind::Norm, RealOf<T>, T>;

  __device__ static Acc identity() {
    switch (Op) {
      case PrimKind::Prod:
        return {1.0, 0.0};
      case PrimKind::Max:
        return {-kInf, 0.0};
      case PrimKind::Min:
        return {kInf, 0.0};
      case PrimKind::ArgMax:  // loses to every element: by value, or by index on a tie
        return {-kInf, kInf};
      case PrimKind::ArgMin:
        return {kInf, kInf};
      default:
        return {0.0, 0.0};
    }
  }

  // Element j's contribution: |x|^2 for the norm, the value and j for argmax/argmin, the
  // widened value otherwise.
  __device__ static Acc lift(T x, std::int64_t j) {
    if constexpr (kComplex) {
      const double re = x.re, im = x.im;
      if (Op == PrimKind::Norm) return {re * re + im * im, 0.0};
      return {re, im};
    } else {
      const double v = x;
      if (Op == PrimKind::Norm) return {v * v, 0.0};
      if (kIndex) return {v, static_cast<double>(j)};
      return {v, 0.0};
    }
  }

  // argmax/argmin (NumPy's rule): a NaN beats every value, a strictly larger (smaller) value a
  // smaller one; of equals (two NaNs, -0 and +0) the lower index, as the pairs of a tree come
  // in no index order.
  __device__ static Acc first_of(Acc a, Acc b) { return a.im <= b.im ? a : b; }
  __device__ static Acc index_combine(Acc a, Acc b) {
    const bool a_nan = isnan(a.re), b_nan = isnan(b.re);
    if (a_nan || b_nan) return a_nan && b_nan ? first_of(a, b) : (a_nan ? a : b);
    if (Op == PrimKind::ArgMax ? a.re > b.re : a.re < b.re) return a;
    if (Op == PrimKind::ArgMax ? b.re > a.re : b.re < a.re) return b;
    return first_of(a, b);
  }

  // Combines two partial results (NaN-propagating for max/min, as NumPy).
  __device__ static Acc combine(Acc a, Acc b) {
    if (kIndex) return index_combine(a, b);
    switch (Op) {
      case PrimKind::Prod:
        if (kComplex) {  // as std::complex<double>'s product, Annex G's infinities included
          const Z p = cmul(Z{a.re, a.im}, Z{b.re, b.im});
          return {p.re, p.im};
        }
        return {__dmul_rn(a.re, b.re), 0.0};
      case PrimKind::Max:  // ties: -0 < +0, as IEEE 754-2019 (and the CPU and WebGPU)
        if (isnan(a.re)) return a;
        if (isnan(b.re)) return b;
        if (a.re == b.re) return signbit(a.re) ? b : a;
        return a.re < b.re ? b : a;
      case PrimKind::Min:
        if (isnan(a.re)) return a;
        if (isnan(b.re)) return b;
        if (a.re == b.re) return signbit(a.re) ? a : b;
        return b.re < a.re ? b : a;
      default:
        return {a.re + b.re, a.im + b.im};
    }
  }

  // The output value from the combined result over `count` reduced elements.
  __device__ static Out finish(Acc a, std::int64_t count) {
    if constexpr (Op == PrimKind::Norm) {
      return static_cast<Out>(sqrt(a.re));
    } else if constexpr (kIndex && !kComplex) {
      return static_cast<Out>(a.im);  // an index the host bounded to the dtype's exact integers
    } else {
      if (Op == PrimKind::Mean) {  // 0 / 0 = NaN over zero elements, as NumPy
        const double n = static_cast<double>(count);
        a = {a.re / n, a.im / n};
      }
      if constexpr (kComplex) {
        using R = RealOf<T>;
        return {static_cast<R>(a.re), static_cast<R>(a.im)};
      } else {
        return static_cast<Out>(a.re);
      }
    }
  }
};

// A thread's running result: compensated for sums, plain combination otherwise.
template <PrimKind Op, class T>
struct Accumulator {
  using Rd = Reducer<Op, T>;
  Acc s = Rd::identity();
  Acc c = {0.0, 0.0};

  __device__ void add(Acc v) {
    if constexpr (Rd::kSumLike) {
      kahan_add(s.re, c.re, v.re);
      if constexpr (Rd::kComplex && Op != PrimKind::Norm) kahan_add(s.im, c.im, v.im);
    } else {
      s = Rd::combine(s, v);
    }
  }
  __device__ Acc value() const {
    if constexpr (Rd::kSumLike) {
      return {s.re - c.re, s.im - c.im};
    } else {
      return s;
    }
  }
};

constexpr int kThreads = kGridThreads;

// Tree-combines one value per thread by `combine`; every thread gets the block's result. Every
// thread of the block must call it (it synchronizes).
template <class F>
__device__ Acc block_tree(Acc* shared, Acc v, F combine) {
  shared[threadIdx.x] = v;
  __syncthreads();
  for (int width = kThreads / 2; width > 0; width /= 2) {
    if (threadIdx.x < width)
      shared[threadIdx.x] = combine(shared[threadIdx.x], shared[threadIdx.x + width]);
    __syncthreads();
  }
  const Acc result = shared[0];
  __syncthreads();  // `shared` is reused by the caller's next output
  return result;
}

template <PrimKind Op, class T>
__device__ Acc block_combine(Acc* shared, Acc v) {
  return block_tree(shared, v, [](Acc a, Acc b) { return Reducer<Op, T>::combine(a, b); });
}

// The norms that are recomputed: float64 and complex128 (float32 and complex64 squares, summed
// in double, never leave its range).
template <PrimKind Op, class T>
inline constexpr bool kRescalesNorm = (Op == PrimKind::Norm) && std::is_same_v<RealOf<T>, double>;

// Out-of-range norms, as the CPU's rescale_out_of_range_norms (cpu/cpu_reduce.cpp): a norm r
// that overflowed (inf from finite parts: norm([1e200, 1e200]) was inf), or is below 2^-484 with
// a nonzero part under 2^-511 (whose square lost bits in the subnormal range or vanished:
// norm([1e-170]) was 0), is computed again with every part scaled by 2^-e, e the exponent of
// the largest part, as LAPACK's nrm2 scales: sqrt(sum (x 2^-e)^2) 2^e, the sum compensated as
// the first. Other norms keep their bits; all zeros keep 0, an infinite part inf (a NaN part
// made r NaN, which is kept).
__device__ __forceinline__ bool norm_out_of_range(double r) {
  return r == kInf || r < 0x1p-484;
}
__device__ __forceinline__ void note_part(double v, Acc& m) {
  const double a = fabs(v);
  m.re = fmax(m.re, a);                    // the largest part
  if (a != 0 && a < 0x1p-511) m.im = 1.0;  // a part whose square lost bits
}
template <class T>
__device__ __forceinline__ void note_parts(T x, Acc& m) {
  if constexpr (kIsComplex<T>) {
    note_part(x.re, m);
    note_part(x.im, m);
  } else {
    note_part(x, m);
  }
}
template <class T>
__device__ __forceinline__ double scaled_square(T x, int e) {
  if constexpr (kIsComplex<T>) {
    const double re = scalbn(static_cast<double>(x.re), -e);
    const double im = scalbn(static_cast<double>(x.im), -e);
    return re * re + im * im;
  } else {
    const double v = scalbn(static_cast<double>(x), -e);
    return v * v;
  }
}
// Whether r is recomputed, given the largest part and whether one lost bits (m); e its exponent.
__device__ __forceinline__ bool rescales(double r, Acc m, int& e) {
  if (m.re == 0 || !isfinite(m.re) || (r != kInf && m.im == 0)) return false;
  e = ilogb(m.re);
  return true;
}

// One thread recomputes output r over its `count` reduced elements from src + base.
template <class T>
__device__ double rescaled_norm(const T* src, std::int64_t base, const Index<1>& reduced,
                                std::int64_t count, double r) {
  if (!norm_out_of_range(r)) return r;
  Acc m = {0.0, 0.0};
  for (std::int64_t j = 0; j < count; ++j) {
    std::int64_t o[1];
    offsets_of<1>(reduced, j, o);
    note_parts(src[base + o[0]], m);
  }
  int e = 0;
  if (!rescales(r, m, e)) return r;
  double s = 0.0, c = 0.0;
  for (std::int64_t j = 0; j < count; ++j) {
    std::int64_t o[1];
    offsets_of<1>(reduced, j, o);
    kahan_add(s, c, scaled_square(src[base + o[0]], e));
  }
  return scalbn(sqrt(s - c), e);
}

// The block recomputes output r (the same in every thread, so every thread takes the same
// branches around the block's synchronizations): threads stride through the reduced elements,
// then tree-combine the largest part and the compensated sum as the first pass does.
template <class T>
__device__ double rescaled_norm_by_block(Acc* shared, const T* src, std::int64_t base,
                                         const Index<1>& reduced, std::int64_t count, double r) {
  if (!norm_out_of_range(r)) return r;
  Acc m = {0.0, 0.0};
  for (std::int64_t j = threadIdx.x; j < count; j += blockDim.x) {
    std::int64_t o[1];
    offsets_of<1>(reduced, j, o);
    note_parts(src[base + o[0]], m);
  }
  m = block_tree(shared, m, [](Acc a, Acc b) { return Acc{fmax(a.re, b.re), fmax(a.im, b.im)}; });
  int e = 0;
  if (!rescales(r, m, e)) return r;
  double s = 0.0, c = 0.0;
  for (std::int64_t j = threadIdx.x; j < count; j += blockDim.x) {
    std::int64_t o[1];
    offsets_of<1>(reduced, j, o);
    kahan_add(s, c, scaled_square(src[base + o[0]], e));
  }
  const Acc t = block_tree(shared, Acc{s - c, 0.0}, [](Acc a, Acc b) {
    return Acc{a.re + b.re, 0.0};
  });
  return scalbn(sqrt(t.re), e);
}

// One thread per output.
template <PrimKind Op, class T>
__global__ void per_thread_kernel(typename Reducer<Op, T>::Out* dst, const T* src, Index<2> kept,
                                  std::int64_t kept_count, Index<1> reduced,
                                  std::int64_t reduced_count) {
  using Rd = Reducer<Op, T>;
  TENFERRO_GRID_LOOP(i, kept_count) {
    std::int64_t off[2];
    offsets_of<2>(kept, i, off);
    Accumulator<Op, T> acc;
    for (std::int64_t j = 0; j < reduced_count; ++j) {
      std::int64_t r[1];
      offsets_of<1>(reduced, j, r);
      acc.add(Rd::lift(src[off[1] + r[0]], j));
    }
    auto out = Rd::finish(acc.value(), reduced_count);
    if constexpr (kRescalesNorm<Op, T>) {
      out = rescaled_norm(src, off[1], reduced, reduced_count, out);
    }
    dst[off[0]] = out;
  }
}

// One block per (output, part). With one part the block writes the output, else its part's
// result goes to partial[output * parts + part].
template <PrimKind Op, class T>
__global__ void per_block_kernel(typename Reducer<Op, T>::Out* dst, Acc* partial, const T* src,
                                 Index<2> kept, std::int64_t kept_count, Index<1> reduced,
                                 std::int64_t reduced_count, std::int64_t parts) {
  using Rd = Reducer<Op, T>;
  __shared__ Acc shared[kThreads];
  const std::int64_t chunk = (reduced_count + parts - 1) / parts;
  for (std::int64_t b = blockIdx.x; b < kept_count * parts; b += gridDim.x) {
    const std::int64_t i = b / parts, part = b % parts;
    std::int64_t off[2];
    offsets_of<2>(kept, i, off);
    const std::int64_t begin = part * chunk;
    const std::int64_t end = begin + chunk < reduced_count ? begin + chunk : reduced_count;
    Accumulator<Op, T> acc;
    for (std::int64_t j = begin + threadIdx.x; j < end; j += blockDim.x) {
      std::int64_t r[1];
      offsets_of<1>(reduced, j, r);
      acc.add(Rd::lift(src[off[1] + r[0]], j));
    }
    const Acc v = block_combine<Op, T>(shared, acc.value());
    if (parts == 1) {
      auto out = Rd::finish(v, reduced_count);
      if constexpr (kRescalesNorm<Op, T>) {
        out = rescaled_norm_by_block(shared, src, off[1], reduced, reduced_count, out);
      }
      if (threadIdx.x == 0) dst[off[0]] = out;
    } else if (threadIdx.x == 0) {
      partial[b] = v;
    }
  }
}

// One block per output: combines its `parts` partial results (and recomputes an out-of-range
// float64/complex128 norm over the whole reduced range from src).
template <PrimKind Op, class T>
__global__ void combine_parts_kernel(typename Reducer<Op, T>::Out* dst, const Acc* partial,
                                     const T* src, Index<2> kept, std::int64_t kept_count,
                                     Index<1> reduced, std::int64_t parts,
                                     std::int64_t reduced_count) {
  using Rd = Reducer<Op, T>;
  __shared__ Acc shared[kThreads];
  for (std::int64_t i = blockIdx.x; i < kept_count; i += gridDim.x) {
    Accumulator<Op, T> acc;
    for (std::int64_t p = threadIdx.x; p < parts; p += blockDim.x) acc.add(partial[i * parts + p]);
    const Acc v = block_combine<Op, T>(shared, acc.value());
    std::int64_t off[2];
    offsets_of<2>(kept, i, off);
    auto out = Rd::finish(v, reduced_count);
    if constexpr (kRescalesNorm<Op, T>) {
      out = rescaled_norm_by_block(shared, src, off[1], reduced, reduced_count, out);
    }
    if (threadIdx.x == 0) dst[off[0]] = out;
  }
}

// Below this many reduced elements, or from this many outputs on, one thread per output.
constexpr std::int64_t kBlockMinReduced = 2 * kThreads;
constexpr std::int64_t kThreadMinOutputs = std::int64_t{1} << 15;
// A block's part of a long reduction: 64 elements per thread.
constexpr std::int64_t kPartElements = 64 * kThreads;
// At most this many (output, part) blocks, which also bounds the workspace (16 MiB).
constexpr std::int64_t kMaxPartBlocks = std::int64_t{1} << 20;

bool per_thread(std::int64_t kept_count, std::int64_t reduced_count) {
  return reduced_count < kBlockMinReduced || kept_count >= kThreadMinOutputs;
}

unsigned capped_blocks(std::int64_t n) {
  return static_cast<unsigned>(std::min<std::int64_t>(n, std::int64_t{1} << 20));
}

template <PrimKind Op>
cudaError_t reduce_op(Element in, void* dst, const void* src, const Index<2>& kept,
                      std::int64_t kept_count, const Index<1>& reduced, std::int64_t reduced_count,
                      void* workspace, cudaStream_t stream) {
  return with_element(in, [&](auto tag) -> cudaError_t {
    using T = decltype(tag);
    if constexpr (!reduce_runs(Op, kElementOf<T>)) {
      return cudaErrorInvalidValue;
    } else {
      using Out = typename Reducer<Op, T>::Out;
      auto* out = static_cast<Out*>(dst);
      const auto* x = static_cast<const T*>(src);
      if (per_thread(kept_count, reduced_count)) {
        per_thread_kernel<Op, T><<<grid_blocks_for(kept_count), kThreads, 0, stream>>>(
            out, x, kept, kept_count, reduced, reduced_count);
        return cudaGetLastError();
      }
      const std::int64_t parts = reduce_parts(kept_count, reduced_count);
      if (parts > 1 && workspace == nullptr) return cudaErrorInvalidValue;
      auto* partial = static_cast<Acc*>(workspace);
      per_block_kernel<Op, T><<<capped_blocks(kept_count * parts), kThreads, 0, stream>>>(
          out, partial, x, kept, kept_count, reduced, reduced_count, parts);
      if (parts == 1) return cudaGetLastError();
      if (const cudaError_t e = cudaGetLastError(); e != cudaSuccess) return e;
      combine_parts_kernel<Op, T><<<capped_blocks(kept_count), kThreads, 0, stream>>>(
          out, partial, x, kept, kept_count, reduced, parts, reduced_count);
      return cudaGetLastError();
    }
  });
}

}  // namespace

std::int64_t reduce_parts(std::int64_t kept_count, std::int64_t reduced_count) {
  if (kept_count <= 0 || per_thread(kept_count, reduced_count)) return 1;
  const std::int64_t wanted = (reduced_count + kPartElements - 1) / kPartElements;
  return std::max<std::int64_t>(1, std::min(wanted, kMaxPartBlocks / kept_count));
}

cudaError_t launch_reduce(PrimKind op, Element in, void* dst, const void* src, const Index<2>& kept,
                          std::int64_t kept_count, const Index<1>& reduced,
                          std::int64_t reduced_count, void* workspace, cudaStream_t stream) {
  if (kept_count == 0) return cudaSuccess;
  switch (op) {
    case PrimKind::Sum:
      return reduce_op<PrimKind::Sum>(in, dst, src, kept, kept_count, reduced, reduced_count,
                                      workspace, stream);
    case PrimKind::Mean:
      return reduce_op<PrimKind::Mean>(in, dst, src, kept, kept_count, reduced, reduced_count,
                                       workspace, stream);
    case PrimKind::Prod:
      return reduce_op<PrimKind::Prod>(in, dst, src, kept, kept_count, reduced, reduced_count,
                                       workspace, stream);
    case PrimKind::Max:
      return reduce_op<PrimKind::Max>(in, dst, src, kept, kept_count, reduced, reduced_count,
                                      workspace, stream);
    case PrimKind::Min:
      return reduce_op<PrimKind::Min>(in, dst, src, kept, kept_count, reduced, reduced_count,
                                      workspace, stream);
    case PrimKind::Norm:
      return reduce_op<PrimKind::Norm>(in, dst, src, kept, kept_count, reduced, reduced_count,
                                       workspace, stream);
    case PrimKind::ArgMax:
      return reduce_op<PrimKind::ArgMax>(in, dst, src, kept, kept_count, reduced, reduced_count,
                                         workspace, stream);
    case PrimKind::ArgMin:
      return reduce_op<PrimKind::ArgMin>(in, dst, src, kept, kept_count, reduced, reduced_count,
                                         workspace, stream);
    default:
      break;  // not a reduction op: the host never sends one
  }
  return cudaErrorInvalidValue;
}

}  // namespace tenferro::cuda_kernels::prims
