// float64 pow for the AVX-512 kernels: exp(y ln x) with ln x and the product y ln x carried as
// double-doubles (hi + lo), then exp by the float64 exp kernel's table and polynomial with the
// lo part folded into its reduced argument (docs/prims.md has the speed against SLEEF's and
// NumPy's; the ulp tests hold it to 4 ulp of libm and count how often it is more than 1 ulp
// from the correctly rounded result).
//
// The result's relative error is |y| times the absolute error of ln x plus exp's own, so ln x
// must be right to about 2^-62 relative: |y ln x| reaches 745 before the result underflows.
//
//   x = 2^k z, z in [0.699, 1.398), split by the bits of x as in powf_table_avx512.hpp (the
//   same sixteen intervals and 1/c table). ln x = k ln2 + ln c + ln(1 + r), r = z (1/c) - 1
//   exactly as rh + rl (the product's rounding error by an FMA; p - 1 is exact near 1), and
//   ln(1 + r) = ln(1 + rh) + rl / (1 + rh) to 2^-70, ln(1 + rh) = rh - rh^2/2 + rh^3 R(rh),
//   with rh^2 = sq + sq_lo by an FMA and R of degree 8.
//   The high parts k ln2_hi (exact: ln2_hi has 42 bits), ln c_hi, rh and -sq/2 are added by
//   Fast2Sum steps (each sum's rounding error recovered; each step's first operand is 0 or
//   the larger in magnitude, which the intervals' bounds guarantee: |ln c| >= 0.035 > |r|
//   off the interval holding 1, whose c is 1), the low parts, r^3 R(r) and the errors in one
//   double, and the pair renormalised by a last Fast2Sum.
//
//   t = y ln x = th + tl (th's rounding error by an FMA), and for th in [-708.3, 709.78]
//   exp(th + tl) = 2^n 2^(j/16) exp(s), s = th - (16n + j) ln2/16 + tl, as
//   exp_table_avx512.hpp computes it, with the table's low parts.
//
// The kernel is for x positive and normal and y finite, and results between DBL_MIN and just
// below DBL_MAX. Other lanes (zeros, negative and subnormal bases, infinities, NaNs: C99's
// special cases; results that overflow, underflow, or lie where the last ulp decides between
// DBL_MAX and inf: the kernel gave DBL_MAX for DBL_MAX + 0.68 ulp) take libm's pow, so they
// give its bits. The
// constants are printed by scripts/gen-pow-tables.py.
//
// Included only by simd_avx512.cpp (compiled with -mavx512f -mavx512dq -mfma): everything
// here has internal linkage (see simd_body.inc on why).
#pragma once

#include <immintrin.h>
#include <math.h>

#include "ops/prims/cpu/simd/exp_table_avx512.hpp"
#include "ops/prims/cpu/simd/powf_table_avx512.hpp"

