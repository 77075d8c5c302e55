#include <utility>

#include "tenferro/krylov.hpp"

namespace tenferro::krylov {

NotConvergedError::NotConvergedError(std::string op, std::string message,
                                     std::vector<EagerTensor> best,
                                     std::vector<double> residual_norms)
    : Error(ErrorKind::Numerical, ErrorPhase::Execute, std::move(op), std::move(message)),
      best_(std::move(best)),
      residual_norms_(std::move(residual_norms)) {}

}  // namespace tenferro::krylov
