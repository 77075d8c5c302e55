// float64 asinh, atanh and log1p for the AVX-512 kernels (log1p also the Log1p op's, in place of
// SLEEF's u10: 0.5 against 2.1 ns an element), on a log by a 16-entry table held in registers
// and a short polynomial. On the 2-core AMD EPYC (Zen 4) of the everyday table, 2^16 elements
// through simd::unary: atanh 1.8 -> 0.85-0.9 ns an element, asinh 2.2 -> 1.3 (the series kernel
// of log1p_avx512.hpp before), NumPy's own 0.9-1.3 and 1.4-1.8 (it varies from run to run);
// within 1.45 ulp of the exact result (80-bit atanhl, asinhl) where the series kernel reached
// 1.76 and 1.88, log1p within 0.67 ulp (1.66).
//
// log(u + d), u > 0 and d a correction below an ulp of u (the rounding of 1 + y in log1p):
//   u = 2^e m, m in [1, 2) (vgetmantpd / vgetexppd),  k = round(15 m) in 15..30,
//   log(u + d) = e ln2 - log c_k + log1p(r) + d / u,   r = m c_k - 1.
//  - k is read from the low bits of fma(m, 15, 0x1.8p52) (15 m rounded once); its 16 values are
//    distinct mod 16, so vpermt2pd (which reads the low four bits) picks the entry from two
//    registers per column: no gather.
//  - c_k is a multiple of 2^-q near 15/k with |r| < 2^(1-q) over k's interval of m, so that
//    r = fma(m, c_k, -1) is exact (m c_k - 1 is a multiple of 2^-(52+q) below 2^(1-q)); r lies
//    in [-0.0375, 0.0407]. c_15 = 1 and c_30 = 1/2: u near 1, from above (e = 0, m near 1) or
//    below (e = -1, m near 2), gets e ln2 - log c_k = 0 exactly and the result is log1p(r)
//    alone, with no cancellation.
//  - -log c_k and ln2 in two parts, the high ones multiples of 2^-43, so that
//    hi = e ln2_hi - log c_k is exact (|e| <= 1074: e ln2_hi is below 2^53 units of 2^-43); the
//    low parts are below 2^-44 and go into the small terms.
//  - log1p r = r - r^2/2 + r^3 Q(r), Q of degree 7 (Chebyshev interpolation; its error with the
//    coefficients rounded is below 2^-58 of the smallest result each r can belong to), by
//    Estrin's scheme (a shorter dependency chain than Horner's, the same speed).
//  - w = hi + r with its rounding error by Fast2Sum (|hi| > |r| wherever hi != 0), then
//    w + (r^2 (-1/2 + r Q) + the low parts + w's error + d / u): the result rounds once beyond
//    the small terms' roundings.
//  - d / u by a division: 512-bit vdivpd is faster here than vrcp14pd with Newton steps, and
//    the quotient is correctly rounded.
// Constants from scripts/gen-log-tables.py (mpmath at 200 bits).
//
// Specials by vfixupimmpd on the operand that classifies them, one instruction (see each
// function). Tiny arguments need no mask in atanh and asinh (the result is their y / 2 or y,
// exactly |x| or within 2^-53 of it), and log1p keeps its |y| < 2^-60 giving y (the sign of
// -0).
//
// Included only by simd_avx512.cpp (compiled with -mavx512f -mfma): everything here has
// internal linkage (see simd_body.inc on why).
#pragma once

#include <immintrin.h>

