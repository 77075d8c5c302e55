// A residual or tolerance for a message: std::to_string's fixed notation prints 1e-16 as
// "0.000000", which makes a message about tiny residuals say nothing.
#pragma once

#include <cstdio>
#include <string>

namespace tenferro::krylov_internal {

inline std::string scientific(double x) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3g", x);
  return text;
}

}  // namespace tenferro::krylov_internal
