#include "backends/cuda/kernel_grid.cuh"
#include "ops/linalg/cuda/element_traits.cuh"
#include "ops/linalg/cuda/svd_kernels.hpp"

namespace tenferro::cuda_kernels {
namespace {

// One thread per batch entry: the rule walks that entry's k values serially, exactly as the
// CPU executor does, so both backends keep the same rank for the same spectrum.
template <class R>
__global__ void common_rank_kernel(const R* s, std::int64_t k, std::int64_t batch,
                                   linalg_internal::TruncationRule rule, int* rank) {
  TENFERRO_GRID_LOOP(b, batch) {
    const std::int64_t r = linalg_internal::truncated_rank(s + b * k, k, rule);
    atomicMax(rank, static_cast<int>(r));
  }
}

template <class R>
__global__ void discarded_weight_kernel(const R* s, std::int64_t k, std::int64_t batch,
                                        std::int64_t rank, R* weight) {
  TENFERRO_GRID_LOOP(b, batch) {
    double dropped = 0;
    for (std::int64_t i = rank; i < k; ++i) {
      dropped =
          linalg_internal::rule_detail::add_square(dropped, static_cast<double>(s[b * k + i]));
    }
    weight[b] = static_cast<R>(dropped);
  }
}

// One block per (column, batch entry): a block-wide arg-max of |U[:, j]|, then the whole
// block rescales the column and the matching Vh row.
template <class T>
__global__ void canonical_gauge_kernel(T* u, std::int64_t m, std::int64_t u_stride, T* vh,
                                       std::int64_t vh_ld, std::int64_t n, std::int64_t vh_stride,
                                       std::int64_t cols, std::int64_t batch) {
  using R = typename Traits<T>::Real;
  __shared__ R best_mag[kGridThreads];
  __shared__ std::int64_t best_at[kGridThreads];
  __shared__ T phase;
  const int tid = threadIdx.x;
  for (std::int64_t job = blockIdx.x; job < cols * batch; job += gridDim.x) {
    const std::int64_t j = job % cols, b = job / cols;
    T* col = u + b * u_stride + j * m;
    R mag = R(-1);
    std::int64_t at = m;
    for (std::int64_t i = tid; i < m; i += blockDim.x) {  // ascending i: first maximum kept
      const R a = Traits<T>::abs(col[i]);
      if (a > mag) {
        mag = a;
        at = i;
      }
    }
    best_mag[tid] = mag;
    best_at[tid] = at;
    __syncthreads();
    for (int width = blockDim.x / 2; width > 0; width /= 2) {
      if (tid < width) {
        const R other = best_mag[tid + width];
        const std::int64_t other_at = best_at[tid + width];
        if (other > best_mag[tid] || (other == best_mag[tid] && other_at < best_at[tid])) {
          best_mag[tid] = other;
          best_at[tid] = other_at;
        }
      }
      __syncthreads();
    }
    const R top = best_mag[0];
    const std::int64_t top_at = best_at[0];
    if (tid == 0 && top > R(0)) phase = Traits<T>::div_real(col[top_at], top);
    __syncthreads();
    if (top > R(0)) {  // the same decision in every thread of the block
      const T p = phase, p_conj = Traits<T>::conj(phase);
      for (std::int64_t i = tid; i < m; i += blockDim.x) {
        col[i] = i == top_at ? Traits<T>::from_real(top) : Traits<T>::mul(col[i], p_conj);
      }
      T* row = vh + b * vh_stride + j;
      for (std::int64_t c = tid; c < n; c += blockDim.x)
        row[c * vh_ld] = Traits<T>::mul(row[c * vh_ld], p);
    }
    __syncthreads();  // the shared slots are reused by the next job
  }
}

unsigned job_blocks(std::int64_t jobs) {
  return static_cast<unsigned>(jobs < (std::int64_t{1} << 20) ? jobs : (std::int64_t{1} << 20));
}

}  // namespace

cudaError_t launch_svd_common_rank(bool double_precision, const void* s, std::int64_t k,
                                   std::int64_t batch, linalg_internal::TruncationRule rule,
                                   int* rank, cudaStream_t stream) {
  if (batch == 0) return cudaSuccess;
  if (double_precision) {
    common_rank_kernel<double><<<grid_blocks_for(batch), kGridThreads, 0, stream>>>(
        static_cast<const double*>(s), k, batch, rule, rank);
  } else {
    common_rank_kernel<float><<<grid_blocks_for(batch), kGridThreads, 0, stream>>>(
        static_cast<const float*>(s), k, batch, rule, rank);
  }
  return cudaGetLastError();
}

cudaError_t launch_svd_discarded_weight(bool double_precision, const void* s, std::int64_t k,
                                        std::int64_t batch, std::int64_t rank, void* weight,
                                        cudaStream_t stream) {
  if (batch == 0) return cudaSuccess;
  if (double_precision) {
    discarded_weight_kernel<double><<<grid_blocks_for(batch), kGridThreads, 0, stream>>>(
        static_cast<const double*>(s), k, batch, rank, static_cast<double*>(weight));
  } else {
    discarded_weight_kernel<float><<<grid_blocks_for(batch), kGridThreads, 0, stream>>>(
        static_cast<const float*>(s), k, batch, rank, static_cast<float*>(weight));
  }
  return cudaGetLastError();
}

cudaError_t launch_svd_canonical_gauge(Element e, void* u, std::int64_t m, std::int64_t u_stride,
                                       void* vh, std::int64_t vh_ld, std::int64_t n,
                                       std::int64_t vh_stride, std::int64_t cols,
                                       std::int64_t batch, cudaStream_t stream) {
  if (cols * batch == 0) return cudaSuccess;
  return with_element(e, [&](auto t) {
    using T = decltype(t);
    canonical_gauge_kernel<T><<<job_blocks(cols * batch), kGridThreads, 0, stream>>>(
        static_cast<T*>(u), m, u_stride, static_cast<T*>(vh), vh_ld, n, vh_stride, cols, batch);
    return cudaGetLastError();
  });
}

}  // namespace tenferro::cuda_kernels
