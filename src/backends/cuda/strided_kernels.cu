// Grid-stride kernels over coalesced strided views. Each thread turns its linear index into
// per-operand offsets by div/mod over the extents (axis 0 fastest, so consecutive threads
// touch consecutive elements of the operand whose axis 0 is contiguous).
#include <algorithm>
#include <type_traits>

#include "backends/cuda/device_complex.cuh"
#include "backends/cuda/strided_kernels.hpp"

namespace tenferro::cuda_kernels {
namespace {

template <class R>
using Complex = DeviceComplex<R>;
template <class R>
__device__ __forceinline__ Complex<R> operator*(Complex<R> a, Complex<R> b) {
  return {a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re};
}
template <class R>
__device__ __forceinline__ Complex<R> operator+(Complex<R> a, Complex<R> b) {
  return {a.re + b.re, a.im + b.im};
}
template <class T>
__device__ __forceinline__ T zero() {
  return T{};
}

// The accumulator of a sum of T: double for float, Complex<double> for Complex<float>. A float
// accumulator loses O(n) ulps over a long sum and stops counting at 2^24 (the CPU kernels and
// the prims reductions accumulate wide too).
template <class T>
struct WideSumOf {
  using type = T;
};
template <>
struct WideSumOf<float> {
  using type = double;
};
template <>
struct WideSumOf<Complex<float>> {
  using type = Complex<double>;
};
template <class To, class From>
__device__ __forceinline__ To convert_element(From x) {
  if constexpr (std::is_arithmetic_v<From>) {
    return static_cast<To>(x);
  } else {
    using R = decltype(To{}.re);
    return {static_cast<R>(x.re), static_cast<R>(x.im)};
  }
}

struct Bytes16 {
  unsigned long long lo, hi;
};
template <int Size>
struct Word;
template <>
struct Word<4> {
  using type = unsigned int;
};
template <>
struct Word<8> {
  using type = unsigned long long;
};
template <>
struct Word<16> {
  using type = Bytes16;
};

constexpr int kThreads = 256;

unsigned blocks_for(std::int64_t count) {
  const std::int64_t blocks = (count + kThreads - 1) / kThreads;
  return static_cast<unsigned>(std::min<std::int64_t>(blocks, std::int64_t{1} << 20));
}

template <int N>
__device__ __forceinline__ void offsets_of(const StridedIndex<N>& ix, std::int64_t linear,
                                           std::int64_t (&off)[N]) {
  for (int n = 0; n < N; ++n) off[n] = 0;
  for (int d = 0; d < ix.rank; ++d) {
    const std::int64_t e = ix.extent[d];
    const std::int64_t q = linear % e;
    linear /= e;
    for (int n = 0; n < N; ++n) off[n] += q * ix.stride[n][d];
  }
}

template <class W>
__global__ void copy_kernel(W* dst, const W* src, StridedIndex<2> ix, std::int64_t count) {
  for (std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; i < count;
       i += std::int64_t(gridDim.x) * blockDim.x) {
    std::int64_t off[2];
    offsets_of<2>(ix, i, off);
    dst[off[0]] = src[off[1]];
  }
}

template <class W>
__global__ void fill_zero_kernel(W* dst, StridedIndex<1> ix, std::int64_t count) {
  for (std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; i < count;
       i += std::int64_t(gridDim.x) * blockDim.x) {
    std::int64_t off[1];
    offsets_of<1>(ix, i, off);
    dst[off[0]] = W{};
  }
}

template <class T>
__global__ void multiply_kernel(T* dst, const T* a, const T* b, StridedIndex<3> ix,
                                std::int64_t count) {
  for (std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; i < count;
       i += std::int64_t(gridDim.x) * blockDim.x) {
    std::int64_t off[3];
    offsets_of<3>(ix, i, off);
    dst[off[0]] = a[off[1]] * b[off[2]];
  }
}

template <class T>
__global__ void accumulate_kernel(T* dst, const T* src, StridedIndex<2> ix, std::int64_t count) {
  for (std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; i < count;
       i += std::int64_t(gridDim.x) * blockDim.x) {
    std::int64_t off[2];
    offsets_of<2>(ix, i, off);
    dst[off[0]] = dst[off[0]] + src[off[1]];
  }
}

// One thread per output element: for many outputs with short reductions.
template <class T>
__global__ void sum_per_thread_kernel(T* dst, const T* src, StridedIndex<2> kept,
                                      std::int64_t kept_count, StridedIndex<1> reduced,
                                      std::int64_t reduced_count) {
  using A = typename WideSumOf<T>::type;
  for (std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; i < kept_count;
       i += std::int64_t(gridDim.x) * blockDim.x) {
    std::int64_t off[2];
    offsets_of<2>(kept, i, off);
    A acc = zero<A>();
    for (std::int64_t j = 0; j < reduced_count; ++j) {
      std::int64_t r[1];
      offsets_of<1>(reduced, j, r);
      acc = acc + convert_element<A>(src[off[1] + r[0]]);
    }
    dst[off[0]] = convert_element<T>(acc);
  }
}

// One block per output element: for few outputs with long reductions (e.g. a full sum).
template <class T>
__global__ void sum_per_block_kernel(T* dst, const T* src, StridedIndex<2> kept,
                                     std::int64_t kept_count, StridedIndex<1> reduced,
                                     std::int64_t reduced_count) {
  using A = typename WideSumOf<T>::type;
  __shared__ A partial[kThreads];
  for (std::int64_t i = blockIdx.x; i < kept_count; i += gridDim.x) {
    std::int64_t off[2];
    offsets_of<2>(kept, i, off);
    A acc = zero<A>();
    for (std::int64_t j = threadIdx.x; j < reduced_count; j += blockDim.x) {
      std::int64_t r[1];
      offsets_of<1>(reduced, j, r);
      acc = acc + convert_element<A>(src[off[1] + r[0]]);
    }
    partial[threadIdx.x] = acc;
    __syncthreads();
    for (int width = kThreads / 2; width > 0; width /= 2) {
      if (threadIdx.x < width)
        partial[threadIdx.x] = partial[threadIdx.x] + partial[threadIdx.x + width];
      __syncthreads();
    }
    if (threadIdx.x == 0) dst[off[0]] = convert_element<T>(partial[0]);
    __syncthreads();  // partial[] is reused by the next output
  }
}

template <class F>
cudaError_t with_word(int bytes, F&& f) {
  switch (bytes) {
    case 4:
      return f(Word<4>::type{});
    case 8:
      return f(Word<8>::type{});
    case 16:
      return f(Word<16>::type{});
  }
  return cudaErrorInvalidValue;
}

}  // namespace

cudaError_t launch_copy(int element_bytes, void* dst, const void* src, const StridedIndex<2>& ix,
                        std::int64_t count, cudaStream_t stream) {
  if (count == 0) return cudaSuccess;
  return with_word(element_bytes, [&](auto w) {
    using W = decltype(w);
    copy_kernel<W><<<blocks_for(count), kThreads, 0, stream>>>(
        static_cast<W*>(dst), static_cast<const W*>(src), ix, count);
    return cudaGetLastError();
  });
}

cudaError_t launch_fill_zero(int element_bytes, void* dst, const StridedIndex<1>& ix,
                             std::int64_t count, cudaStream_t stream) {
  if (count == 0) return cudaSuccess;
  return with_word(element_bytes, [&](auto w) {
    using W = decltype(w);
    fill_zero_kernel<W>
        <<<blocks_for(count), kThreads, 0, stream>>>(static_cast<W*>(dst), ix, count);
    return cudaGetLastError();
  });
}

cudaError_t launch_multiply(Element element, void* dst, const void* a, const void* b,
                            const StridedIndex<3>& ix, std::int64_t count, cudaStream_t stream) {
  if (count == 0) return cudaSuccess;
  return with_element(element, [&](auto t) {
    using T = decltype(t);
    multiply_kernel<T><<<blocks_for(count), kThreads, 0, stream>>>(
        static_cast<T*>(dst), static_cast<const T*>(a), static_cast<const T*>(b), ix, count);
    return cudaGetLastError();
  });
}

cudaError_t launch_accumulate(Element element, void* dst, const void* src,
                              const StridedIndex<2>& ix, std::int64_t count, cudaStream_t stream) {
  if (count == 0) return cudaSuccess;
  return with_element(element, [&](auto t) {
    using T = decltype(t);
    accumulate_kernel<T><<<blocks_for(count), kThreads, 0, stream>>>(
        static_cast<T*>(dst), static_cast<const T*>(src), ix, count);
    return cudaGetLastError();
  });
}

cudaError_t launch_sum(Element element, void* dst, const void* src, const StridedIndex<2>& kept,
                       std::int64_t kept_count, const StridedIndex<1>& reduced,
                       std::int64_t reduced_count, cudaStream_t stream) {
  if (kept_count == 0) return cudaSuccess;
  return with_element(element, [&](auto t) {
    using T = decltype(t);
    // Few outputs with long reductions: a block each; otherwise a thread each.
    const bool per_block = kept_count < 8192 && reduced_count >= 512;
    if (per_block) {
      const auto blocks = static_cast<unsigned>(std::min<std::int64_t>(kept_count, 1 << 20));
      sum_per_block_kernel<T><<<blocks, kThreads, 0, stream>>>(static_cast<T*>(dst),
                                                               static_cast<const T*>(src), kept,
                                                               kept_count, reduced, reduced_count);
    } else {
      sum_per_thread_kernel<T><<<blocks_for(kept_count), kThreads, 0, stream>>>(
          static_cast<T*>(dst), static_cast<const T*>(src), kept, kept_count, reduced,
          reduced_count);
    }
    return cudaGetLastError();
  });
}

}  // namespace tenferro::cuda_kernels
