// The Where prim: dst = cond != 0 ? a : b over strided views (operands already broadcast to
// the output's shape). The branch not chosen is never read into dst, so its Inf/NaN cannot
// leak; a NaN condition is nonzero, a complex one when either part is.
#include "ops/prims/cuda/element_ops.cuh"

namespace tenferro::cuda_kernels::prims {
namespace {

template <class T>
__device__ __forceinline__ bool nonzero(T c) {
  if constexpr (kIsComplex<T>) {
    return c.re != 0 || c.im != 0;
  } else {
    return c != 0;
  }
}

template <class T>
__global__ void select_kernel(T* dst, const T* cond, const T* a, const T* b, Index<4> ix,
                              std::int64_t count) {
  TENFERRO_GRID_LOOP(i, count) {
    std::int64_t off[4];
    offsets_of<4>(ix, i, off);
    dst[off[0]] = nonzero(cond[off[1]]) ? a[off[2]] : b[off[3]];
  }
}

}  // namespace

cudaError_t launch_select(Element in, void* dst, const void* cond, const void* a, const void* b,
                          const Index<4>& ix, std::int64_t count, cudaStream_t stream) {
  if (count == 0) return cudaSuccess;
  return with_element(in, [&](auto tag) -> cudaError_t {
    using T = decltype(tag);
    select_kernel<T><<<elementwise_blocks(count), kGridThreads, 0, stream>>>(
        static_cast<T*>(dst), static_cast<const T*>(cond), static_cast<const T*>(a),
        static_cast<const T*>(b), ix, count);
    return cudaGetLastError();
  });
}

}  // namespace tenferro::cuda_kernels::prims
