// float32 tan for the AVX-512 kernels. SLEEF's u10 took 2.5x NumPy's time on this machine, and
// the same steps in float64 lanes (within 0.5 ulp) were no faster.
//
// x = k pi/2 + r, |r| <= pi/4, k = round(x 2/pi), r = x - k P1 - k P2 - k P3 with pi/2 = P1 +
// P2 + P3 in floats, each step one FMA: x - k P1 is exact (both are multiples of 2^-23 below 1
// apart, or of x's ulp below 1), each later step rounds once relative to r itself, and what P3
// leaves out is below 2^-72 k. tan r = r + r^3 P(r^2), P of degree 6 (scripts/
// gen-tan-coefficients.py: relative error 1.3e-9 before the roundings); tan x = tan r for even k,
// -1/tan r for odd k (reciprocal_avx512.hpp's reciprocal, 2^-28). Within 2 ulp of libm on the
// ulp sweep.
// |x| from 39000 on (a cut of SLEEF's, within which simd_body.inc's by_magnitude_class runs each
// vector: kTrigCutsF32), infinities and NaN go to SLEEF's u10 tan; |x| below 2^-13, where tan x
// rounds to x, gives x (the sign of zero included).
//
// Included only by simd_avx512.cpp (compiled with -mavx512f -mfma): everything here has internal
// linkage (see simd_body.inc on why).
#pragma once

#include <immintrin.h>
#include <sleef.h>

#include "ops/prims/cpu/simd/reciprocal_avx512.hpp"

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

}  // namespace
}  // namespace tenferro::prims_cpu::simd::isa
