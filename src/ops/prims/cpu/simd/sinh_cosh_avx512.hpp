// sinh and cosh for the AVX-512 kernels, from this folder's exp. SLEEF's took 1.4-1.9x
// NumPy's time on this machine.
//  - sinh |x| = e/2 - 1/(2e) with e = exp |x| from |x| = 1 on (cancelling at most 1.16-fold),
//    and its odd Taylor series below (to x^13 in float32, x^17 in float64: the first term left
//    out is below 2^-40 / 2^-56 of the result); the sign is x's; a vector whose lanes all take
//    one form skips the other. fdlibm's (t + t/(t + 1))/2 on t = expm1 |x| before: 5% (float32)
//    and 13% (float64) slower, with three times as many float32 results beyond 1 ulp of libm.
//  - cosh x = e / 2 + 1 / (2e) with e = exp |x|: no cancellation.
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
#include "ops/prims/cpu/simd/reciprocal_avx512.hpp"
#include "ops/prims/cpu/simd/taylor_avx512.hpp"

namespace tenferro::prims_cpu::simd::isa {
namespace {

inline __m512d sinh_pd(__m512d x) {
  // min_pd returns its second operand where either is a NaN: x's NaN is kept.
  const __m512d a = _mm512_min_pd(_mm512_set1_pd(709.0), _mm512_abs_pd(x));
  const __mmask8 small = _mm512_cmp_pd_mask(a, _mm512_set1_pd(1.0), _CMP_LT_OQ);
  __m512d magnitude = a;
  if (small != 0xFF) {  // From 1 on: e/2 - 1/(2e), e = exp a.
    const __m512d half_e = _mm512_mul_pd(exp_table_pd(a), _mm512_set1_pd(0.5));
    magnitude = _mm512_fnmadd_pd(reciprocal_pd(half_e), _mm512_set1_pd(0.25), half_e);
  }
  if (small != 0) {  // Below 1: a + a^3 (1/3! + a^2 (1/5! + ...)), to a^17.
    const __m512d z = _mm512_mul_pd(a, a);
    __m512d p = _mm512_set1_pd(inverse_factorial(17));
    for (int n = 15; n >= 3; n -= 2)
      p = _mm512_fmadd_pd(p, z, _mm512_set1_pd(inverse_factorial(n)));
    magnitude = _mm512_mask_mov_pd(magnitude, small, _mm512_fmadd_pd(_mm512_mul_pd(a, z), p, a));
  }
  const __m512d sign = _mm512_and_pd(x, _mm512_set1_pd(-0.0));
  return _mm512_or_pd(magnitude, sign);
}

inline __m512d cosh_pd(__m512d x) {
  // min_pd returns its second operand where either is a NaN: x's NaN is kept.
  const __m512d a = _mm512_min_pd(_mm512_set1_pd(709.0), _mm512_abs_pd(x));
  const __m512d half_e = _mm512_mul_pd(exp_table_pd(a), _mm512_set1_pd(0.5));
  const __m512d r = _mm512_add_pd(half_e, _mm512_div_pd(_mm512_set1_pd(0.25), half_e));
  return r;
}

inline __m512 sinh_ps(__m512 x) {
  const __m512 a = _mm512_min_ps(_mm512_set1_ps(88.0f), _mm512_abs_ps(x));  // keeps a NaN
  const __mmask16 small = _mm512_cmp_ps_mask(a, _mm512_set1_ps(1.0f), _CMP_LT_OQ);
  __m512 magnitude = a;
  if (small != 0xFFFF) {  // From 1 on: e/2 - 1/(2e), e = exp a.
    const __m512 half_e = _mm512_mul_ps(exp_reduced_ps(a), _mm512_set1_ps(0.5f));
    magnitude = _mm512_fnmadd_ps(reciprocal_ps(half_e), _mm512_set1_ps(0.25f), half_e);
  }
  if (small != 0) {  // Below 1: a + a^3 (1/3! + a^2 (1/5! + ...)), to a^13.
    const __m512 z = _mm512_mul_ps(a, a);
    __m512 p = _mm512_set1_ps(static_cast<float>(inverse_factorial(13)));
    for (int n = 11; n >= 3; n -= 2)
      p = _mm512_fmadd_ps(p, z, _mm512_set1_ps(static_cast<float>(inverse_factorial(n))));
    magnitude = _mm512_mask_mov_ps(magnitude, small, _mm512_fmadd_ps(_mm512_mul_ps(a, z), p, a));
  }
  const __m512 sign = _mm512_and_ps(x, _mm512_set1_ps(-0.0f));
  return _mm512_or_ps(magnitude, sign);
}

inline __m512 cosh_ps(__m512 x) {
  const __m512 a = _mm512_min_ps(_mm512_set1_ps(88.0f), _mm512_abs_ps(x));  // keeps a NaN
  const __m512 half_e = _mm512_mul_ps(exp_reduced_ps(a), _mm512_set1_ps(0.5f));
  const __m512 r = _mm512_fmadd_ps(reciprocal_ps(half_e), _mm512_set1_ps(0.25f), half_e);
  return r;
}

}  // namespace
}  // namespace tenferro::prims_cpu::simd::isa
