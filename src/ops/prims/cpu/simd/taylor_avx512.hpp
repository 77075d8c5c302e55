// Taylor coefficients for the AVX-512 kernels of this folder, computed at compile time (n! is
// exact in a double up to 18!, and 1/n! is then rounded once).
//
// Included only by simd_avx512.cpp's kernel headers: everything here has internal linkage (see
// simd_body.inc on why).
#pragma once

namespace tenferro::prims_cpu::simd::isa {
namespace {

constexpr double inverse_factorial(int n) {
  double f = 1;
  for (int i = 2; i <= n; ++i) f *= i;
  return 1 / f;
}

}  // namespace
}  // namespace tenferro::prims_cpu::simd::isa
