// The solvers' view of an operator's vector space: the start vector's runtime, dtype and shape,
// vectors kept flat ([N], compact) on that runtime, the validated matvec, and the only two
// crossings between device and host that the solvers make: counted scalar reads and writes.
#pragma once

#include <complex>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "tenferro/krylov.hpp"

namespace tenferro::krylov_internal {

using cplx = std::complex<double>;
using krylov::LinearOperator;

class VectorSpace {
 public:
  // Validates `like` (defined, one of the four dtypes, at least one element) and keeps its
  // shape; `dtype` is the working dtype (like's, or its complex twin for eigs).
  VectorSpace(std::string op, LinearOperator a, const EagerTensor& like, DType dtype);

  const std::string& op() const noexcept { return op_; }
  std::int64_t dim() const noexcept { return dim_; }
  DType dtype() const noexcept { return dtype_; }
  bool complex() const noexcept;
  double eps() const noexcept;  // the working dtype's machine epsilon
  const std::shared_ptr<EagerRuntime>& runtime() const noexcept { return runtime_; }
  std::int64_t matvecs() const noexcept { return matvecs_; }

  // A user tensor of the operator's shape as a flat working vector (cast to the working dtype;
  // a Validation error naming `what` when its runtime or shape differ).
  EagerTensor flat(const EagerTensor& x, const char* what) const;
  // A flat vector back in the operator's shape (a view).
  EagerTensor shaped(const EagerTensor& v) const;
  // A v: the operator on the shaped vector, checked (same runtime, shape and dtype) before its
  // result is used, then flattened.
  EagerTensor apply(const EagerTensor& v);

  // Reads a small tensor's values to the host: one counted scalar read. Non-finite values are
  // a Numerical error (an operator that produced Inf/NaN).
  std::vector<cplx> read(const EagerTensor& t) const;
  // ||v|| by one read.
  double norm(const EagerTensor& v) const;
  // A column-major [rows, cols] coefficient matrix in the working dtype on the runtime: one
  // counted scalar write (imaginary parts are dropped for a real dtype).
  EagerTensor write(std::span<const cplx> values, std::int64_t rows, std::int64_t cols) const;
  // A random flat vector made on the device (Philox, so the same seed gives the same vector).
  EagerTensor random_vector(std::uint64_t seed) const;

 private:
  std::string op_;
  LinearOperator a_;
  std::shared_ptr<EagerRuntime> runtime_;
  Shape shape_;
  DType dtype_;
  std::int64_t dim_ = 0;
  std::int64_t matvecs_ = 0;
};

}  // namespace tenferro::krylov_internal
