// Long einsum sums checked against a compensated double-precision reference, shared by the
// CPU suite (tests/einsum/long_sums_test.cpp) and the CUDA one (tests/cuda/einsum_cuda_test.cpp):
// a label summed away ("i->", "ij->i" with either axis contiguous, "ijk->j", "ij->") over 2^18
// to 2^22 terms of every dtype. Per output element the tolerance is
//   |got - want| <= 4 sqrt(n) eps sqrt(sum of |term|^2)      (eps of the dtype, n terms)
// which is a few roundings of the result for these inputs (uniform in [-0.5, 1.5], mean 0.5):
// a running sum in the element type, whose error grows like n eps |result| for terms of one
// sign, fails it.
#pragma once

#include <memory>

#include "tenferro/core/tensor.hpp"
#include "tenferro/runtime/runtime.hpp"

namespace tenferro::testing {

// Values uniform in [-0.5, 1.5] (both parts for complex dtypes), seeded: a nonzero mean, so that
// accumulated rounding shows, and varied, so that a sum cannot be right by counting alone.
Tensor nonzero_mean_tensor(DType dtype, const Shape& shape, unsigned seed);

// Runs every case on `runtime` (uploading the inputs there, downloading the results) for each
// of `dtypes`, adding a gtest failure per output element out of tolerance (three at most per
// case).
void check_long_sums(const std::shared_ptr<EagerRuntime>& runtime,
                     std::initializer_list<DType> dtypes);

}  // namespace tenferro::testing
