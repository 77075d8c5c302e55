// The scan prims kernel: cumsum and cumprod along one axis (kernel_calls.hpp's ScanCall). One
// block per line (a grid-stride loop over lines): the line is walked in chunks of kScanThreads
// x kScanPer elements; each thread folds its kScanPer elements, the block scans those folds in
// shared memory, each thread writes its running sums (products) onto the carry of the chunks
// before, and the chunk's total joins the carry. Accumulation is in double (double complex for
// complex inputs) whatever the input precision, each output rounded once, as the CPU kernel; no
// atomics, so the result is deterministic.
#include <algorithm>

#include "ops/prims/cuda/element_ops.cuh"

namespace tenferro::cuda_kernels::prims {
namespace {

constexpr int kScanThreads = 256;
constexpr int kScanPer = 8;

// A running sum or product in double precision; real inputs use `re` only.
struct RunningSum {
  double re, im;
};

template <PrimKind Op>
__device__ __forceinline__ RunningSum joined(RunningSum a, RunningSum b) {
  if constexpr (Op == PrimKind::CumProd) {
    return {a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re};
  } else {
    return {a.re + b.re, a.im + b.im};
  }
}
template <PrimKind Op>
__device__ __forceinline__ RunningSum identity() {
  return {Op == PrimKind::CumProd ? 1.0 : 0.0, 0.0};
}

template <class T>
__device__ __forceinline__ RunningSum widened(T x) {
  if constexpr (kIsComplex<T>) {
    return {static_cast<double>(x.re), static_cast<double>(x.im)};
  } else {
    return {static_cast<double>(x), 0.0};
  }
}

template <class T>
__device__ __forceinline__ T rounded(RunningSum s) {
  if constexpr (kIsComplex<T>) {
    using R = RealOf<T>;
    return T{static_cast<R>(s.re), static_cast<R>(s.im)};
  } else {
    return static_cast<T>(s.re);
  }
}

// `lines` indexes dst (operand 0) and src (operand 1) at each line's first element; the line
// has n elements dst_step and src_step apart.
template <PrimKind Op, class T>
__global__ void scan_kernel(T* dst, const T* src, Index<2> lines, std::int64_t line_count,
                            std::int64_t n, std::int64_t dst_step, std::int64_t src_step) {
  __shared__ RunningSum sums[kScanThreads];
  const int t = threadIdx.x;
  const RunningSum zero = identity<Op>();
  for (std::int64_t line = blockIdx.x; line < line_count; line += gridDim.x) {
    std::int64_t off[2];
    offsets_of(lines, line, off);
    T* y = dst + off[0];
    const T* x = src + off[1];
    RunningSum carry = zero;
    for (std::int64_t first = 0; first < n; first += kScanThreads * kScanPer) {
      const std::int64_t mine = first + std::int64_t(t) * kScanPer;
      RunningSum own = zero;
      for (int k = 0; k < kScanPer; ++k) {
        if (mine + k < n) own = joined<Op>(own, widened(x[(mine + k) * src_step]));
      }
      sums[t] = own;
      __syncthreads();
      for (int s = 1; s < kScanThreads; s *= 2) {
        const RunningSum before = t >= s ? sums[t - s] : zero;
        __syncthreads();
        sums[t] = joined<Op>(sums[t], before);
        __syncthreads();
      }
      RunningSum running = t > 0 ? joined<Op>(carry, sums[t - 1]) : carry;
      for (int k = 0; k < kScanPer; ++k) {
        if (mine + k < n) {
          running = joined<Op>(running, widened(x[(mine + k) * src_step]));
          y[(mine + k) * dst_step] = rounded<T>(running);
        }
      }
      carry = joined<Op>(carry, sums[kScanThreads - 1]);
      __syncthreads();  // the next chunk rewrites sums
    }
  }
}

}  // namespace

cudaError_t launch_scan(PrimKind op, Element in, void* dst, const void* src, const Index<2>& lines,
                        std::int64_t line_count, std::int64_t n, std::int64_t dst_step,
                        std::int64_t src_step, cudaStream_t stream) {
  if (!scan_runs(op, in)) return cudaErrorInvalidValue;
  if (line_count == 0 || n == 0) return cudaSuccess;
  return with_element(in, [&](auto tag) -> cudaError_t {
    using T = decltype(tag);
    const auto blocks =
        static_cast<unsigned>(std::min<std::int64_t>(line_count, std::int64_t{1} << 20));
    auto* y = static_cast<T*>(dst);
    const auto* x = static_cast<const T*>(src);
    if (op == PrimKind::CumProd) {
      scan_kernel<PrimKind::CumProd, T>
          <<<blocks, kScanThreads, 0, stream>>>(y, x, lines, line_count, n, dst_step, src_step);
    } else {
      scan_kernel<PrimKind::CumSum, T>
          <<<blocks, kScanThreads, 0, stream>>>(y, x, lines, line_count, n, dst_step, src_step);
    }
    return cudaGetLastError();
  });
}

}  // namespace tenferro::cuda_kernels::prims
