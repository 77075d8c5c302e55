// cbrt for the AVX-512 kernels, both precisions, listed in simd_avx512.cpp's own-kernel lists
// (the AVX2 kernels start simd_body.inc's Newton step from SLEEF's root instead). Included only
// by simd_avx512.cpp (compiled with -mavx512f -mavx512dq -mfma): everything here has internal
// linkage (see simd_body.inc on why).
//
// The scalar rule (shared_real_math.hpp's cube_root) is correctly rounded but for roots within
// about 2^-50 ulp of a rounding boundary; these kernels are built to the same standard, so they
// give its bits (prims_ulp_sweep_test.cpp's cbrt test: every float32 in [1, 8), which by the
// reduction below is every float32 there is, and float64 roots next to rounding boundaries).
//
// x = m 2^e with m in [1, 2) (vgetmant/vgetexp, which take subnormals as they are) and
// e = 3k + r, r in {0, 1, 2}: cbrt|x| = cbrt(a) 2^k with a = m 2^r in [1, 8), the sign put back
// last (cbrt is odd), and 2^k applied by vscalef (exact: every root of a finite nonzero double
// is normal).
//  - z ~ a^(-1/3): m^(-1/3) by a polynomial of degree 6 in m - 1.5 (within 2^-19.8, Chebyshev
//    interpolation: scripts/gen-cbrt-coefficients.py), times 2^(-r/3); then one third-order
//    step, z (1 + d/3 + 2 d^2/9) with d = 1 - a z^3 (the next term, 14 d^3 / 81, is under
//    2^-62), and y = a z^2 = cbrt(a) within a few roundings (2^-51).
//  - float32 (cbrt_ps): m, e and the polynomial in float32 lanes, the step and y in float64,
//    y rounded to float32 once. Right on every float32: the test's exhaustive sweep.
//  - float64 (cbrt_pd): one Newton step from y on the residual y^3 - a formed exactly (y^2 as a
//    product and its fma error, times y likewise), divided by 3 y^2 as a product by z^2 / 3
//    (z is 1 / y to 2^-51; the correction is below an ulp of y, so its own error is under 2^-48
//    ulp): within half an ulp and a 2^-48-th, and exact on cubes.
// Zeros, infinities and NaN take x + x (the same zero, infinity, a quiet NaN).
// One thread on the Intel CI machine, against NumPy's SVML cbrt (not correctly rounded: 1-2 ulp):
// float64 0.94-1.07x NumPy's speed, float32 0.5x (its step runs in float64 lanes); the C
// library's root element by element ran at 0.02-0.09x.
#pragma once

#include <immintrin.h>

#include <limits>

namespace {

// m^(-1/3) ~ sum kCbrtStart[i] (m - 1.5)^i on [1, 2) (scripts/gen-cbrt-coefficients.py).
constexpr double kCbrtStart[7] = {
    0x1.bf45f04cef0b8p-1, -0x1.8d98f67c505bep-3, 0x1.616d5d2c27bf7p-4, -0x1.6bca9cad072b6p-5,
    0x1.93e73d1712001p-6, -0x1.14ecd4f0516dbp-6, 0x1.49ddc1b089249p-7};
// 2^(-r/3) for r = 1, 2.
constexpr double kCbrtTwoThirdPow1 = 0x1.965fea53d6e3dp-1, kCbrtTwoThirdPow2 = 0x1.428a2f98d728bp-1;

// a^(-1/3) within 2^-62 from z within 2^-19.5: the third-order step.
inline __m512d cbrt_refine_pd(__m512d a, __m512d z) {
  const __m512d z3 = _mm512_mul_pd(_mm512_mul_pd(z, z), z);
  const __m512d d = _mm512_fnmadd_pd(a, z3, _mm512_set1_pd(1.0));
  const __m512d series =
      _mm512_fmadd_pd(d, _mm512_fmadd_pd(d, _mm512_set1_pd(2.0 / 9.0), _mm512_set1_pd(1.0 / 3.0)),
                      _mm512_set1_pd(1.0));
  return _mm512_mul_pd(z, series);
}

// |x| = a 2^(3k) with a in [1, 8), and z's start p ~ a^(-1/3), for one vector width: SUF is
// the intrinsics' suffix (pd, ps), V the vector type, S the element type and M the mask type;
// returns the lanes of finite nonzero x (the others take x + x).
#define TENFERRO_CBRT_START(NAME, SUF, V, S, M)                                                   \
  inline M NAME(V x, V& k, V& a, V& p) {                                                          \
    const V m = _mm512_getmant_##SUF(x, _MM_MANT_NORM_1_2, _MM_MANT_SIGN_zero);                   \
    const V e = _mm512_getexp_##SUF(x);                                                           \
    /* k = floor(e / 3), computed as floor((e + 0.5) / 3): never within 1/6 of an integer. */     \
    k = _mm512_roundscale_##SUF(_mm512_mul_##SUF(_mm512_add_##SUF(e, _mm512_set1_##SUF(S(0.5))),  \
                                                 _mm512_set1_##SUF(S(1) / S(3))),                 \
                                _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC);                       \
    const V r = _mm512_fnmadd_##SUF(k, _mm512_set1_##SUF(S(3)), e);                               \
    a = _mm512_scalef_##SUF(m, r);                                                                \
    const V u = _mm512_sub_##SUF(m, _mm512_set1_##SUF(S(1.5)));                                   \
    p = _mm512_set1_##SUF(static_cast<S>(kCbrtStart[6]));                                         \
    for (int i = 5; i >= 0; --i)                                                                  \
      p = _mm512_fmadd_##SUF(p, u, _mm512_set1_##SUF(static_cast<S>(kCbrtStart[i])));             \
    p = _mm512_mask_mul_##SUF(p, _mm512_cmp_##SUF##_mask(r, _mm512_set1_##SUF(S(1)), _CMP_EQ_OQ), \
                              p, _mm512_set1_##SUF(static_cast<S>(kCbrtTwoThirdPow1)));           \
    p = _mm512_mask_mul_##SUF(p, _mm512_cmp_##SUF##_mask(r, _mm512_set1_##SUF(S(2)), _CMP_EQ_OQ), \
                              p, _mm512_set1_##SUF(static_cast<S>(kCbrtTwoThirdPow2)));           \
    const V ax = _mm512_abs_##SUF(x);                                                             \
    return _mm512_cmp_##SUF##_mask(ax, _mm512_setzero_##SUF(), _CMP_GT_OQ) &                      \
           _mm512_cmp_##SUF##_mask(ax, _mm512_set1_##SUF(std::numeric_limits<S>::infinity()),     \
                                   _CMP_LT_OQ);                                                   \
  }
