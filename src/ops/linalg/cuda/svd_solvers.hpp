// The untruncated CUDA SVD: which cuSOLVER driver runs for which shape, queued on the call's
// stream with one info slot per batch entry. Truncation and gauge are applied afterwards by
// svd.cpp on these factors.
#pragma once

#include <cstdint>
#include <vector>

#include "ops/linalg/cuda/cuda_linalg_call.hpp"

namespace tenferro::linalg_cuda {

struct SvdDims {
  std::int64_t m = 0, n = 0, k = 0, batch = 0;
  bool uv = true, full = false;
  std::int64_t u_cols() const { return full ? m : k; }
  std::int64_t vh_rows() const { return full ? n : k; }
};

// Device buffers the solver fills: s [k, batch] (real), and with uv u [m, u_cols, batch] and
// vh [vh_rows, n, batch], all compact.
template <class T>
struct SvdTargets {
  typename Types<T>::Real* s = nullptr;
  T* u = nullptr;
  T* vh = nullptr;
};

// Driver choice, by shape:
//  - JacobiBatched: both extents <= 32; gesvdjBatched, one launch for the whole batch;
//  - Gesvd: min(m, n) >= kGesvdMinExtent; gesvd (QR iteration) per entry, on A^H when m < n
//    since cuSOLVER's gesvd needs m >= n: Jacobi sweeps cost more than bidiagonalisation there;
//  - Jacobi: otherwise, gesvdj per entry (econ for the thin SVD).
enum class SvdDriver { JacobiBatched, Jacobi, Gesvd };
inline constexpr std::int64_t kBatchedJacobiMaxExtent = 32;
inline constexpr std::int64_t kGesvdMinExtent = 512;
SvdDriver svd_driver(const SvdDims& dims);
const char* driver_name(SvdDriver driver);

// Queues the SVD of the compact [m, n, batch] `a` (overwritten). info of entry b goes to
// status.info(b). Returns the routine name for messages.
template <class T>
const char* queue_svd(const CudaCall& call, const SvdDims& dims, T* a, const SvdTargets<T>& out,
                      const DeviceStatus& status, const JacobiParams& params);

// After the status read-back: info[b] (b < batch) of the queued SVD; a negative value is an
// internal argument error, a positive one a Numerical error (no convergence) naming entry b.
void check_svd_info(const CudaCall& call, const std::vector<int>& info, std::int64_t batch,
                    const Shape& batch_shape, const char* routine);

}  // namespace tenferro::linalg_cuda
