// 1 / d from vrcp14 (14 bits) and Newton steps, for the AVX-512 kernels of this folder: a
// division (vdivps / vdivpd on 512 bits) was most of those kernels' time; an FMA is a sixteenth
// of one. Not the correctly rounded quotient: about 2^-28 relative for float (one step) and
// 2^-52 for double (two steps), so each caller uses it where such an error stays below its own
// bound (they say where). d must be finite and nonzero: 1 / 0 comes out NaN, not infinite.
//
// Included only by simd_avx512.cpp (compiled with -mavx512f -mfma): everything here has internal
// linkage (see simd_body.inc on why).
#pragma once

#include <immintrin.h>

namespace tenferro::prims_cpu::simd::isa {
namespace {

inline __m512 reciprocal_ps(__m512 d) {
  const __m512 y = _mm512_rcp14_ps(d);
  return _mm512_fmadd_ps(y, _mm512_fnmadd_ps(d, y, _mm512_set1_ps(1.0f)), y);
}

inline __m512d reciprocal_pd(__m512d d) {
  const __m512d one = _mm512_set1_pd(1.0);
  __m512d y = _mm512_rcp14_pd(d);
  y = _mm512_fmadd_pd(y, _mm512_fnmadd_pd(d, y, one), y);
  return _mm512_fmadd_pd(y, _mm512_fnmadd_pd(d, y, one), y);
}

}  // namespace
}  // namespace tenferro::prims_cpu::simd::isa
