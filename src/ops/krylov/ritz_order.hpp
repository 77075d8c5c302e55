// Ritz values ordered best first for a `which` code (SciPy's meaning).
#pragma once

#include <cstdint>
#include <vector>

#include "ops/krylov/vector_space.hpp"

namespace tenferro::krylov_internal {

std::vector<std::int64_t> ritz_order(const std::vector<cplx>& values, krylov::Which which);

}  // namespace tenferro::krylov_internal
