// Taylor coefficients for the AVX-512 kernels of this folder, computed at compile time (n! is
// exact in a double up to 18!, and 1/n! is then rounded once).
//
// Included only by simd_avx512.cpp's kernel headers: everything here has internal linkage (see
// simd_body.inc on why).
#pragma once

#include <array>

namespace tenferro::prims_cpu::simd::isa {
namespace {

constexpr double inverse_factorial(int n) {
  double f = 1;
  for (int i = 2; i <= n; ++i) f *= i;
  return 1 / f;
}

// 1/Last!, 1/(Last - 2)!, ..., 1/3! (Last odd) as S: the odd series' coefficients, highest
// first, for a Horner loop. A constant: a loop calling inverse_factorial in a kernel body is not
// folded once it is long enough (sinh's 12 terms ran 8x slower).
template <class S, int Last>
constexpr std::array<S, (Last - 1) / 2> odd_inverse_factorials() {
  std::array<S, (Last - 1) / 2> terms{};
  for (int i = 0; i < (Last - 1) / 2; ++i)
    terms[i] = static_cast<S>(inverse_factorial(Last - 2 * i));
  return terms;
}

}  // namespace
}  // namespace tenferro::prims_cpu::simd::isa
