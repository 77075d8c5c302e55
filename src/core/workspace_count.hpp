// A LAPACK or ScaLAPACK workspace query's answer as a count. The drivers return it in the
// matrix's element type, so a single-precision answer above 2^24 is rounded, possibly down, and
// an LWORK one short is rejected: it is rounded up by the float's relative spacing first, as
// LAPACK's own sroundup_lwork does (ScaLAPACK 2.2 does not), plus one.
#pragma once

#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>

namespace tenferro {

template <typename T>
std::int64_t workspace_count(T answer) {
  using R = decltype(std::real(answer));
  const double value = static_cast<double>(std::real(answer));
  return static_cast<std::int64_t>(std::ceil(value * (1 + 2 * std::numeric_limits<R>::epsilon()))) +
         1;
}

}  // namespace tenferro
