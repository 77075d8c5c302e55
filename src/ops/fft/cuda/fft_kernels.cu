#include <algorithm>

#include "ops/fft/cuda/fft_kernels.hpp"

namespace tenferro::cuda_kernels {
namespace {

constexpr int kThreads = 256;

template <class R>
__global__ void real_to_complex_kernel(R* dst, const R* src, StridedIndex<2> ix,
                                       std::int64_t count) {
  for (std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; i < count;
       i += std::int64_t(gridDim.x) * blockDim.x) {
    std::int64_t rest = i, d_off = 0, s_off = 0;
    for (int a = 0; a < ix.rank; ++a) {
      const std::int64_t q = rest % ix.extent[a];
      rest /= ix.extent[a];
      d_off += q * ix.stride[0][a];
      s_off += q * ix.stride[1][a];
    }
    dst[2 * d_off] = src[s_off];  // element offsets: a complex element is two reals
    dst[2 * d_off + 1] = R(0);
  }
}

}  // namespace

cudaError_t launch_real_to_complex(bool double_precision, void* dst, const void* src,
                                   const StridedIndex<2>& ix, std::int64_t count,
                                   cudaStream_t stream) {
  if (count == 0) return cudaSuccess;
  const auto blocks =
      static_cast<unsigned>(std::min<std::int64_t>((count + kThreads - 1) / kThreads, 1 << 20));
  if (double_precision) {
    real_to_complex_kernel<double><<<blocks, kThreads, 0, stream>>>(
        static_cast<double*>(dst), static_cast<const double*>(src), ix, count);
  } else {
    real_to_complex_kernel<float><<<blocks, kThreads, 0, stream>>>(
        static_cast<float*>(dst), static_cast<const float*>(src), ix, count);
  }
  return cudaGetLastError();
}

}  // namespace tenferro::cuda_kernels
