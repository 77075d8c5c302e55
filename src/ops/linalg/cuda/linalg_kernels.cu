#include <algorithm>

#include "backends/cuda/device_complex.cuh"
#include "backends/cuda/kernel_grid.cuh"
#include "ops/linalg/cuda/element_traits.cuh"
#include "ops/linalg/cuda/linalg_kernels.hpp"

namespace tenferro::cuda_kernels {
namespace {

template <class T>
__global__ void nonfinite_kernel(const T* data, std::int64_t count, std::int64_t batch_stride,
                                 std::int64_t batch, int* first_bad) {
  TENFERRO_GRID_LOOP(i, count * batch) {
    const std::int64_t b = i / count, e = i % count;
    if (!Traits<T>::finite(data[b * batch_stride + e])) atomicMin(first_bad, int(b));
  }
}

template <class T>
__global__ void upper_kernel(const T* src, std::int64_t ld, std::int64_t bs, T* dst,
                             std::int64_t rows, std::int64_t cols, std::int64_t batch) {
  TENFERRO_GRID_LOOP(idx, rows * cols * batch) {
    const std::int64_t i = idx % rows, j = (idx / rows) % cols, b = idx / (rows * cols);
    dst[idx] = i <= j ? src[b * bs + i + j * ld] : Traits<T>::zero();
  }
}

template <class T>
__global__ void adjoint_kernel(const T* src, std::int64_t ld, std::int64_t bs, T* dst,
                               std::int64_t rows, std::int64_t cols, std::int64_t batch) {
  TENFERRO_GRID_LOOP(idx, rows * cols * batch) {
    const std::int64_t i = idx % rows, j = (idx / rows) % cols, b = idx / (rows * cols);
    dst[idx] = Traits<T>::conj(src[b * bs + j + i * ld]);
  }
}

template <class T>
__global__ void positive_diagonal_kernel(T* q, std::int64_t m, std::int64_t q_cols, T* r,
                                         std::int64_t r_rows, std::int64_t n, std::int64_t k,
                                         std::int64_t batch) {
  TENFERRO_GRID_LOOP(idx, k * batch) {
    const std::int64_t j = idx % k, b = idx / k;
    T* rb = r + b * r_rows * n;
    T* qb = q + b * m * q_cols;
    const T diag = rb[j + j * r_rows];
    const auto mag = Traits<T>::abs(diag);
    if (mag == 0) continue;
    const T phase = Traits<T>::div_real(diag, mag);
    const T conj_phase = Traits<T>::conj(phase);
    for (std::int64_t c = j + 1; c < n; ++c)
      rb[j + c * r_rows] = Traits<T>::mul(rb[j + c * r_rows], conj_phase);
    rb[j + j * r_rows] = Traits<T>::from_real(mag);
    for (std::int64_t i = 0; i < m; ++i) qb[i + j * m] = Traits<T>::mul(qb[i + j * m], phase);
  }
}

template <class T>
__global__ void identity_kernel(T* dst, std::int64_t n, std::int64_t batch) {
  TENFERRO_GRID_LOOP(idx, n * n * batch) {
    const std::int64_t i = idx % n, j = (idx / n) % n;
    dst[idx] = i == j ? Traits<T>::one() : Traits<T>::zero();
  }
}

template <class T>
__global__ void nonfinite_triangle_kernel(const T* data, std::int64_t n, std::int64_t batch,
                                          bool lower, bool with_diagonal, int* first_bad) {
  TENFERRO_GRID_LOOP(idx, n * n * batch) {
    const std::int64_t i = idx % n, j = (idx / n) % n;
    const bool read = i == j ? with_diagonal : (lower ? i > j : i < j);
    if (read && !Traits<T>::finite(data[idx])) atomicMin(first_bad, int(idx / (n * n)));
  }
}

template <class T>
__global__ void zero_diagonal_kernel(const T* data, std::int64_t n, std::int64_t ld,
                                     std::int64_t batch_stride, std::int64_t batch, int* info,
                                     std::int64_t info_stride) {
  TENFERRO_GRID_LOOP(b, batch) {
    int first = 0;
    for (std::int64_t i = 0; i < n && first == 0; ++i)
      if (Traits<T>::abs(data[b * batch_stride + i + i * ld]) == 0) first = int(i) + 1;
    info[b * info_stride] = first;
  }
}

// L and U: one thread per element of the larger of the two; P: one thread per batch entry.
template <class T>
__global__ void lu_unpack_lu_kernel(const T* lu, std::int64_t m, std::int64_t n, std::int64_t k,
                                    std::int64_t batch, T* l, T* u) {
  TENFERRO_GRID_LOOP(idx, m * n * batch) {
    const std::int64_t i = idx % m, j = (idx / m) % n, b = idx / (m * n);
    const T v = lu[idx];
    if (j < k)
      l[b * m * k + i + j * m] = i > j ? v : (i == j ? Traits<T>::one() : Traits<T>::zero());
    if (i < k) u[b * k * n + i + j * k] = i <= j ? v : Traits<T>::zero();
  }
}

template <class T>
__global__ void lu_unpack_p_kernel(const int* ipiv, std::int64_t m, std::int64_t k,
                                   std::int64_t batch, T* p, int* perm) {
  TENFERRO_GRID_LOOP(b, batch) {
    int* pb = perm + b * m;
    for (std::int64_t i = 0; i < m; ++i) pb[i] = int(i);
    for (std::int64_t i = 0; i < k; ++i) {
      const int other = ipiv[b * k + i] - 1;
      const int t = pb[i];
      pb[i] = pb[other];
      pb[other] = t;
    }
    for (std::int64_t i = 0; i < m; ++i) p[b * m * m + pb[i] + i * m] = Traits<T>::one();
  }
}

template <class T>
__global__ void zero_strict_upper_kernel(T* data, std::int64_t n, std::int64_t batch) {
  TENFERRO_GRID_LOOP(idx, n * n * batch) {
    const std::int64_t i = idx % n, j = (idx / n) % n;
    if (i < j) data[idx] = Traits<T>::zero();
  }
}

// One thread per batch entry (n is small next to the O(n^3) factorisation before it).
template <class T>
__global__ void lu_determinants_kernel(const T* lu, const int* ipiv, std::int64_t n,
                                       std::int64_t batch, T* det, T* sign,
                                       typename Traits<T>::Real* logabs) {
  using R = typename Traits<T>::Real;
  TENFERRO_GRID_LOOP(b, batch) {
    T phase = Traits<T>::one(), product = Traits<T>::one();
    R log_sum = 0;
    for (std::int64_t i = 0; i < n; ++i) {
      const T diag = lu[b * n * n + i + i * n];
      const bool swapped = ipiv[b * n + i] - 1 != i;
      const T neg = Traits<T>::mul(diag, Traits<T>::from_real(R(-1)));
      product = Traits<T>::mul(product, swapped ? neg : diag);
      const R mag = Traits<T>::abs(diag);
      if (mag == 0) {
        phase = Traits<T>::zero();
        product = Traits<T>::zero();
        log_sum = -R(INFINITY);
        break;
      }
      phase = Traits<T>::mul(phase, Traits<T>::div_real(diag, mag));
      log_sum += log(mag);
      if (swapped) phase = Traits<T>::mul(phase, Traits<T>::from_real(R(-1)));
    }
    const R pm = Traits<T>::abs(phase);
    if (pm != 0) phase = Traits<T>::div_real(phase, pm);  // keep |sign| = 1 despite rounding
    if (det) det[b] = product;
    if (sign) sign[b] = phase;
    if (logabs) logabs[b] = log_sum;
  }
}

__global__ void fill_int_kernel(int* dst, std::int64_t count, int value) {
  TENFERRO_GRID_LOOP(i, count) {
    dst[i] = value;
  }
}

}  // namespace

cudaError_t launch_first_nonfinite(Element e, const void* data, std::int64_t count,
                                   std::int64_t batch_stride, std::int64_t batch, int* first_bad,
                                   cudaStream_t stream) {
  if (count * batch == 0) return cudaSuccess;
  return with_element(e, [&](auto t) {
    using T = decltype(t);
    nonfinite_kernel<T><<<grid_blocks_for(count * batch), kGridThreads, 0, stream>>>(
        static_cast<const T*>(data), count, batch_stride, batch, first_bad);
    return cudaGetLastError();
  });
}

cudaError_t launch_upper_triangle(Element e, const void* src, std::int64_t ld,
                                  std::int64_t batch_stride, void* dst, std::int64_t rows,
                                  std::int64_t cols, std::int64_t batch, cudaStream_t stream) {
  const std::int64_t total = rows * cols * batch;
  if (total == 0) return cudaSuccess;
  return with_element(e, [&](auto t) {
    using T = decltype(t);
    upper_kernel<T><<<grid_blocks_for(total), kGridThreads, 0, stream>>>(
        static_cast<const T*>(src), ld, batch_stride, static_cast<T*>(dst), rows, cols, batch);
    return cudaGetLastError();
  });
}

cudaError_t launch_adjoint(Element e, const void* src, std::int64_t ld, std::int64_t batch_stride,
                           void* dst, std::int64_t rows, std::int64_t cols, std::int64_t batch,
                           cudaStream_t stream) {
  const std::int64_t total = rows * cols * batch;
  if (total == 0) return cudaSuccess;
  return with_element(e, [&](auto t) {
    using T = decltype(t);
    adjoint_kernel<T><<<grid_blocks_for(total), kGridThreads, 0, stream>>>(
        static_cast<const T*>(src), ld, batch_stride, static_cast<T*>(dst), rows, cols, batch);
    return cudaGetLastError();
  });
}

cudaError_t launch_positive_diagonal(Element e, void* q, std::int64_t m, std::int64_t q_cols,
                                     void* r, std::int64_t r_rows, std::int64_t n, std::int64_t k,
                                     std::int64_t batch, cudaStream_t stream) {
  if (k * batch == 0) return cudaSuccess;
  return with_element(e, [&](auto t) {
    using T = decltype(t);
    positive_diagonal_kernel<T><<<grid_blocks_for(k * batch), kGridThreads, 0, stream>>>(
        static_cast<T*>(q), m, q_cols, static_cast<T*>(r), r_rows, n, k, batch);
    return cudaGetLastError();
  });
}

cudaError_t launch_identity(Element e, void* dst, std::int64_t n, std::int64_t batch,
                            cudaStream_t stream) {
  if (n * n * batch == 0) return cudaSuccess;
  return with_element(e, [&](auto t) {
    using T = decltype(t);
    identity_kernel<T><<<grid_blocks_for(n * n * batch), kGridThreads, 0, stream>>>(
        static_cast<T*>(dst), n, batch);
    return cudaGetLastError();
  });
}

cudaError_t launch_first_nonfinite_triangle(Element e, const void* data, std::int64_t n,
                                            std::int64_t batch, bool lower, bool with_diagonal,
                                            int* first_bad, cudaStream_t stream) {
  if (n * batch == 0) return cudaSuccess;
  return with_element(e, [&](auto t) {
    using T = decltype(t);
    nonfinite_triangle_kernel<T><<<grid_blocks_for(n * n * batch), kGridThreads, 0, stream>>>(
        static_cast<const T*>(data), n, batch, lower, with_diagonal, first_bad);
    return cudaGetLastError();
  });
}

cudaError_t launch_zero_diagonal_info(Element e, const void* data, std::int64_t n, std::int64_t ld,
                                      std::int64_t batch_stride, std::int64_t batch, int* info,
                                      std::int64_t info_stride, cudaStream_t stream) {
  if (batch == 0) return cudaSuccess;
  return with_element(e, [&](auto t) {
    using T = decltype(t);
    zero_diagonal_kernel<T><<<grid_blocks_for(batch), kGridThreads, 0, stream>>>(
        static_cast<const T*>(data), n, ld, batch_stride, batch, info, info_stride);
    return cudaGetLastError();
  });
}

cudaError_t launch_lu_unpack(Element e, const void* lu, const int* ipiv, std::int64_t m,
                             std::int64_t n, std::int64_t batch, void* p, void* l, void* u,
                             int* perm, cudaStream_t stream) {
  if (m * batch == 0) return cudaSuccess;
  const std::int64_t k = m < n ? m : n;
  return with_element(e, [&](auto t) {
    using T = decltype(t);
    if (m * n > 0) {
      lu_unpack_lu_kernel<T><<<grid_blocks_for(m * n * batch), kGridThreads, 0, stream>>>(
          static_cast<const T*>(lu), m, n, k, batch, static_cast<T*>(l), static_cast<T*>(u));
      if (cudaError_t err = cudaGetLastError(); err != cudaSuccess) return err;
    }
    lu_unpack_p_kernel<T><<<grid_blocks_for(batch), kGridThreads, 0, stream>>>(
        ipiv, m, k, batch, static_cast<T*>(p), perm);
    return cudaGetLastError();
  });
}

cudaError_t launch_zero_strict_upper(Element e, void* data, std::int64_t n, std::int64_t batch,
                                     cudaStream_t stream) {
  if (n * batch == 0) return cudaSuccess;
  return with_element(e, [&](auto t) {
    using T = decltype(t);
    zero_strict_upper_kernel<T><<<grid_blocks_for(n * n * batch), kGridThreads, 0, stream>>>(
        static_cast<T*>(data), n, batch);
    return cudaGetLastError();
  });
}

cudaError_t launch_lu_determinants(Element e, const void* lu, const int* ipiv, std::int64_t n,
                                   std::int64_t batch, void* det, void* sign, void* logabs,
                                   cudaStream_t stream) {
  if (batch == 0) return cudaSuccess;
  return with_element(e, [&](auto t) {
    using T = decltype(t);
    using R = typename Traits<T>::Real;
    lu_determinants_kernel<T><<<grid_blocks_for(batch), kGridThreads, 0, stream>>>(
        static_cast<const T*>(lu), ipiv, n, batch, static_cast<T*>(det), static_cast<T*>(sign),
        static_cast<R*>(logabs));
    return cudaGetLastError();
  });
}

cudaError_t launch_fill_int(int* dst, std::int64_t count, int value, cudaStream_t stream) {
  if (count == 0) return cudaSuccess;
  fill_int_kernel<<<grid_blocks_for(count), kGridThreads, 0, stream>>>(dst, count, value);
  return cudaGetLastError();
}

}  // namespace tenferro::cuda_kernels
