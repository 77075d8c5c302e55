// float64 log1p, and asinh and atanh on it, for the AVX-512 kernels. SLEEF's u10 asinh and atanh
// took 2.2-2.9x NumPy's time on this machine.
//
// log1p y: u = 1 + y rounded, u = 2^e m with m in [0.75, 1.5) (vgetmantpd / vgetexppd), and
//   log1p y = e ln2 + 2 atanh s + (y - (u - 1)) / u,   s = (m - 1) / (m + 1), |s| <= 0.2,
// the last term the rounding of 1 + y taken back (fdlibm's correction); 2 atanh s = 2s + s^3
// Q(s^2) with Q the series' terms to s^25 (the first left out, 2 s^27/27, is below 2^-60 of
// 2s); ln2 in two parts, the high one with 32 significant bits so that e ln2_hi is exact.
// u = +inf gives +inf, u = 0 -inf, u < 0 NaN, |y| < 2^-60 y itself (the sign of zero
// included).
// atanh x = sign(x) log1p(t + t |x| / (1 - |x|)) / 2 with t = 2|x| below |x| = 1/2, and
// log1p(2|x| / (1 - |x|)) / 2 above (fdlibm's split; 1 - |x| exact there). asinh x = sign(x)
// log1p(|x| + x^2 / (1 + sqrt(1 + x^2))), and log|x| + ln2 above 2^28 (x^2 would overflow from
// 1.3e154).
//
// Included only by simd_avx512.cpp (compiled with -mavx512f -mfma): everything here has internal
// linkage (see simd_body.inc on why).
#pragma once

#include <immintrin.h>

namespace tenferro::prims_cpu::simd::isa {
namespace {

inline __m512d log1p_pd(__m512d y) {
  const __m512d one = _mm512_set1_pd(1.0);
  const __m512d u = _mm512_add_pd(y, one);
  const __m512d m = _mm512_getmant_pd(u, _MM_MANT_NORM_p75_1p5, _MM_MANT_SIGN_src);
  __m512d e = _mm512_getexp_pd(u);
  e = _mm512_mask_add_pd(e, _mm512_cmp_pd_mask(m, one, _CMP_LT_OQ), e, one);
  const __m512d s = _mm512_div_pd(_mm512_sub_pd(m, one), _mm512_add_pd(m, one));
  const __m512d s2 = _mm512_mul_pd(s, s);
  __m512d q = _mm512_set1_pd(2.0 / 25);
  for (int k = 23; k >= 3; k -= 2) q = _mm512_fmadd_pd(q, s2, _mm512_set1_pd(2.0 / k));
  const __m512d log_m = _mm512_fmadd_pd(_mm512_mul_pd(s, s2), q, _mm512_add_pd(s, s));
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
  const __m512d below = _mm512_fmadd_pd(t, _mm512_div_pd(a, rest), t);
  const __m512d above = _mm512_div_pd(t, rest);
  const __mmask8 small = _mm512_cmp_pd_mask(a, _mm512_set1_pd(0.5), _CMP_LT_OQ);
  const __m512d y = _mm512_mask_mov_pd(above, small, below);
  return odd_from_magnitude(x, _mm512_mul_pd(log1p_pd(y), _mm512_set1_pd(0.5)));
}

inline __m512d asinh_pd(__m512d x) {
  const __m512d a = _mm512_abs_pd(x);
  const __m512d one = _mm512_set1_pd(1.0);
  const __m512d a2 = _mm512_mul_pd(a, a);
  const __m512d y = _mm512_add_pd(
      a, _mm512_div_pd(a2, _mm512_add_pd(one, _mm512_sqrt_pd(_mm512_add_pd(one, a2)))));
  // Above 2^28: log a + ln2 = log1p(a - 1) + ln2 (a - 1 is exact there, or rounds to a).
  const __mmask8 big = _mm512_cmp_pd_mask(a, _mm512_set1_pd(0x1p28), _CMP_GT_OQ);
  const __m512d r = log1p_pd(_mm512_mask_mov_pd(y, big, _mm512_sub_pd(a, one)));
  const __m512d magnitude = _mm512_mask_add_pd(r, big, r, _mm512_set1_pd(0x1.62e42fefa39efp-1));
  return odd_from_magnitude(x, magnitude);
}

}  // namespace
}  // namespace tenferro::prims_cpu::simd::isa
