// What the Krylov AD rules (rules_krylov.cpp, rules_krylov_expm.cpp) share: the user's operator
// on Variables as a plain krylov::LinearOperator.
#pragma once

#include "ad/tape.hpp"
#include "tenferro/krylov.hpp"

namespace tenferro::ad {

// The operator on plain tensors, recording nothing (for the solvers and inside rules).
inline krylov::LinearOperator untracked(const VariableOperator& a) {
  return [a](const EagerTensor& x) {
    NoGradGuard guard;
    return a(Variable(x)).value();
  };
}

}  // namespace tenferro::ad
