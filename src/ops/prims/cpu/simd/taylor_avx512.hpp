// Taylor coefficients for the AVX-512 kernels of this folder, computed at compile time (n! is
// exact in a double up to 18!, and 1/n! is then rounded once; float terms are the double's
// rounded, the same bits as 1.0f / n! up to 8!).
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

// 1/Last!, 1/(Last - Step)!, ..., 1/First! as S, highest first, for a Horner loop: Step 1 for
// exp's series, 2 for the odd (sinh, sin) and even (cos) ones; Alternating gives sin's and cos's
// signs, 1/n! negative where n/2 is odd. A constant: a loop calling inverse_factorial in a kernel
// body is not folded once it is long enough (sinh's 12 terms ran 8x slower).
template <class S, int Last, int First, int Step, bool Alternating = false>
constexpr std::array<S, (Last - First) / Step + 1> inverse_factorials() {
  std::array<S, (Last - First) / Step + 1> terms{};
  for (std::size_t i = 0; i < terms.size(); ++i) {
    const int n = Last - Step * static_cast<int>(i);
    const double v = inverse_factorial(n);
    terms[i] = static_cast<S>(Alternating && (n / 2) % 2 == 1 ? -v : v);
  }
  return terms;
}

}  // namespace
}  // namespace tenferro::prims_cpu::simd::isa
