#include "ops/krylov/solve_common.hpp"

#include <cmath>

#include "tenferro/prims.hpp"

namespace tenferro::krylov_internal {

SolveSetup solve_setup(const std::string& op, const krylov::LinearOperator& a, const EagerTensor& b,
                       const krylov::SolveOptions& options) {
  if (!b.defined()) throw_validation(op, "b is an empty handle");
  if (!(options.rtol >= 0) || !(options.atol >= 0) || options.maxiter < 0) {
    throw_validation(op, "rtol, atol and maxiter must be >= 0");
  }
  DType dtype = b.dtype();
  if (options.x0 && is_complex(options.x0->dtype())) dtype = complex_dtype(dtype);
  SolveSetup s;
  s.space = std::make_unique<VectorSpace>(op, a, b, dtype);
  s.b = s.space->flat(b, "b");
  if (options.x0) {
    s.x = s.space->flat(*options.x0, "x0");
    s.x_is_zero = false;
  } else {
    s.x = prims::zeros(s.space->runtime(), dtype, Shape{s.space->dim()});
  }
  s.b_norm = s.space->norm(s.b);
  s.target = std::max(options.rtol * s.b_norm, options.atol);
  return s;
}

}  // namespace tenferro::krylov_internal
