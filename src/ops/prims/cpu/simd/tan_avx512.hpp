// tan for the AVX-512 kernels. SLEEF's u10 took 2.5x (float32) and 1.4x (float64) NumPy's time on
// this machine.
//
// x = k pi/2 + r, |r| <= pi/4, k = round(x 2/pi), r = x - k P1 - k P2 - k P3 with pi/2 = P1 +
// P2 + P3 (floats in float32 lanes, doubles in float64 ones), each step one FMA: x - k P1 is
// exact (both are multiples of P1's ulp, or of x's, and less than 1 apart), each later step rounds
// once relative to r itself, and what P3 leaves out is below 2^-72 k (float64: 2^-160 k).
//  - float32: tan r = r + r^3 P(r^2), P of degree 6 (scripts/gen-tan-coefficients.py: relative
//    error 1.3e-9 before the roundings); tan x = tan r for even k, -1/tan r for odd k
//    (reciprocal_avx512.hpp's reciprocal, 2^-28). Within 3 ulp of libm, and within 2 on all but
//    18 of the 2.2 billion floats below 39000 in magnitude (an adversarial test of every one:
//    above 2^13 with k odd, where the second and third reduction steps' roundings add up; at most
//    2.9 ulp of the exact value). The same steps in float64 lanes (within 0.5 ulp) were no
//    faster than SLEEF's.
//  - float64: sin r and cos r by their Taylor series (to r^17 and r^18: the first terms left out
//    are below 2^-62 of them at pi/4), tan x = sin r / cos r for even k and -cos r / sin r for
//    odd k (a division: the reciprocal's 2^-52 would add an ulp). Within 3 ulp of libm on the
//    ulp sweep (2 but at 8 of 2.7 million points, all with r near pi/4: the roundings of sin r,
//    cos r and their quotient).
// |x| from 39000 on (float64: 1e9; cuts of SLEEF's, within which simd_body.inc's
// by_magnitude_class runs each vector: kTrigCutsF32/F64), infinities and NaN go to SLEEF's u10
// tan; |x| below 2^-13 (float64: 2^-27), where tan x rounds to x, gives x (the sign of zero
// included).
//
// Included only by simd_avx512.cpp (compiled with -mavx512f -mfma): everything here has internal
// linkage (see simd_body.inc on why).
#pragma once

#include <immintrin.h>
#include <sleef.h>

#include "ops/prims/cpu/simd/reciprocal_avx512.hpp"
#include "ops/prims/cpu/simd/taylor_avx512.hpp"

