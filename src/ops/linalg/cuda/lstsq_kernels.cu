#include "backends/cuda/device_complex.cuh"
#include "backends/cuda/kernel_grid.cuh"
#include "ops/linalg/cuda/element_traits.cuh"
#include "ops/linalg/cuda/lstsq_kernels.hpp"

namespace tenferro::cuda_kernels {
namespace {

// One thread per batch entry. The maximum is taken over all k values rather than read from
// s[0], so the cut does not depend on the solver returning them sorted; the rank counts every
// kept value for the same reason.
template <class R>
__global__ void lstsq_rank_kernel(const R* s, std::int64_t k, std::int64_t batch, R rcond,
                                  R* cutoff, R* rank) {
  TENFERRO_GRID_LOOP(b, batch) {
    const R* sb = s + b * k;
    R top = R(0);
    for (std::int64_t i = 0; i < k; ++i) top = sb[i] > top ? sb[i] : top;
    const R cut = rcond * top;
    std::int64_t kept = 0;
    for (std::int64_t i = 0; i < k; ++i) kept += sb[i] > cut ? 1 : 0;
    cutoff[b] = cut;
    rank[b] = static_cast<R>(kept);
  }
}

template <class T>
__global__ void lstsq_scale_kernel(T* c, const typename Traits<T>::Real* s,
                                   const typename Traits<T>::Real* cutoff, std::int64_t k,
                                   std::int64_t nrhs, std::int64_t batch) {
  TENFERRO_GRID_LOOP(idx, k * nrhs * batch) {
    const std::int64_t i = idx % k, b = idx / (k * nrhs);
    const auto si = s[b * k + i];
    c[idx] = si > cutoff[b] ? Traits<T>::div_real(c[idx], si) : Traits<T>::zero();
  }
}

}  // namespace

cudaError_t launch_lstsq_rank(bool double_precision, const void* s, std::int64_t k,
                              std::int64_t batch, double rcond, void* cutoff, void* rank,
                              cudaStream_t stream) {
  if (batch == 0) return cudaSuccess;
  if (double_precision) {
    lstsq_rank_kernel<double><<<grid_blocks_for(batch), kGridThreads, 0, stream>>>(
        static_cast<const double*>(s), k, batch, rcond, static_cast<double*>(cutoff),
        static_cast<double*>(rank));
  } else {
    lstsq_rank_kernel<float><<<grid_blocks_for(batch), kGridThreads, 0, stream>>>(
        static_cast<const float*>(s), k, batch, static_cast<float>(rcond),
        static_cast<float*>(cutoff), static_cast<float*>(rank));
  }
  return cudaGetLastError();
}

cudaError_t launch_lstsq_scale(Element e, void* c, const void* s, const void* cutoff,
                               std::int64_t k, std::int64_t nrhs, std::int64_t batch,
                               cudaStream_t stream) {
  if (k * nrhs * batch == 0) return cudaSuccess;
  return with_element(e, [&](auto t) {
    using T = decltype(t);
    using R = typename Traits<T>::Real;
    lstsq_scale_kernel<T><<<grid_blocks_for(k * nrhs * batch), kGridThreads, 0, stream>>>(
        static_cast<T*>(c), static_cast<const R*>(s), static_cast<const R*>(cutoff), k, nrhs,
        batch);
    return cudaGetLastError();
  });
}

}  // namespace tenferro::cuda_kernels
