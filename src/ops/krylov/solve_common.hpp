// What gmres and cg share: the checks of b and x0, the working vectors and the target residual.
#pragma once

#include <memory>
#include <string>

#include "ops/krylov/vector_space.hpp"

namespace tenferro::krylov_internal {

struct SolveSetup {
  std::unique_ptr<VectorSpace> space;
  EagerTensor b;  // flat
  EagerTensor x;  // flat start (zeros without x0)
  bool x_is_zero = true;
  double b_norm = 0;
  double target = 0;  // max(rtol ||b||, atol)
};

SolveSetup solve_setup(const std::string& op, const krylov::LinearOperator& a, const EagerTensor& b,
                       const krylov::SolveOptions& options);

}  // namespace tenferro::krylov_internal
