// log1p, and asinh and atanh on it, in float64 and float32 lanes for the AVX-512 kernels. SLEEF's
// u10 asinh and atanh took 2.2-2.9x NumPy's time on this machine in float64 and 2.2-3x in float32.
//
// log1p y: u = 1 + y rounded, u = 2^e m with m in [0.75, 1.5) (vgetmantpd / vgetexppd), and
//   log1p y = e ln2 + log m + (y - (u - 1)) / u,   f = m - 1, s = f / (m + 1), |s| <= 0.2.
//  - The last term takes the rounding of 1 + y back (fdlibm's correction). It is all of the
//    result for the smallest y, so it is a division.
//  - log m = 2 atanh s = 2s + s^3 Q(s^2), Q the series' terms to s^25 (the first left out,
//    2 s^27/27, is below 2^-60 of 2s), evaluated as f - s (f - s^2 Q) (2s = f - s f, fdlibm's
//    form): f is exact, so the roundings of s and of the sums reach only the smaller terms.
//  - ln2 in two parts, the high one with 32 significant bits so that e ln2_hi is exact.
//  - u = +inf gives +inf, u = 0 -inf, u < 0 NaN, |y| < 2^-60 y itself (the sign of zero
//    included).
// atanh x = sign(x) log1p(t + t |x| / (1 - |x|)) / 2 with t = 2|x| below |x| = 1/2, and
// log1p(2|x| / (1 - |x|)) / 2 above (fdlibm's split; 1 - |x| exact there; one quotient for
// both); +-inf at |x| = 1.
// asinh x = sign(x) log1p(|x| + x^2 / (1 + sqrt(1 + x^2))), and log|x| + ln2 above 2^28 (x^2
// would overflow from 1.3e154).
// The other quotients are products with reciprocal_avx512.hpp's reciprocals (10-25% faster than
// divisions): their 2^-28 (float) and 2^-52 (double) reach only terms smaller than the result
// (s), or add under an ulp to a term that the next rounding takes anyway.
// float32 lanes: the same steps in float, the series to s^11 (the first left out, 2 s^13/13, is
// below 2^-27 of 2s), ln2's high part with 15 significant bits (e ln2_hi exact for |e| < 2^9),
// |y| < 2^-30 giving y, and asinh's log branch above 2^12 (where 1 / (4 x^2), the next term of
// log 2x, is below 2^-27 of it).
//
// Included only by simd_avx512.cpp (compiled with -mavx512f -mfma): everything here has internal
// linkage (see simd_body.inc on why).
#pragma once

#include <immintrin.h>

#include "ops/prims/cpu/simd/reciprocal_avx512.hpp"

