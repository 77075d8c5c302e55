// sinh and cosh for the AVX-512 kernels, from this folder's exp. SLEEF's took 1.4-1.9x
// NumPy's time on this machine.
//  - sinh |x| = e/2 - 1/(2e) with e = exp |x| from |x| = 1 (float64: 1.5) on (cancelling at
//    most 1.16-fold), and its odd Taylor series below (to x^13 in float32, x^21 in float64: the
//    first term left out is below 2^-40 / 2^-62 of the result); the sign is x's; a vector whose
//    lanes all take one form skips the other. float64's series reaches to 1.5 because between
//    e/2 = 2 (x = 1.386) and sinh x = 2 (x = 1.444) the result is a binade below e/2, whose error
//    then counts double: 3 ulp of libm there from 1 (an adversarial test found it). fdlibm's
//    (t + t/(t + 1))/2 on t = expm1 |x| before: 5% (float32) and 9% (float64) slower, with three
//    times as many float32 results beyond 1 ulp of libm.
//  - cosh x = e / 2 + 1 / (2e) with e = exp |x|: no cancellation.
// One template per function over lanes_avx512.hpp's lane types; the reciprocals by vrcp14 and
// Newton steps (reciprocal_avx512.hpp).
// Lanes from |x| = 709 on (float32: 88), where exp overflows before sinh and cosh do (710.48;
// 89.42), and the infinities are the C library's: simd_body.inc hands them to libm as it does
// SLEEF's (sleef_special_lanes_*); here they are clamped to 709 (88) so that the vector path
// stays finite. A NaN runs through the vector arithmetic as a NaN.
//
// Included only by simd_avx512.cpp (compiled with -mavx512f -mfma): everything here has internal
// linkage (see simd_body.inc on why).
#pragma once

#include <immintrin.h>

#include "ops/prims/cpu/simd/exp_table_avx512.hpp"
#include "ops/prims/cpu/simd/expm1_avx512.hpp"
#include "ops/prims/cpu/simd/lanes_avx512.hpp"
#include "ops/prims/cpu/simd/taylor_avx512.hpp"

namespace tenferro::prims_cpu::simd::isa {
namespace {

// The constants that differ between the precisions: where exp overflows first (the header
// comment), the series' last term, and the exp itself.
template <class L>
struct HyperbolicConstants;
template <>
struct HyperbolicConstants<LanesF64> {
  static constexpr double kClamp = 709.0;
  static constexpr double kSeriesBelow = 1.5;
  static constexpr int kLastTerm = 21;
  static __m512d exp(__m512d a) { return exp_table_pd(a); }
};
template <>
struct HyperbolicConstants<LanesF32> {
  static constexpr float kClamp = 88.0f;
  static constexpr float kSeriesBelow = 1.0f;
  static constexpr int kLastTerm = 13;
  static __m512 exp(__m512 a) { return exp_reduced_ps(a); }
};

template <class L>
typename L::V sinh_lanes(typename L::V x) {
  using V = typename L::V;
  using S = typename L::S;
  using C = HyperbolicConstants<L>;
  const V a = L::min(L::set1(C::kClamp), L::abs(x));  // keeps a NaN
  const typename L::M small = L::template cmp<_CMP_LT_OQ>(a, L::set1(C::kSeriesBelow));
  V magnitude = a;
  if (small != L::kAll) {  // From kSeriesBelow on: e/2 - 1/(2e), e = exp a.
    const V half_e = L::mul(C::exp(a), L::set1(S(0.5)));
    magnitude = L::fnmadd(L::reciprocal(half_e), L::set1(S(0.25)), half_e);
  }
  if (small != 0) {  // Below it: a + a^3 (1/3! + a^2 (1/5! + ...)), to a^kLastTerm.
    const V z = L::mul(a, a);
    static constexpr auto kTerms = inverse_factorials<S, C::kLastTerm, 3, 2>();
    V p = L::set1(kTerms[0]);
    for (std::size_t i = 1; i < kTerms.size(); ++i) p = L::fmadd(p, z, L::set1(kTerms[i]));
    magnitude = L::mask_mov(magnitude, small, L::fmadd(L::mul(a, z), p, a));
  }
  return L::or_bits(magnitude, L::and_bits(x, L::set1(S(-0.0))));
}

template <class L>
typename L::V cosh_lanes(typename L::V x) {
  using V = typename L::V;
  using S = typename L::S;
  using C = HyperbolicConstants<L>;
  const V a = L::min(L::set1(C::kClamp), L::abs(x));  // keeps a NaN
  const V half_e = L::mul(C::exp(a), L::set1(S(0.5)));
  return L::fmadd(L::reciprocal(half_e), L::set1(S(0.25)), half_e);
}

inline __m512d sinh_pd(__m512d x) {
  return sinh_lanes<LanesF64>(x);
}
inline __m512d cosh_pd(__m512d x) {
  return cosh_lanes<LanesF64>(x);
}
inline __m512 sinh_ps(__m512 x) {
  return sinh_lanes<LanesF32>(x);
}
inline __m512 cosh_ps(__m512 x) {
  return cosh_lanes<LanesF32>(x);
}

}  // namespace
}  // namespace tenferro::prims_cpu::simd::isa
