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

// One lane type: NAME over the intrinsics of suffix SUF (pd, ps), vector V, mask M with ALL
// lanes set, element S. One definition for both, so that the two cannot drift apart.
#define TENFERRO_AVX512_LANES(NAME, SUF, VEC, MASK, ALL, SCALAR, BITS)                      \
  struct NAME {                                                                             \
    using V = VEC;                                                                          \
    using M = MASK;                                                                         \
    static constexpr M kAll = ALL;                                                          \
    using S = SCALAR;                                                                       \
    static V set1(S v) { return _mm512_set1_##SUF(v); }                                     \
    static V add(V a, V b) { return _mm512_add_##SUF(a, b); }                               \
    static V sub(V a, V b) { return _mm512_sub_##SUF(a, b); }                               \
    static V mul(V a, V b) { return _mm512_mul_##SUF(a, b); }                               \
    /* b where either is a NaN (vminpd's rule): min(c, x) keeps x's NaN. */                 \
    static V min(V a, V b) { return _mm512_min_##SUF(a, b); }                               \
    static V div(V a, V b) { return _mm512_div_##SUF(a, b); }                               \
    static V fmadd(V a, V b, V c) { return _mm512_fmadd_##SUF(a, b, c); }                   \
    static V fnmadd(V a, V b, V c) { return _mm512_fnmadd_##SUF(a, b, c); }                 \
    static V abs(V a) { return _mm512_abs_##SUF(a); }                                       \
    static V sqrt(V a) { return _mm512_sqrt_##SUF(a); }                                     \
    static V or_bits(V a, V b) { return _mm512_or_##SUF(a, b); }                            \
    static V and_bits(V a, V b) { return _mm512_and_##SUF(a, b); }                          \
    static V reciprocal(V d) { return reciprocal_##SUF(d); }                                \
    /* a = 2^e m with m in [0.75, 1.5): m and the exponent of a (vgetmant / vgetexp). */    \
    static V mantissa_p75_1p5(V a) {                                                        \
      return _mm512_getmant_##SUF(a, _MM_MANT_NORM_p75_1p5, _MM_MANT_SIGN_src);             \
    }                                                                                       \
    static V exponent(V a) { return _mm512_getexp_##SUF(a); }                               \
    template <int Predicate>                                                                \
    static M cmp(V a, V b) {                                                                \
      return _mm512_cmp_##SUF##_mask(a, b, Predicate);                                      \
    }                                                                                       \
    static V mask_mov(V src, M m, V a) { return _mm512_mask_mov_##SUF(src, m, a); }         \
    static V mask_add(V src, M m, V a, V b) { return _mm512_mask_add_##SUF(src, m, a, b); } \
    /* vfixupimm: r, or by `table` (4 bits per class of c: see log_table_avx512.hpp). */    \
    static V fixup(V r, V c, int table) {                                                   \
      return _mm512_fixupimm_##SUF(r, c, _mm512_set1_epi##BITS(table), 0);                  \
    }                                                                                       \
  };
TENFERRO_AVX512_LANES(LanesF64, pd, __m512d, __mmask8, 0xFF, double, 64)
TENFERRO_AVX512_LANES(LanesF32, ps, __m512, __mmask16, 0xFFFF, float, 32)
#undef TENFERRO_AVX512_LANES

}  // namespace
}  // namespace tenferro::prims_cpu::simd::isa