namespace tenferro::prims_cpu::simd::isa {
namespace {

inline __m512d log1p_pd(__m512d y) {
  const __m512d one = _mm512_set1_pd(1.0);
  const __m512d u = _mm512_add_pd(y, one);
  const __m512d m = _mm512_getmant_pd(u, _MM_MANT_NORM_p75_1p5, _MM_MANT_SIGN_src);
  __m512d e = _mm512_getexp_pd(u);
  e = _mm512_mask_add_pd(e, _mm512_cmp_pd_mask(m, one, _CMP_LT_OQ), e, one);
  const __m512d f = _mm512_sub_pd(m, one);
  const __m512d s = _mm512_mul_pd(f, reciprocal_pd(_mm512_add_pd(m, one)));
  const __m512d s2 = _mm512_mul_pd(s, s);
  __m512d q = _mm512_set1_pd(2.0 / 25);
  for (int k = 23; k >= 3; k -= 2) q = _mm512_fmadd_pd(q, s2, _mm512_set1_pd(2.0 / k));
  const __m512d log_m = _mm512_fnmadd_pd(s, _mm512_fnmadd_pd(s2, q, f), f);
  const __m512d correction = _mm512_div_pd(_mm512_sub_pd(y, _mm512_sub_pd(u, one)), u);
  const __m512d low = _mm512_fmadd_pd(e, _mm512_set1_pd(0x1.a39ef35793c76p-33), correction);
  __m512d r = _mm512_fmadd_pd(e, _mm512_set1_pd(0x1.62e42fee00000p-1), _mm512_add_pd(log_m, low));
  const __m512d inf = _mm512_set1_pd(__builtin_inf());
  r = _mm512_mask_mov_pd(r, _mm512_cmp_pd_mask(u, inf, _CMP_EQ_OQ), inf);
  r = _mm512_mask_mov_pd(r, _mm512_cmp_pd_mask(u, _mm512_setzero_pd(), _CMP_EQ_OQ),
                         _mm512_set1_pd(-__builtin_inf()));
  r = _mm512_mask_mov_pd(r, _mm512_cmp_pd_mask(u, _mm512_setzero_pd(), _CMP_LT_OQ),
                         _mm512_set1_pd(__builtin_nan("")));
  const __mmask8 tiny = _mm512_cmp_pd_mask(_mm512_abs_pd(y), _mm512_set1_pd(0x1p-60), _CMP_LT_OQ);
  return _mm512_mask_mov_pd(r, tiny, y);
}

// x's sign on a non-negative magnitude, and |x| < 2^-60 giving x itself.
inline __m512d odd_from_magnitude(__m512d x, __m512d magnitude) {
  const __m512d r = _mm512_or_pd(magnitude, _mm512_and_pd(x, _mm512_set1_pd(-0.0)));
  const __mmask8 tiny = _mm512_cmp_pd_mask(_mm512_abs_pd(x), _mm512_set1_pd(0x1p-60), _CMP_LT_OQ);
  return _mm512_mask_mov_pd(r, tiny, x);
}

inline __m512d atanh_pd(__m512d x) {
  const __m512d a = _mm512_abs_pd(x);
  const __m512d one = _mm512_set1_pd(1.0);
  const __m512d t = _mm512_add_pd(a, a);
  const __m512d rest = _mm512_sub_pd(one, a);
  const __m512d ratio = _mm512_mul_pd(a, reciprocal_pd(rest));  // NaN at |x| = 1
  const __m512d below = _mm512_fmadd_pd(t, ratio, t);
  const __m512d above = _mm512_add_pd(ratio, ratio);
  const __mmask8 small = _mm512_cmp_pd_mask(a, _mm512_set1_pd(0.5), _CMP_LT_OQ);
  const __m512d y =
      _mm512_mask_mov_pd(_mm512_mask_mov_pd(above, small, below),
                         _mm512_cmp_pd_mask(a, one, _CMP_EQ_OQ), _mm512_set1_pd(__builtin_inf()));
  return odd_from_magnitude(x, _mm512_mul_pd(log1p_pd(y), _mm512_set1_pd(0.5)));
}

inline __m512d asinh_pd(__m512d x) {
  const __m512d a = _mm512_abs_pd(x);
  const __m512d one = _mm512_set1_pd(1.0);
  const __m512d a2 = _mm512_mul_pd(a, a);
  const __m512d y = _mm512_fmadd_pd(
      a2, reciprocal_pd(_mm512_add_pd(one, _mm512_sqrt_pd(_mm512_add_pd(one, a2)))), a);
  // Above 2^28: log a + ln2 = log1p(a - 1) + ln2 (a - 1 is exact there, or rounds to a).
  const __mmask8 big = _mm512_cmp_pd_mask(a, _mm512_set1_pd(0x1p28), _CMP_GT_OQ);
  const __m512d r = log1p_pd(_mm512_mask_mov_pd(y, big, _mm512_sub_pd(a, one)));
  const __m512d magnitude = _mm512_mask_add_pd(r, big, r, _mm512_set1_pd(0x1.62e42fefa39efp-1));
  return odd_from_magnitude(x, magnitude);
}

inline __m512 log1p_ps(__m512 y) {
  const __m512 one = _mm512_set1_ps(1.0f);
  const __m512 u = _mm512_add_ps(y, one);
  const __m512 m = _mm512_getmant_ps(u, _MM_MANT_NORM_p75_1p5, _MM_MANT_SIGN_src);
  __m512 e = _mm512_getexp_ps(u);
  e = _mm512_mask_add_ps(e, _mm512_cmp_ps_mask(m, one, _CMP_LT_OQ), e, one);
  const __m512 f = _mm512_sub_ps(m, one);
  const __m512 s = _mm512_mul_ps(f, reciprocal_ps(_mm512_add_ps(m, one)));
  const __m512 s2 = _mm512_mul_ps(s, s);
  __m512 q = _mm512_set1_ps(2.0f / 11);
  for (int k = 9; k >= 3; k -= 2) q = _mm512_fmadd_ps(q, s2, _mm512_set1_ps(2.0f / k));
  const __m512 log_m = _mm512_fnmadd_ps(s, _mm512_fnmadd_ps(s2, q, f), f);
  const __m512 correction = _mm512_div_ps(_mm512_sub_ps(y, _mm512_sub_ps(u, one)), u);
  const __m512 low = _mm512_fmadd_ps(e, _mm512_set1_ps(0x1.7f7d1cp-20f), correction);
  __m512 r = _mm512_fmadd_ps(e, _mm512_set1_ps(0x1.62e4p-1f), _mm512_add_ps(log_m, low));
  const __m512 inf = _mm512_set1_ps(__builtin_inff());
  r = _mm512_mask_mov_ps(r, _mm512_cmp_ps_mask(u, inf, _CMP_EQ_OQ), inf);
  r = _mm512_mask_mov_ps(r, _mm512_cmp_ps_mask(u, _mm512_setzero_ps(), _CMP_EQ_OQ),
                         _mm512_set1_ps(-__builtin_inff()));
  r = _mm512_mask_mov_ps(r, _mm512_cmp_ps_mask(u, _mm512_setzero_ps(), _CMP_LT_OQ),
                         _mm512_set1_ps(__builtin_nanf("")));
  const __mmask16 tiny = _mm512_cmp_ps_mask(_mm512_abs_ps(y), _mm512_set1_ps(0x1p-30f), _CMP_LT_OQ);
  return _mm512_mask_mov_ps(r, tiny, y);
}

inline __m512 odd_from_magnitude(__m512 x, __m512 magnitude) {
  const __m512 r = _mm512_or_ps(magnitude, _mm512_and_ps(x, _mm512_set1_ps(-0.0f)));
  const __mmask16 tiny = _mm512_cmp_ps_mask(_mm512_abs_ps(x), _mm512_set1_ps(0x1p-30f), _CMP_LT_OQ);
  return _mm512_mask_mov_ps(r, tiny, x);
}

inline __m512 atanh_ps(__m512 x) {
  const __m512 a = _mm512_abs_ps(x);
  const __m512 one = _mm512_set1_ps(1.0f);
  const __m512 t = _mm512_add_ps(a, a);
  const __m512 rest = _mm512_sub_ps(one, a);
  const __m512 ratio = _mm512_mul_ps(a, reciprocal_ps(rest));  // NaN at |x| = 1
  const __m512 below = _mm512_fmadd_ps(t, ratio, t);
  const __m512 above = _mm512_add_ps(ratio, ratio);
  const __mmask16 small = _mm512_cmp_ps_mask(a, _mm512_set1_ps(0.5f), _CMP_LT_OQ);
  const __m512 y =
      _mm512_mask_mov_ps(_mm512_mask_mov_ps(above, small, below),
                         _mm512_cmp_ps_mask(a, one, _CMP_EQ_OQ), _mm512_set1_ps(__builtin_inff()));
  return odd_from_magnitude(x, _mm512_mul_ps(log1p_ps(y), _mm512_set1_ps(0.5f)));
}

inline __m512 asinh_ps(__m512 x) {
  const __m512 a = _mm512_abs_ps(x);
  const __m512 one = _mm512_set1_ps(1.0f);
  const __m512 a2 = _mm512_mul_ps(a, a);
  const __m512 y = _mm512_fmadd_ps(
      a2, reciprocal_ps(_mm512_add_ps(one, _mm512_sqrt_ps(_mm512_add_ps(one, a2)))), a);
  const __mmask16 big = _mm512_cmp_ps_mask(a, _mm512_set1_ps(0x1p12f), _CMP_GT_OQ);
  const __m512 r = log1p_ps(_mm512_mask_mov_ps(y, big, _mm512_sub_ps(a, one)));
  const __m512 magnitude = _mm512_mask_add_ps(r, big, r, _mm512_set1_ps(0x1.62e430p-1f));
  return odd_from_magnitude(x, magnitude);
}

}  // namespace
}  // namespace tenferro::prims_cpu::simd::isa
