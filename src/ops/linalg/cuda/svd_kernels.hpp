// Device kernels of the CUDA SVD after cuSOLVER: the truncation rank (the rule of
// truncation_rule.hpp, evaluated on the device), the discarded weight, and the canonical gauge.
// Singular values are compact [k, batch] of the real dtype (`double_precision` picks F64).
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "backends/cuda/device_element.hpp"
#include "ops/linalg/truncation_rule.hpp"

namespace tenferro::cuda_kernels {

// *rank = max(*rank, rank of each batch entry under `rule`). *rank must start at 0.
cudaError_t launch_svd_common_rank(bool double_precision, const void* s, std::int64_t k,
                                   std::int64_t batch, linalg_internal::TruncationRule rule,
                                   int* rank, cudaStream_t stream);

// weight[b] = sum_{i >= rank} s[i, b]^2, accumulated in double.
cudaError_t launch_svd_discarded_weight(bool double_precision, const void* s, std::int64_t k,
                                        std::int64_t batch, std::int64_t rank, void* weight,
                                        cudaStream_t stream);

// For each of the first `cols` columns j of U (column-major [m, *], batch stride u_stride):
// the largest-magnitude entry (lowest index on ties) becomes real > 0 by scaling the column
// with conj(phase); row j of Vh (leading dimension vh_ld, n columns, batch stride vh_stride)
// is scaled by phase, so U diag(S) Vh is unchanged.
cudaError_t launch_svd_canonical_gauge(Element e, void* u, std::int64_t m, std::int64_t u_stride,
                                       void* vh, std::int64_t vh_ld, std::int64_t n,
                                       std::int64_t vh_stride, std::int64_t cols,
                                       std::int64_t batch, cudaStream_t stream);

}  // namespace tenferro::cuda_kernels
