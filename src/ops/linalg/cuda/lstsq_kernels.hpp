// Device kernels of the CUDA lstsq between its two GEMMs: the rank-revealing cut of the
// singular values (gelsd's rule: s_i <= rcond * s_max counts as zero) and the scaling of
// U^H B by the kept 1 / s_i. Singular values are compact [k, batch] of the real dtype.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "backends/cuda/device_element.hpp"

namespace tenferro::cuda_kernels {

// Per batch entry b: cutoff[b] = rcond * max_i s[i, b] and rank[b] = the number of s[i, b] >
// cutoff[b], stored as a real value. rcond is rounded to the real dtype first, as the CPU
// hands it to gelsd. `double_precision` picks F64 for s, cutoff and rank (else F32).
cudaError_t launch_lstsq_rank(bool double_precision, const void* s, std::int64_t k,
                              std::int64_t batch, double rcond, void* cutoff, void* rank,
                              cudaStream_t stream);

// c (compact [k, nrhs, batch], element type e) row i of entry b becomes c[i, :, b] / s[i, b]
// when s[i, b] > cutoff[b], else zero: diag(1/s, cut) applied to U^H B.
cudaError_t launch_lstsq_scale(Element e, void* c, const void* s, const void* cutoff,
                               std::int64_t k, std::int64_t nrhs, std::int64_t batch,
                               cudaStream_t stream);

}  // namespace tenferro::cuda_kernels