namespace tenferro::prims_cpu::simd::isa {
namespace {

inline __m512 tan_ps(__m512 x) {
  // k as an integer too, for its parity (|x| below the cut: |k| < 2^15; beyond it the lanes'
  // results are SLEEF's whatever k is).
  const __m512i k_int = _mm512_cvt_roundps_epi32(_mm512_mul_ps(x, _mm512_set1_ps(0x1.45f306p-1f)),
                                                 _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
  const __m512 k = _mm512_cvtepi32_ps(k_int);
  __m512 r = _mm512_fnmadd_ps(k, _mm512_set1_ps(0x1.921fb6p+0f), x);
  r = _mm512_fnmadd_ps(k, _mm512_set1_ps(-0x1.777a5cp-25f), r);
  r = _mm512_fnmadd_ps(k, _mm512_set1_ps(-0x1.ee59dap-50f), r);
  const __m512 z = _mm512_mul_ps(r, r);
  constexpr float kP[] = {0x1.55556p-2f, 0x1.110d8ep-3f,  0x1.badbdep-5f, 0x1.5cafe4p-6f,
                          0x1.6311bp-7f, 0x1.776714p-14f, 0x1.1ecde4p-8f};
  __m512 p = _mm512_set1_ps(kP[6]);
  for (int i = 5; i >= 0; --i) p = _mm512_fmadd_ps(p, z, _mm512_set1_ps(kP[i]));
  const __m512 t = _mm512_fmadd_ps(_mm512_mul_ps(r, z), p, r);
  const __mmask16 odd = _mm512_test_epi32_mask(k_int, _mm512_set1_epi32(1));
  __m512 result = t;
  if (odd != 0) {
    result = _mm512_mask_mov_ps(t, odd, _mm512_xor_ps(reciprocal_ps(t), _mm512_set1_ps(-0.0f)));
  }
  const __m512 a = _mm512_abs_ps(x);
  result =
      _mm512_mask_mov_ps(result, _mm512_cmp_ps_mask(a, _mm512_set1_ps(0x1p-13f), _CMP_LT_OQ), x);
  // Beyond the cut, infinities and NaN (below no bound): SLEEF's.
  const __mmask16 far = _mm512_cmp_ps_mask(a, _mm512_set1_ps(39000.0f), _CMP_NLT_UQ);
  if (far == 0) return result;
  return _mm512_mask_mov_ps(result, far, Sleef_tanf16_u10avx512f(x));
}

// The alternating series of sin (17! down to 3!) and cos (18! down to 2!).
constexpr auto kSinTerms = inverse_factorials<double, 17, 3, 2, true>();
constexpr auto kCosTerms = inverse_factorials<double, 18, 2, 2, true>();
static_assert(kSinTerms[7] == -1.0 / 6 && kCosTerms[8] == -0.5 && kCosTerms[0] < 0);

inline __m512d tan_pd(__m512d x) {
  const __m512d k = _mm512_roundscale_pd(_mm512_mul_pd(x, _mm512_set1_pd(0x1.45f306dc9c883p-1)),
                                         _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
  __m512d r = _mm512_fnmadd_pd(k, _mm512_set1_pd(0x1.921fb54442d18p+0), x);
  r = _mm512_fnmadd_pd(k, _mm512_set1_pd(0x1.1a62633145c07p-54), r);
  r = _mm512_fnmadd_pd(k, _mm512_set1_pd(-0x1.f1976b7ed8fbcp-110), r);
  const __m512d z = _mm512_mul_pd(r, r);
  // sin r = r + r^3 (-1/3! + z (1/5! - ...)), cos r = 1 + z (-1/2! + z (1/4! - ...)).
  __m512d sp = _mm512_set1_pd(kSinTerms[0]);
  __m512d cp = _mm512_set1_pd(kCosTerms[0]);
  for (int i = 1; i < 8; ++i) {
    sp = _mm512_fmadd_pd(sp, z, _mm512_set1_pd(kSinTerms[i]));
    cp = _mm512_fmadd_pd(cp, z, _mm512_set1_pd(kCosTerms[i]));
  }
  cp = _mm512_fmadd_pd(cp, z, _mm512_set1_pd(kCosTerms[8]));
  const __m512d s = _mm512_fmadd_pd(_mm512_mul_pd(r, z), sp, r);
  const __m512d c = _mm512_fmadd_pd(z, cp, _mm512_set1_pd(1.0));
  // k's parity: the lowest mantissa bit of |k| + 2^52 (|k| < 2^52 here).
  const __m512d k_bits = _mm512_add_pd(_mm512_abs_pd(k), _mm512_set1_pd(0x1p52));
  const __mmask8 odd = _mm512_test_epi64_mask(_mm512_castpd_si512(k_bits), _mm512_set1_epi64(1));
  const __m512d num = _mm512_mask_blend_pd(odd, s, _mm512_xor_pd(c, _mm512_set1_pd(-0.0)));
  const __m512d den = _mm512_mask_blend_pd(odd, c, s);
  __m512d result = _mm512_div_pd(num, den);
  const __m512d a = _mm512_abs_pd(x);
  result =
      _mm512_mask_mov_pd(result, _mm512_cmp_pd_mask(a, _mm512_set1_pd(0x1p-27), _CMP_LT_OQ), x);
  const __mmask8 far = _mm512_cmp_pd_mask(a, _mm512_set1_pd(1e9), _CMP_NLT_UQ);
  if (far == 0) return result;
  return _mm512_mask_mov_pd(result, far, Sleef_tand8_u10avx512f(x));
}

}  // namespace
}  // namespace tenferro::prims_cpu::simd::isa
