// expm1 for the AVX-512 kernels, float64 and float32, by their own reduction and polynomial.
// SLEEF's expm1 took 2.3x (float64) and 4.7x (float32) NumPy's time on this machine.
//
//   x = k ln2 + r,  |r| <= ln2/2,  expm1(x) = 2^k expm1(r) + (2^k - 1)
//
// k is x / ln2 rounded (the 0x1.8p52 shifter, as exp_table_avx512.hpp), r is x - k ln2 in two
// steps (ln2's high part's product exact in the FMA), and expm1(r) = r + r^2 q(r) is its
// Taylor polynomial of degree 13 (the first term left out, r^14/14!, is below 2^-56 of r at
// |r| = ln2/2). For |k| <= 53, 2^k - 1 is exact and the sum rounds once: where it cancels
// (x near +-0.35, k = +-1) the error grows at most 1.4-fold, not the 47-fold of exp(x) - 1 at
// x = ln2/32. For k > 53 the -1 is below half an ulp and the result is 2^k (expm1(r) + 1) - 1,
// scaled in one rounding (so 709.7 gives 1.66e308 although 2^1024 is not a double); for
// k < -53 the sum rounds to -1, as expm1 does. Inputs are clamped to [-746, 710] (beyond, the
// result is -1 or inf anyway; the clamp keeps a NaN, which runs through as a NaN), and |x| <
// 2^-60 gives x itself (its sign of zero included: r + r^2 q(r) turns -0 into +0).
//
// Included only by simd_avx512.cpp (compiled with -mavx512f -mfma): everything here has
// internal linkage (see simd_body.inc on why).
#pragma once

#include <immintrin.h>

#include "ops/prims/cpu/simd/taylor_avx512.hpp"

