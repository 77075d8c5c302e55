// sinh and cosh for the AVX-512 kernels, from this folder's exp. SLEEF's took 1.4-1.9x
// NumPy's time on this machine.
// float64 (sinh_pd, cosh_pd):
//  - sinh |x| = e/2 - 1/(2e) with e = exp |x| from |x| = 1.5 on (cancelling at most 1.16-fold),
//    and its odd Taylor series below (to x^21: the first term left out is below 2^-62 of the
//    result); the sign is x's; a vector whose lanes all take one form skips the other. The series
//    reaches to 1.5 because between e/2 = 2 (x = 1.386) and sinh x = 2 (x = 1.444) the result is
//    a binade below e/2, whose error then counts double: 3 ulp of libm there from 1 (an
//    adversarial test found it). fdlibm's (t + t/(t + 1))/2 on t = expm1 |x| before: 9% slower.
//  - cosh x = e / 2 + 1 / (2e) with e = exp |x|: no cancellation.
//  The reciprocals by vrcp14 and Newton steps (reciprocal_avx512.hpp).
// float32 (sinh_ps, cosh_ps): one form for every lane, with no reciprocal and no cancellation.
//  |x| = k ln2 + r with k = floor(|x| / ln2), so 0 <= r < ln2 (r by two FMAs, ln2 in two parts);
//  E = cosh r - 1 and O = sinh r by their Taylor series (to r^8 and r^9: the first terms left out
//  are below 2^-27 and 2^-30 of them at r = ln2), and with s = (2^k - 2^-k)/2, c = (2^k + 2^-k)/2
//  (vscalef: exact),
//    sinh |x| = s cosh r + c sinh r = s + (s E + c O),   cosh x = c + (c E + s O):
//  every term is >= 0 (r >= 0), so nothing cancels; for k = 0, s = 0 and sinh is O itself. The
//  rounding of r's second step (its error e, recovered exactly by one more FMA) is put back as
//  e times the derivative, taken as the result itself (within 30% of it, which moves the result
//  by under a tenth of an ulp): without it the maximum error was 1.9 ulp (sinh) and 2.1 (cosh).
//  Exhaustive over every float32 in [0, 88) against the double-precision libm results: sinh
//  within 1.48 ulp, cosh within 1.62 (the exp-and-reciprocal form before: 1.62 and 1.45, with a
//  series branch below 1 that every vector of mixed magnitudes ran too); 2.0x (sinh) and 1.5x
//  (cosh) its speed on the AMD Zen 4 machine, where NumPy's float32 sinh had been 1.6x ours.
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

// float64's constants: where exp overflows first (the header comment), the series' last term,
// and the exp itself.
template <class L>
struct HyperbolicConstants;
template <>
struct HyperbolicConstants<LanesF64> {
  static constexpr double kClamp = 709.0;
  static constexpr double kSeriesBelow = 1.5;
  static constexpr int kLastTerm = 21;
  static __m512d exp(__m512d a) { return exp_table_pd(a); }
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
// float32: |x| (clamped to 88) = k ln2 + r, 0 <= r < ln2, and the parts the header comment
// combines: s, c, E = cosh r - 1, O = sinh r, and e, the rounding error of r.
struct HyperbolicPartsPs {
  __m512 s, c, e1, o, r_error;
};
inline HyperbolicPartsPs hyperbolic_parts_ps(__m512 x) {
  const __m512 a = _mm512_min_ps(_mm512_set1_ps(88.0f), _mm512_abs_ps(x));  // keeps a NaN
  const __m512 k = _mm512_roundscale_ps(_mm512_mul_ps(a, _mm512_set1_ps(kInvLn2F32)),
                                        _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC);
  const __m512 ln2_low = _mm512_set1_ps(kLn2LowF32);
  const __m512 r_high = _mm512_fnmadd_ps(k, _mm512_set1_ps(kLn2HighF32), a);  // exact
  const __m512 r = _mm512_fnmadd_ps(k, ln2_low, r_high);
  const __m512 r_error = _mm512_fnmadd_ps(k, ln2_low, _mm512_sub_ps(r_high, r));
  const __m512 z = _mm512_mul_ps(r, r);
  static constexpr auto kEven = inverse_factorials<float, 8, 2, 2>();
  static constexpr auto kOdd = inverse_factorials<float, 9, 3, 2>();
  __m512 even = _mm512_set1_ps(kEven[0]);
  for (std::size_t i = 1; i < kEven.size(); ++i)
    even = _mm512_fmadd_ps(even, z, _mm512_set1_ps(kEven[i]));
  __m512 odd = _mm512_set1_ps(kOdd[0]);
  for (std::size_t i = 1; i < kOdd.size(); ++i)
    odd = _mm512_fmadd_ps(odd, z, _mm512_set1_ps(kOdd[i]));
  const __m512 half = _mm512_set1_ps(0.5f);
  const __m512 high = _mm512_scalef_ps(half, k);
  const __m512 low = _mm512_scalef_ps(half, _mm512_sub_ps(_mm512_setzero_ps(), k));
  return {_mm512_sub_ps(high, low), _mm512_add_ps(high, low), _mm512_mul_ps(z, even),
          _mm512_fmadd_ps(_mm512_mul_ps(r, z), odd, r), r_error};
}
// lead + rest, with r's rounding error put back as r_error times the result (the header comment).
inline __m512 hyperbolic_sum_ps(__m512 lead, __m512 rest, __m512 r_error) {
  return _mm512_add_ps(lead, _mm512_fmadd_ps(_mm512_add_ps(lead, rest), r_error, rest));
}
inline __m512 sinh_ps(__m512 x) {
  const HyperbolicPartsPs p = hyperbolic_parts_ps(x);
  const __m512 rest = _mm512_fmadd_ps(p.c, p.o, _mm512_mul_ps(p.s, p.e1));
  const __m512 magnitude = hyperbolic_sum_ps(p.s, rest, p.r_error);
  return _mm512_or_ps(magnitude, _mm512_and_ps(x, _mm512_set1_ps(-0.0f)));
}
inline __m512 cosh_ps(__m512 x) {
  const HyperbolicPartsPs p = hyperbolic_parts_ps(x);
  const __m512 rest = _mm512_fmadd_ps(p.s, p.o, _mm512_mul_ps(p.c, p.e1));
  return hyperbolic_sum_ps(p.c, rest, p.r_error);
}

}  // namespace
}  // namespace tenferro::prims_cpu::simd::isa
