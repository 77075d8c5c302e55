// The AVX-512 intrinsics of one lane type under one name (LanesF64: eight doubles, LanesF32:
// sixteen floats), so that a kernel whose steps are the same in both precisions is written once
// (log1p_avx512.hpp); its per-precision constants stay with the kernel.
//
// Included only by simd_avx512.cpp's kernel headers (compiled with -mavx512f -mfma): everything
// here has internal linkage (see simd_body.inc on why).
#pragma once

#include <immintrin.h>

#include "ops/prims/cpu/simd/reciprocal_avx512.hpp"

namespace tenferro::prims_cpu::simd::isa {
namespace {

struct LanesF64 {
  using V = __m512d;
  using M = __mmask8;
  static constexpr M kAll = 0xFF;
  using S = double;
  static V set1(S v) { return _mm512_set1_pd(v); }
  static V add(V a, V b) { return _mm512_add_pd(a, b); }
  static V sub(V a, V b) { return _mm512_sub_pd(a, b); }
  static V mul(V a, V b) { return _mm512_mul_pd(a, b); }
  // b where either is a NaN (vminpd's rule): min(c, x) keeps x's NaN.
  static V min(V a, V b) { return _mm512_min_pd(a, b); }
  static V div(V a, V b) { return _mm512_div_pd(a, b); }
  static V fmadd(V a, V b, V c) { return _mm512_fmadd_pd(a, b, c); }
  static V fnmadd(V a, V b, V c) { return _mm512_fnmadd_pd(a, b, c); }
  static V abs(V a) { return _mm512_abs_pd(a); }
  static V sqrt(V a) { return _mm512_sqrt_pd(a); }
  static V or_bits(V a, V b) { return _mm512_or_pd(a, b); }
  static V and_bits(V a, V b) { return _mm512_and_pd(a, b); }
  static V reciprocal(V d) { return reciprocal_pd(d); }
  // a = 2^e m with m in [0.75, 1.5): m and the exponent of a (vgetmant / vgetexp).
  static V mantissa_p75_1p5(V a) {
    return _mm512_getmant_pd(a, _MM_MANT_NORM_p75_1p5, _MM_MANT_SIGN_src);
  }
  static V exponent(V a) { return _mm512_getexp_pd(a); }
  template <int Predicate>
  static M cmp(V a, V b) {
    return _mm512_cmp_pd_mask(a, b, Predicate);
  }
  static V mask_mov(V src, M m, V a) { return _mm512_mask_mov_pd(src, m, a); }
  static V mask_add(V src, M m, V a, V b) { return _mm512_mask_add_pd(src, m, a, b); }
};

struct LanesF32 {
  using V = __m512;
  using M = __mmask16;
  static constexpr M kAll = 0xFFFF;
  using S = float;
  static V set1(S v) { return _mm512_set1_ps(v); }
  static V add(V a, V b) { return _mm512_add_ps(a, b); }
  static V sub(V a, V b) { return _mm512_sub_ps(a, b); }
  static V mul(V a, V b) { return _mm512_mul_ps(a, b); }
  // b where either is a NaN (vminps's rule): min(c, x) keeps x's NaN.
  static V min(V a, V b) { return _mm512_min_ps(a, b); }
  static V div(V a, V b) { return _mm512_div_ps(a, b); }
  static V fmadd(V a, V b, V c) { return _mm512_fmadd_ps(a, b, c); }
  static V fnmadd(V a, V b, V c) { return _mm512_fnmadd_ps(a, b, c); }
  static V abs(V a) { return _mm512_abs_ps(a); }
  static V sqrt(V a) { return _mm512_sqrt_ps(a); }
  static V or_bits(V a, V b) { return _mm512_or_ps(a, b); }
  static V and_bits(V a, V b) { return _mm512_and_ps(a, b); }
  static V reciprocal(V d) { return reciprocal_ps(d); }
  static V mantissa_p75_1p5(V a) {
    return _mm512_getmant_ps(a, _MM_MANT_NORM_p75_1p5, _MM_MANT_SIGN_src);
  }
  static V exponent(V a) { return _mm512_getexp_ps(a); }
  template <int Predicate>
  static M cmp(V a, V b) {
    return _mm512_cmp_ps_mask(a, b, Predicate);
  }
  static V mask_mov(V src, M m, V a) { return _mm512_mask_mov_ps(src, m, a); }
  static V mask_add(V src, M m, V a, V b) { return _mm512_mask_add_ps(src, m, a, b); }
};

}  // namespace
}  // namespace tenferro::prims_cpu::simd::isa