namespace tenferro::prims_cpu::simd::isa {
namespace {

inline __m512d expm1_pd(__m512d x) {
  const __m512d clamped =
      _mm512_min_pd(_mm512_set1_pd(710.0), _mm512_max_pd(_mm512_set1_pd(-746.0), x));
  const __m512d shifter = _mm512_set1_pd(0x1.8p52);
  const __m512d k = _mm512_sub_pd(
      _mm512_fmadd_pd(clamped, _mm512_set1_pd(0x1.71547652b82fep+0), shifter), shifter);
  __m512d r = _mm512_fnmadd_pd(k, _mm512_set1_pd(0x1.62e42fefa39efp-1), clamped);  // ln2, high
  r = _mm512_fnmadd_pd(k, _mm512_set1_pd(0x1.abc9e3b39803fp-56), r);               // and low
  // q(r) = 1/2! + r/3! + ... + r^11/13!
  constexpr auto kInverseFactorials = inverse_factorials<double, 13, 2, 1>();
  __m512d q = _mm512_set1_pd(kInverseFactorials[0]);
  for (std::size_t i = 1; i < kInverseFactorials.size(); ++i)
    q = _mm512_fmadd_pd(q, r, _mm512_set1_pd(kInverseFactorials[i]));
  const __m512d p = _mm512_fmadd_pd(_mm512_mul_pd(r, r), q, r);
  const __m512d one = _mm512_set1_pd(1.0);
  const __m512d near =
      _mm512_add_pd(_mm512_scalef_pd(p, k), _mm512_sub_pd(_mm512_scalef_pd(one, k), one));
  const __m512d far = _mm512_sub_pd(_mm512_scalef_pd(_mm512_add_pd(p, one), k), one);
  const __mmask8 large = _mm512_cmp_pd_mask(k, _mm512_set1_pd(53.0), _CMP_GT_OQ);
  const __m512d result = _mm512_mask_mov_pd(near, large, far);
  const __m512d magnitude = _mm512_abs_pd(x);
  const __mmask8 tiny = _mm512_cmp_pd_mask(magnitude, _mm512_set1_pd(0x1p-60), _CMP_LT_OQ);
  return _mm512_mask_mov_pd(result, tiny, x);
}

// float32 expm1 by the same reduction in float32 lanes (sixteen at a time): |r| <= ln2/2, the
// Taylor polynomial of degree 8 (r^9/9! is below 2^-30 of r), 2^k - 1 exact for |k| <= 24, and
// 2^k (expm1(r) + 1) - 1 above; inputs clamped to [-104, 89], |x| < 2^-30 gives x. Evaluated
// in float64 by expm1_pd it was no faster than SLEEF's (0.24x NumPy's float32 SVML).
// float32 x = k ln2 + r: 1/ln2, and ln2 in two parts, the high one with 21 significant bits so
// that k ln2_high is exact inside an FMA for every k of float32's range (also sinh and cosh's).
constexpr float kInvLn2F32 = 0x1.715476p+0f, kLn2HighF32 = 0x1.62e430p-1f,
                kLn2LowF32 = -0x1.05c610p-29f;
// x = k ln2 + r for x clamped to [-104, 89]: k and expm1(r).
struct Expm1ReducedPs {
  __m512 k, p;
};
inline Expm1ReducedPs expm1_reduced_ps(__m512 x) {
  const __m512 clamped =
      _mm512_min_ps(_mm512_set1_ps(89.0f), _mm512_max_ps(_mm512_set1_ps(-104.0f), x));
  const __m512 shifter = _mm512_set1_ps(0x1.8p23f);
  const __m512 k =
      _mm512_sub_ps(_mm512_fmadd_ps(clamped, _mm512_set1_ps(kInvLn2F32), shifter), shifter);
  __m512 r = _mm512_fnmadd_ps(k, _mm512_set1_ps(kLn2HighF32), clamped);
  r = _mm512_fnmadd_ps(k, _mm512_set1_ps(kLn2LowF32), r);
  constexpr auto kInverseFactorials = inverse_factorials<float, 8, 2, 1>();
  __m512 q = _mm512_set1_ps(kInverseFactorials[0]);
  for (std::size_t i = 1; i < kInverseFactorials.size(); ++i)
    q = _mm512_fmadd_ps(q, r, _mm512_set1_ps(kInverseFactorials[i]));
  return {k, _mm512_fmadd_ps(_mm512_mul_ps(r, r), q, r)};
}
// exp x = 2^k (expm1(r) + 1), scaled in one rounding: float32 exp (within 0.98 ulp of the exact
// result on every float32 in [-104, 89]; 1.2x SLEEF's expf16_u10 speed), and cosh's and sinh's.
inline __m512 exp_reduced_ps(__m512 x) {
  const Expm1ReducedPs e = expm1_reduced_ps(x);
  return _mm512_scalef_ps(_mm512_add_ps(e.p, _mm512_set1_ps(1.0f)), e.k);
}
inline __m512 expm1_ps(__m512 x) {
  const Expm1ReducedPs e = expm1_reduced_ps(x);
  const __m512 one = _mm512_set1_ps(1.0f);
  const __m512 near =
      _mm512_add_ps(_mm512_scalef_ps(e.p, e.k), _mm512_sub_ps(_mm512_scalef_ps(one, e.k), one));
  const __m512 far = _mm512_sub_ps(_mm512_scalef_ps(_mm512_add_ps(e.p, one), e.k), one);
  const __mmask16 large = _mm512_cmp_ps_mask(e.k, _mm512_set1_ps(24.0f), _CMP_GT_OQ);
  const __m512 result = _mm512_mask_mov_ps(near, large, far);
  const __mmask16 tiny = _mm512_cmp_ps_mask(_mm512_abs_ps(x), _mm512_set1_ps(0x1p-30f), _CMP_LT_OQ);
  return _mm512_mask_mov_ps(result, tiny, x);
}

}  // namespace
}  // namespace tenferro::prims_cpu::simd::isa
