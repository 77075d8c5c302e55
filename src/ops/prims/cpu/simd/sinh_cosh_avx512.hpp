// float64 sinh and cosh for the AVX-512 kernels, from this folder's exp and expm1. SLEEF's took
// 1.4-1.8x NumPy's time on this machine.
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

}  // namespace
}  // namespace tenferro::prims_cpu::simd::isa
