// Reduction prims kernels: sum, mean, prod, max, min, norm over any set of axes.
//
// Accumulation is in double (double complex for complex inputs) whatever the input precision,
// and sums (sum, mean, norm) are Kahan-compensated per thread, then combined by a tree: a
// 10^7-term sum keeps a relative error near the double epsilon, not 10^7 * epsilon.
//  - Many outputs or short reductions: one thread per output, a serial compensated loop.
//  - Few outputs with long reductions: each output's reduced range is cut into `parts` chunks,
//    one block per chunk (threads stride through the chunk, then a shared-memory tree), and
//    when there is more than one part a second kernel combines the parts' results from a
//    workspace, again compensated and by a tree. No atomics: the result is deterministic.
#include <algorithm>

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
  using Out = std::conditional_t<Op == PrimKind::Norm, RealOf<T>, T>;

  __device__ static Acc identity() {
    switch (Op) {
      case PrimKind::Prod:
        return {1.0, 0.0};
      case PrimKind::Max:
        return {-kInf, 0.0};
      case PrimKind::Min:
        return {kInf, 0.0};
      default:
        return {0.0, 0.0};
    }
  }

  // An element's contribution: |x|^2 for the norm, the widened value otherwise.
  __device__ static Acc lift(T x) {
    if constexpr (kComplex) {
      const double re = x.re, im = x.im;
      if (Op == PrimKind::Norm) return {re * re + im * im, 0.0};
      return {re, im};
    } else {
      const double v = x;
      if (Op == PrimKind::Norm) return {v * v, 0.0};
      return {v, 0.0};
    }
  }

  // Combines two partial results (NaN-propagating for max/min, as NumPy).
  __device__ static Acc combine(Acc a, Acc b) {
    switch (Op) {
      case PrimKind::Prod:
        if (kComplex) {
          return {__dsub_rn(__dmul_rn(a.re, b.re), __dmul_rn(a.im, b.im)),
                  __dadd_rn(__dmul_rn(a.re, b.im), __dmul_rn(a.im, b.re))};
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

// Tree-combines one value per thread; thread 0 gets the block's result. Every thread of the
// block must call it (it synchronizes).
template <PrimKind Op, class T>
__device__ Acc block_combine(Acc* shared, Acc v) {
  shared[threadIdx.x] = v;
  __syncthreads();
  for (int width = kThreads / 2; width > 0; width /= 2) {
    if (threadIdx.x < width)
      shared[threadIdx.x] =
          Reducer<Op, T>::combine(shared[threadIdx.x], shared[threadIdx.x + width]);
    __syncthreads();
  }
  const Acc result = shared[0];
  __syncthreads();  // `shared` is reused by the caller's next output
  return result;
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
      acc.add(Rd::lift(src[off[1] + r[0]]));
    }
    dst[off[0]] = Rd::finish(acc.value(), reduced_count);
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
      acc.add(Rd::lift(src[off[1] + r[0]]));
    }
    const Acc v = block_combine<Op, T>(shared, acc.value());
    if (threadIdx.x == 0) {
      if (parts == 1) {
        dst[off[0]] = Rd::finish(v, reduced_count);
      } else {
        partial[b] = v;
      }
    }
  }
}

// One block per output: combines its `parts` partial results.
template <PrimKind Op, class T>
__global__ void combine_parts_kernel(typename Reducer<Op, T>::Out* dst, const Acc* partial,
                                     Index<2> kept, std::int64_t kept_count, std::int64_t parts,
                                     std::int64_t reduced_count) {
  using Rd = Reducer<Op, T>;
  __shared__ Acc shared[kThreads];
  for (std::int64_t i = blockIdx.x; i < kept_count; i += gridDim.x) {
    Accumulator<Op, T> acc;
    for (std::int64_t p = threadIdx.x; p < parts; p += blockDim.x) acc.add(partial[i * parts + p]);
    const Acc v = block_combine<Op, T>(shared, acc.value());
    if (threadIdx.x == 0) {
      std::int64_t off[2];
      offsets_of<2>(kept, i, off);
      dst[off[0]] = Rd::finish(v, reduced_count);
    }
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
          out, partial, kept, kept_count, parts, reduced_count);
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
    default:
      break;  // not a reduction op: the host never sends one
  }
  return cudaErrorInvalidValue;
}

}  // namespace tenferro::cuda_kernels::prims
