// Batched-matrix helpers on AD variables ([m, n, batch...]) shared by the linalg gradient
// tests, so that the losses of ad_linalg_test and ad_complement_test are built from one
// definition of the adjoint and the product.
#pragma once

#include "ad/gradcheck.hpp"

namespace tenferro::ad_test {

// The conjugate transpose of every matrix in the batch.
inline ad::Variable adjoint(const ad::Variable& x) {
  return ad::conj(ad::transpose(x, 0, 1));
}

// The matrix product of every pair in the batch.
inline ad::Variable matmul(const ad::Variable& a, const ad::Variable& b) {
  return ad::einsum("ij...,jk...->ik...", {a, b});
}

}  // namespace tenferro::ad_test