namespace tenferro::prims_cpu::simd::isa {
namespace {

// Column j holds entry k = 16 + j (j = 0..14) and k = 15 (j = 15): c_k, and -log c_k in parts.
alignas(64) constexpr double kLogTableC[16] = {
    0x1.e000000000000p-1, 0x1.c000000000000p-1, 0x1.b000000000000p-1, 0x1.9000000000000p-1,
    0x1.8000000000000p-1, 0x1.7000000000000p-1, 0x1.6000000000000p-1, 0x1.5000000000000p-1,
    0x1.4000000000000p-1, 0x1.3000000000000p-1, 0x1.2800000000000p-1, 0x1.2000000000000p-1,
    0x1.1000000000000p-1, 0x1.0800000000000p-1, 0x1.0000000000000p-1, 0x1.0000000000000p+0};
alignas(64) constexpr double kLogTableHigh[16] = {
    0x1.08598b59e4000p-4, 0x1.1178e8227e000p-3, 0x1.5bf406b544000p-3, 0x1.f991c6cb3b000p-3,
    0x1.269621134d800p-2, 0x1.522ae0738a000p-2, 0x1.7fafa3bd81800p-2, 0x1.af5295248d000p-2,
    0x1.e148a1a272800p-2, 0x1.0ae76e2d05400p-1, 0x1.188ee40f23c00p-1, 0x1.269621134dc00p-1,
    0x1.43d9ff2f92400p-1, 0x1.5322e26867800p-1, 0x1.62e42fefa3800p-1, 0x0.0p+0};
alignas(64) constexpr double kLogTableLow[16] = {
    -0x1.7e5dd7009902cp-46, 0x1.1ef78ce2d07f2p-45, -0x1.27023eb68981cp-46, 0x1.bcbecca0cdf30p-46,
    0x1.c93c1df5bb3b6p-45,  0x1.ebe708164c759p-45, -0x1.72090c812566ap-45, -0x1.17cc552774458p-45,
    -0x1.326b207322938p-46, 0x1.f486b887e7e27p-46, 0x1.4cc4ef8ab4650p-46,  -0x1.b61f105226250p-47,
    -0x1.d984f481051f7p-48, 0x1.5ccc45d257531p-47, 0x1.ef35793c76730p-45,  0x0.0p+0};
constexpr double kLn2High = 0x1.62e42fefa3800p-1, kLn2Low = 0x1.ef35793c76730p-45;

inline __m512d log_table_column_pd(const double* column, __m512i index) {
  return _mm512_permutex2var_pd(_mm512_load_pd(column), index, _mm512_load_pd(column + 8));
}

// log(u + d) for finite u > 0 and |d| below an ulp of u (the header comment says why each step
// stays within its bound); NaN for u < 0 (vgetmantpd's sign rule), anything for u = 0, +inf.
inline __m512d log_sum_pd(__m512d u, __m512d d) {
  const __m512d one = _mm512_set1_pd(1.0);
  const __m512d m = _mm512_getmant_pd(u, _MM_MANT_NORM_1_2, _MM_MANT_SIGN_nan);
  const __m512d e = _mm512_getexp_pd(u);
  const __m512i k =
      _mm512_castpd_si512(_mm512_fmadd_pd(m, _mm512_set1_pd(15.0), _mm512_set1_pd(0x1.8p52)));
  const __m512d r = _mm512_fmsub_pd(m, log_table_column_pd(kLogTableC, k), one);  // exact
  const __m512d hi =
      _mm512_fmadd_pd(e, _mm512_set1_pd(kLn2High), log_table_column_pd(kLogTableHigh, k));  // exact
  const __m512d w = _mm512_add_pd(hi, r);
  const __m512d w_error = _mm512_add_pd(_mm512_sub_pd(hi, w), r);
  __m512d low = _mm512_fmadd_pd(e, _mm512_set1_pd(kLn2Low), log_table_column_pd(kLogTableLow, k));
  low = _mm512_add_pd(_mm512_add_pd(low, _mm512_div_pd(d, u)), w_error);
  // -1/2 + r Q(r), Q by Estrin's scheme
  const __m512d r2 = _mm512_mul_pd(r, r);
  const __m512d r4 = _mm512_mul_pd(r2, r2);
  const __m512d q01 = _mm512_fmadd_pd(_mm512_set1_pd(-0x1.0000000001116p-2), r,
                                      _mm512_set1_pd(0x1.5555555555514p-2));
  const __m512d q23 = _mm512_fmadd_pd(_mm512_set1_pd(-0x1.5555552024cc4p-3), r,
                                      _mm512_set1_pd(0x1.9999999c39efbp-3));
  const __m512d q45 = _mm512_fmadd_pd(_mm512_set1_pd(-0x1.0001383809d5ep-3), r,
                                      _mm512_set1_pd(0x1.24922719f3e39p-3));
  const __m512d q67 = _mm512_fmadd_pd(_mm512_set1_pd(-0x1.960100aabe140p-4), r,
                                      _mm512_set1_pd(0x1.c8388f16a4d4cp-4));
  const __m512d q =
      _mm512_fmadd_pd(_mm512_fmadd_pd(q67, r2, q45), r4, _mm512_fmadd_pd(q23, r2, q01));
  const __m512d p = _mm512_fmadd_pd(q, r, _mm512_set1_pd(-0.5));
  return _mm512_add_pd(w, _mm512_fmadd_pd(r2, p, low));
}

// vfixupimmpd's table: `response` for the operand's class `token` (0 QNaN, 1 SNaN, 2 zero,
// 3 +1, 4 -inf, 5 +inf, 6 negative, 7 positive); 0, keep the computed result, for the others.
constexpr long long fixup_response(int token, int response) {
  return static_cast<long long>(response) << (4 * token);
}
constexpr int kFixupDefaultNaN = 3, kFixupMinusInf = 4, kFixupPlusInf = 5;
// log's specials on u = 1 + y: +0 gives -inf, +inf +inf, negative (and -inf) NaN.
constexpr int kLogFixup =
    static_cast<int>(fixup_response(2, kFixupMinusInf) | fixup_response(4, kFixupDefaultNaN) |
                     fixup_response(5, kFixupPlusInf) | fixup_response(6, kFixupDefaultNaN));

// magnitude with x's sign: magnitude | (x & sign bit), one vpternlogq.
inline __m512d with_sign_of_pd(__m512d magnitude, __m512d x) {
  return _mm512_castsi512_pd(_mm512_ternarylogic_epi64(
      _mm512_castpd_si512(magnitude), _mm512_castpd_si512(x),
      _mm512_set1_epi64(static_cast<long long>(0x8000000000000000ull)), 0xf8));
}

// log1p y: u = 1 + y rounded and d = y - (u - 1) its rounding error (exact: fdlibm's
// correction); u = +0 gives -inf, +inf +inf, u < 0 NaN (a NaN stays one), and |y| < 2^-60 y
// itself (the sign of -0 included).
inline __m512d log1p_table_pd(__m512d y) {
  const __m512d one = _mm512_set1_pd(1.0);
  const __m512d u = _mm512_add_pd(y, one);
  const __m512d d = _mm512_sub_pd(y, _mm512_sub_pd(u, one));
  const __m512d r = _mm512_fixupimm_pd(log_sum_pd(u, d), u, _mm512_set1_epi64(kLogFixup), 0);
  return _mm512_mask_mov_pd(
      r, _mm512_cmp_pd_mask(_mm512_abs_pd(y), _mm512_set1_pd(0x1p-60), _CMP_LT_OQ), y);
}

// atanh x = sign(x) log1p(y) / 2, y = t + t |x| / (1 - |x|) with t = 2|x| (fdlibm's form below
// |x| = 1/2, where 1 - |x| may round: its error reaches only the smaller term; above, one
// rounding more than fdlibm's 2|x| / (1 - |x|) but no larger error on the sweep). The fixup
// on 1 - |x|: 0 (|x| = 1) gives inf, negative (|x| > 1, inf) NaN.
inline __m512d atanh_table_pd(__m512d x) {
  const __m512d one = _mm512_set1_pd(1.0);
  const __m512d a = _mm512_abs_pd(x);
  const __m512d t = _mm512_add_pd(a, a);
  const __m512d rest = _mm512_sub_pd(one, a);
  const __m512d y = _mm512_fmadd_pd(t, _mm512_div_pd(a, rest), t);
  const __m512d u = _mm512_add_pd(y, one);
  const __m512d d = _mm512_sub_pd(y, _mm512_sub_pd(u, one));
  const __m512d magnitude = _mm512_fixupimm_pd(
      _mm512_mul_pd(log_sum_pd(u, d), _mm512_set1_pd(0.5)), rest,
      _mm512_set1_epi64(fixup_response(2, kFixupPlusInf) | fixup_response(4, kFixupDefaultNaN) |
                        fixup_response(6, kFixupDefaultNaN)),
      0);
  return with_sign_of_pd(magnitude, x);
}

// asinh x = sign(x) log1p(|x| + x^2 / (1 + sqrt(1 + x^2))), and log|x| + ln2 above 2^28 (x^2
// would overflow from 1.3e154; there log1p(|x| - 1), |x| - 1 exact or rounding to |x|, and
// the next term of log 2|x|, 1 / (4 x^2), is below 2^-58 of it). The fixup on |x|: +inf gives
// +inf.
inline __m512d asinh_table_pd(__m512d x) {
  const __m512d one = _mm512_set1_pd(1.0);
  const __m512d a = _mm512_abs_pd(x);
  const __m512d a2 = _mm512_mul_pd(a, a);
  const __m512d s = _mm512_sqrt_pd(_mm512_add_pd(one, a2));
  __m512d y = _mm512_add_pd(a, _mm512_div_pd(a2, _mm512_add_pd(one, s)));
  const __mmask8 big = _mm512_cmp_pd_mask(a, _mm512_set1_pd(0x1p28), _CMP_GT_OQ);
  y = _mm512_mask_sub_pd(y, big, a, one);
  const __m512d u = _mm512_add_pd(y, one);
  const __m512d d = _mm512_sub_pd(y, _mm512_sub_pd(u, one));
  __m512d r = log_sum_pd(u, d);
  r = _mm512_mask_add_pd(r, big, r, _mm512_set1_pd(0x1.62e42fefa39efp-1));
  r = _mm512_fixupimm_pd(r, a, _mm512_set1_epi64(fixup_response(5, kFixupPlusInf)), 0);
  return with_sign_of_pd(r, x);
}

}  // namespace
}  // namespace tenferro::prims_cpu::simd::isa
