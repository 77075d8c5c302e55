// Argument mapping shared by the plain (linalg.cpp) and traced (ad_ops.cpp) linalg bindings.
#pragma once

#include <string>

#include "tenferro/linalg.hpp"

namespace tenferro::python {

// svd's cutoff_mode ('relative', 'absolute', 'relative_weight', 'absolute_weight').
linalg::CutoffKind cutoff_kind(const std::string& mode);

}  // namespace tenferro::python