TENFERRO_CBRT_START(cbrt_start_pd, pd, __m512d, double, __mmask8)
TENFERRO_CBRT_START(cbrt_start_ps, ps, __m512, float, __mmask16)
#undef TENFERRO_CBRT_START

inline __m512d cbrt_pd(__m512d x) {
  __m512d k, a, p;
  const __mmask8 ordinary = cbrt_start_pd(x, k, a, p);
  const __m512d z = cbrt_refine_pd(a, p);
  const __m512d y = _mm512_mul_pd(_mm512_mul_pd(a, z), z);
  // y^3 = yyy + yyy_err exactly but for the rounding of yy_err * y (2^-106 relative).
  const __m512d yy = _mm512_mul_pd(y, y);
  const __m512d yy_err = _mm512_fmsub_pd(y, y, yy);
  __m512d yyy = _mm512_mul_pd(yy, y);
  asm("" : "+v"(yyy));  // kept rounded: GCC would fuse yyy - a into one fma
  const __m512d yyy_err = _mm512_fmadd_pd(yy_err, y, _mm512_fmsub_pd(yy, y, yyy));
  const __m512d residual = _mm512_add_pd(_mm512_sub_pd(yyy, a), yyy_err);
  const __m512d third_z2 = _mm512_mul_pd(_mm512_mul_pd(z, z), _mm512_set1_pd(1.0 / 3.0));
  const __m512d root = _mm512_fnmadd_pd(residual, third_z2, y);
  const __m512d magnitude = _mm512_scalef_pd(root, k);
  const __m512d signed_root = _mm512_or_pd(magnitude, _mm512_and_pd(x, _mm512_set1_pd(-0.0)));
  return _mm512_mask_blend_pd(ordinary, _mm512_add_pd(x, x), signed_root);
}

inline __m512 cbrt_ps(__m512 x) {
  __m512 k, a, p;
  const __mmask16 ordinary = cbrt_start_ps(x, k, a, p);
  // The step and y in float64, eight lanes at a time.
  const auto half_root = [](__m256 a_half, __m256 p_half) {
    const __m512d ad = _mm512_cvtps_pd(a_half);
    const __m512d z = cbrt_refine_pd(ad, _mm512_cvtps_pd(p_half));
    return _mm512_cvtpd_ps(_mm512_mul_pd(_mm512_mul_pd(ad, z), z));
  };
  const __m256 lo = half_root(_mm512_castps512_ps256(a), _mm512_castps512_ps256(p));
  const __m256 hi = half_root(_mm256_castpd_ps(_mm512_extractf64x4_pd(_mm512_castps_pd(a), 1)),
                              _mm256_castpd_ps(_mm512_extractf64x4_pd(_mm512_castps_pd(p), 1)));
  const __m512 y = _mm512_castpd_ps(
      _mm512_insertf64x4(_mm512_castps_pd(_mm512_castps256_ps512(lo)), _mm256_castps_pd(hi), 1));
  const __m512 magnitude = _mm512_scalef_ps(y, k);
  const __m512 signed_root = _mm512_or_ps(magnitude, _mm512_and_ps(x, _mm512_set1_ps(-0.0f)));
  return _mm512_mask_blend_ps(ordinary, _mm512_add_ps(x, x), signed_root);
}

}  // namespace