namespace tenferro::prims_cpu::simd::isa {
namespace {

// The generator's layout, four to a line:
// clang-format off
alignas(64) constexpr double kPowLnCHi[16] = {
    -0x1.57bf753c8d1fbp-2, -0x1.2bef07cdc9355p-2, -0x1.01eae5626c691p-2, -0x1.b31d8575bce3bp-3,
    -0x1.6574ebe8c1339p-3, -0x1.1aa2b7e23f729p-3, -0x1.a4e7640b1bc38p-4, -0x1.1973bd1465561p-4,
    -0x1.252f32f8d1840p-5, -0x0.0p+0, 0x1.b42dd711971b9p-5, 0x1.c5e548f5bc743p-4,
    0x1.526e5e3a1b438p-3, 0x1.bc286742d8cd4p-3, 0x1.1058bf9ae4ad4p-2, 0x1.404308686a7e4p-2,
};
alignas(64) constexpr double kPowLnCLo[16] = {
    0x1.2908d15f88b63p-57, 0x1.22dad7fd86088p-56, -0x1.d9f5bd0b5b348p-57, 0x1.0d4eace1aa537p-59,
    -0x1.c5961e173bc82p-57, -0x1.6e44389934420p-57, 0x1.9b5ca203e4259p-58, 0x1.7aac1b3d35680p-58,
    -0x1.ae021b67a9ba8p-61, -0x0.0p+0, 0x1.0a34531f67db5p-59, 0x1.2eb0bf7c0b0d9p-59,
    -0x1.546ff8a470d3ap-57, 0x1.cfce744870f57p-58, 0x1.3f415699663ecp-63, -0x1.f79f6c1059cdbp-57,
};
constexpr double kPowLn2Hi = 0x1.62e42fefa3800p-1, kPowLn2Lo = 0x1.ef35793c76730p-45;
constexpr double kPowLnR[9] = {
    0x1.5555555555555p-2, -0x1.fffffffffffc1p-3, 0x1.9999999999939p-3,
    -0x1.555555563e37ap-3, 0x1.249249259eb80p-3, -0x1.ffffe2dc9941fp-4,
    0x1.c71c53e838238p-4, -0x1.9a4666f3e054dp-4, 0x1.750337b0fb53bp-4,
};
alignas(64) constexpr double kPowExp2SixteenthsLo[16] = {
    0x0.0p+0, 0x1.8a62e4adc610bp-54, -0x1.19041b9d78a76p-55, 0x1.9b07eb6c70573p-54,
    0x1.6f46ad23182e4p-55, 0x1.ada0911f09ebcp-55, 0x1.d4397afec42e2p-56, 0x1.6324c054647adp-54,
    -0x1.bdd3413b26456p-54, -0x1.41577ee04992fp-55, 0x1.6e9f156864b27p-54, 0x1.c7c46b071f2bep-56,
    0x1.7a1cd345dcc81p-54, 0x1.11065895048ddp-55, 0x1.2ed02d75b3707p-55, -0x1.e9c23179c2893p-54,
};
// clang-format on

// a + b as s + e exactly, for |a| >= |b| or a = 0 (Fast2Sum).
inline __m512d fast_two_sum_pd(__m512d a, __m512d b, __m512d* e) {
  const __m512d s = _mm512_add_pd(a, b);
  *e = _mm512_sub_pd(b, _mm512_sub_pd(s, a));
  return s;
}

// ln x as hi + lo (the return value and *lo), for x positive and normal.
inline __m512d pow_ln_pd(__m512d x, __m512d* lo) {
  const auto [k, z, interval] = pow_split_pd(x);
  const __m512d inv_c = pow_lookup_pd(kPowfInvC, interval);
  const __m512d ln_c_hi = pow_lookup_pd(kPowLnCHi, interval);
  const __m512d ln_c_lo = pow_lookup_pd(kPowLnCLo, interval);

  const __m512d p = _mm512_mul_pd(z, inv_c);
  const __m512d rl = _mm512_fmsub_pd(z, inv_c, p);
  const __m512d rh = _mm512_sub_pd(p, _mm512_set1_pd(1.0));
  const __m512d sq = _mm512_mul_pd(rh, rh);
  const __m512d sq_lo = _mm512_fmsub_pd(rh, rh, sq);
  const __m512d half_sq = _mm512_mul_pd(sq, _mm512_set1_pd(-0.5));

  __m512d e1, e2, e3;
  const __m512d s1 = fast_two_sum_pd(_mm512_mul_pd(k, _mm512_set1_pd(kPowLn2Hi)), ln_c_hi, &e1);
  const __m512d s2 = fast_two_sum_pd(s1, rh, &e2);
  const __m512d hi = fast_two_sum_pd(s2, half_sq, &e3);

  __m512d poly = _mm512_set1_pd(kPowLnR[8]);
  for (int d = 7; d >= 0; --d) poly = _mm512_fmadd_pd(poly, rh, _mm512_set1_pd(kPowLnR[d]));
  __m512d low = _mm512_fmadd_pd(k, _mm512_set1_pd(kPowLn2Lo), ln_c_lo);
  // rl's share, rl / (1 + rh) to the term in rh^3 rl: rl is up to 2^-53, and rh^2 rl alone
  // is 4e-18 of ln x near the intervals' ends.
  const __m512d one_minus_rh = _mm512_sub_pd(_mm512_set1_pd(1.0), rh);
  const __m512d by_rl = _mm512_fmadd_pd(sq, one_minus_rh, one_minus_rh);
  low = _mm512_fmadd_pd(rl, by_rl, low);
  low = _mm512_fmadd_pd(sq_lo, _mm512_set1_pd(-0.5), low);
  low = _mm512_fmadd_pd(_mm512_mul_pd(sq, rh), poly, low);
  low = _mm512_add_pd(low, _mm512_add_pd(e1, _mm512_add_pd(e2, e3)));
  // Renormalised, so that y lo stays within about an ulp of y hi: exp's reduction takes its
  // multiple of ln2/16 from y hi alone (r^3 R(r), in low, reaches 3e-4 of hi).
  return fast_two_sum_pd(hi, low, lo);
}

// exp(th + tl) for th in [-708.3, 709.78] (the caller redoes the rest), tl below an ulp or so
// of th: results normal and finite.
inline __m512d pow_exp_pd(__m512d th, __m512d tl) {
  const ExpReduction e = exp_reduce_pd(th);
  const __m512d table = exp2_sixteenths_pd(e.shifted);
  const __m512d table_lo = pow_lookup_pd(kPowExp2SixteenthsLo, _mm512_castpd_si512(e.shifted));
  const __m512d expm1_s = expm1_reduced_pd(_mm512_add_pd(e.r, tl));
  // (table + table_lo)(1 + expm1_s) with one rounding of the sum at the end: the table's own
  // rounding (up to half an ulp) would otherwise add to the result's.
  const __m512d scaled = _mm512_add_pd(table, _mm512_fmadd_pd(table, expm1_s, table_lo));
  return scale_by_sixteenths_pd(scaled, e.sixteenths);
}

inline __m512d pow_table_pd(__m512d x, __m512d y) {
  const __m512i ix = _mm512_castpd_si512(x);
  const __m512i iy = _mm512_castpd_si512(y);
  // x positive and normal (its bits from 2^52 below 0x7ff << 52), y finite.
  const __mmask8 ordinary =
      _mm512_cmplt_epu64_mask(_mm512_sub_epi64(ix, _mm512_set1_epi64(1ll << 52)),
                              _mm512_set1_epi64(0x7fe0000000000000)) &
      _mm512_cmplt_epu64_mask(_mm512_and_si512(iy, _mm512_set1_epi64(0x7fffffffffffffff)),
                              _mm512_set1_epi64(0x7ff0000000000000));
  __m512d ln_lo;
  const __m512d ln_hi = pow_ln_pd(x, &ln_lo);
  const __m512d th = _mm512_mul_pd(y, ln_hi);
  const __m512d tl = _mm512_fmadd_pd(y, ln_lo, _mm512_fmsub_pd(y, ln_hi, th));
  __m512d out = pow_exp_pd(th, tl);
  // Results from just below DBL_MAX up (ln DBL_MAX = 709.7827) and from DBL_MIN down (ln
  // DBL_MIN = -708.3964): there the last ulp decides between DBL_MAX and inf, and subnormal
  // results would round twice; NaN (an infinite th) is outside too.
  const __mmask8 in_range = _mm512_cmp_pd_mask(th, _mm512_set1_pd(-708.3), _CMP_GE_OQ) &
                            _mm512_cmp_pd_mask(th, _mm512_set1_pd(709.78), _CMP_LE_OQ);
  const __mmask8 redo = static_cast<__mmask8>(~(ordinary & in_range));
  if (redo != 0) out = redo_lanes_pd(x, y, out, redo);
  return out;
}

}  // namespace
}  // namespace tenferro::prims_cpu::simd::isa
