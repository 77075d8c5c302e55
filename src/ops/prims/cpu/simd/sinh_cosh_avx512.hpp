// sinh and cosh for the AVX-512 kernels, from this folder's exp and expm1. SLEEF's took 1.4-1.9x
// NumPy's time on this machine.
//  - sinh |x| = (t + t / (t + 1)) / 2 with t = expm1 |x| (fdlibm's form), and (2t - t^2 / (t + 1))
//    / 2 below |x| = 1, where t + t / (t + 1) would cancel (at worst 1.5-fold at |x| = 1; near 0
//    it is x itself); the sign is x's.
//  - cosh x = e / 2 + 1 / (2e) with e = exp |x|: no cancellation.
// Lanes with |x| above 709, where exp overflows before sinh and cosh do (710.48), and the
// infinities go to the C library's function, as SLEEF's lanes did (simd_body.inc); a NaN runs
// through the vector arithmetic as a NaN.
//
// Included only by simd_avx512.cpp (compiled with -mavx512f -mfma): everything here has internal
// linkage (see simd_body.inc on why).
#pragma once

#include <immintrin.h>
#include <math.h>

#include "ops/prims/cpu/simd/exp_table_avx512.hpp"
#include "ops/prims/cpu/simd/expm1_avx512.hpp"

namespace tenferro::prims_cpu::simd::isa {
namespace {

// r with the lanes of x beyond 709 in magnitude (infinities included) replaced by fn(x).
template <class Fn>
inline __m512d with_libm_beyond_709(__m512d x, __m512d r, Fn fn) {
  const __mmask8 large = _mm512_cmp_pd_mask(_mm512_abs_pd(x), _mm512_set1_pd(709.0), _CMP_GT_OQ);
  if (large == 0) return r;
  alignas(64) double in[8], out[8];
  _mm512_store_pd(in, x);
  _mm512_store_pd(out, r);
  for (int k = 0; k < 8; ++k) {
    if ((large >> k) & 1u) out[k] = fn(in[k]);
  }
  return _mm512_load_pd(out);
}

inline __m512d sinh_pd(__m512d x) {
  // min_pd returns its second operand where either is a NaN: x's NaN is kept.
  const __m512d a = _mm512_min_pd(_mm512_set1_pd(709.0), _mm512_abs_pd(x));
  const __m512d t = expm1_pd(a);
  const __m512d ratio = _mm512_div_pd(t, _mm512_add_pd(t, _mm512_set1_pd(1.0)));
  const __m512d above = _mm512_add_pd(t, ratio);
  const __m512d below = _mm512_fnmadd_pd(t, ratio, _mm512_add_pd(t, t));
  const __mmask8 small = _mm512_cmp_pd_mask(a, _mm512_set1_pd(1.0), _CMP_LT_OQ);
  const __m512d magnitude =
      _mm512_mul_pd(_mm512_mask_mov_pd(above, small, below), _mm512_set1_pd(0.5));
  const __m512d sign = _mm512_and_pd(x, _mm512_set1_pd(-0.0));
  return with_libm_beyond_709(x, _mm512_or_pd(magnitude, sign), [](double v) { return sinh(v); });
}

inline __m512d cosh_pd(__m512d x) {
  // min_pd returns its second operand where either is a NaN: x's NaN is kept.
  const __m512d a = _mm512_min_pd(_mm512_set1_pd(709.0), _mm512_abs_pd(x));
  const __m512d half_e = _mm512_mul_pd(exp_table_pd(a), _mm512_set1_pd(0.5));
  const __m512d r = _mm512_add_pd(half_e, _mm512_div_pd(_mm512_set1_pd(0.25), half_e));
  return with_libm_beyond_709(x, r, [](double v) { return cosh(v); });
}

// float32: the same forms in float32 lanes on expm1_reduced_ps; lanes beyond |x| = 88, where
// float32's exp overflows before sinh and cosh do (89.4), take the C library's float function.
template <class Fn>
inline __m512 with_libm_beyond_88(__m512 x, __m512 r, Fn fn) {
  const __mmask16 large = _mm512_cmp_ps_mask(_mm512_abs_ps(x), _mm512_set1_ps(88.0f), _CMP_GT_OQ);
  if (large == 0) return r;
  alignas(64) float in[16], out[16];
  _mm512_store_ps(in, x);
  _mm512_store_ps(out, r);
  for (int k = 0; k < 16; ++k) {
    if ((large >> k) & 1u) out[k] = fn(in[k]);
  }
  return _mm512_load_ps(out);
}

// 1 / d to about 2^-28 relative: vrcp14ps and one Newton step (a division is most of these
// kernels' time). d is finite and at least 1 here.
inline __m512 reciprocal_ps(__m512 d) {
  const __m512 y = _mm512_rcp14_ps(d);
  return _mm512_fmadd_ps(y, _mm512_fnmadd_ps(d, y, _mm512_set1_ps(1.0f)), y);
}

inline __m512 sinh_ps(__m512 x) {
  const __m512 a = _mm512_min_ps(_mm512_set1_ps(88.0f), _mm512_abs_ps(x));  // keeps a NaN
  const __m512 t = expm1_ps(a);
  const __m512 ratio = _mm512_mul_ps(t, reciprocal_ps(_mm512_add_ps(t, _mm512_set1_ps(1.0f))));
  const __m512 above = _mm512_add_ps(t, ratio);
  const __m512 below = _mm512_fnmadd_ps(t, ratio, _mm512_add_ps(t, t));
  const __mmask16 small = _mm512_cmp_ps_mask(a, _mm512_set1_ps(1.0f), _CMP_LT_OQ);
  const __m512 magnitude =
      _mm512_mul_ps(_mm512_mask_mov_ps(above, small, below), _mm512_set1_ps(0.5f));
  const __m512 sign = _mm512_and_ps(x, _mm512_set1_ps(-0.0f));
  return with_libm_beyond_88(x, _mm512_or_ps(magnitude, sign), [](float v) { return sinhf(v); });
}

inline __m512 cosh_ps(__m512 x) {
  const __m512 a = _mm512_min_ps(_mm512_set1_ps(88.0f), _mm512_abs_ps(x));  // keeps a NaN
  const __m512 half_e = _mm512_mul_ps(exp_reduced_ps(a), _mm512_set1_ps(0.5f));
  const __m512 r = _mm512_fmadd_ps(reciprocal_ps(half_e), _mm512_set1_ps(0.25f), half_e);
  return with_libm_beyond_88(x, r, [](float v) { return coshf(v); });
}

}  // namespace
}  // namespace tenferro::prims_cpu::simd::isa
