// float32 pow for the AVX-512 kernels: 2^(y log2 x) in float64 arithmetic, by a table and a
// short polynomial for each of log2 and 2^t (docs/prims.md has the speed against SLEEF's and
// NumPy's). The double-precision result is within about 1e-10 of pow(x, y) relative, so
// rounding it to float gives the correctly rounded result but where that lies within 1e-10
// of a rounding boundary (the ulp test holds it to 1 ulp of the correctly rounded value and
// 4 ulp of libm).
//
//   x = 2^k z, z in [0.699, 1.398): the sixteen intervals of z are 2^19 bit patterns each,
//   so bits 19-22 of (bits of x) - 0x3f330000 index them and its bits from 23 are k (the
//   float32 log kernels' usual split). log2 x = k + log2 c + log2(1 + r), r = z / c - 1, with
//   c the interval's midpoint (1 on the interval holding 1: no cancellation near x = 1),
//   |r| <= 0.0297 and log2(1 + r) = r P(r) (relative error 3e-12). r is z * (1/c) - 1 in one
//   FMA; the identity is exact for the stored 1/c, whose log2 the table holds.
//
//   t = y log2 x, clamped to [-160, 130] (beyond it the result rounds to 0 or inf in float32);
//   t = n + j/16 + s, |s| <= 1/32, and 2^t = 2^n 2^(j/16) (1 + s Q(s)), with exp's table of
//   2^(j/16); vscalefpd applies 2^n. The rounding to float32 is the last step, so underflow
//   to a subnormal and overflow to inf round once.
//
// The kernel is for x positive and normal and y finite. Other lanes (zeros, negative bases,
// subnormal bases, infinities, NaNs: C99's special cases), and lanes whose result is within an
// ulp of FLT_MAX or beyond (where the float64 value's own error could decide between FLT_MAX
// and inf), take libm's float64 pow rounded to float32: C99's cases as powf, and correctly
// rounded where glibc's powf is not quite (it gives inf for some results that round to
// FLT_MAX: 30 of the ulp test's 1000 pairs at the threshold). The constants are printed by
// scripts/gen-pow-tables.py.
//
// Included only by simd_avx512.cpp (compiled with -mavx512f -mavx512dq -mfma): everything
// here has internal linkage (see simd_body.inc on why).
#pragma once

#include <immintrin.h>
#include <math.h>

#include <cstdint>

#include "ops/prims/cpu/simd/exp_table_avx512.hpp"

namespace tenferro::prims_cpu::simd::isa {
namespace {

// The generator's layout, four to a line:
// clang-format off
alignas(64) constexpr double kPowfInvC[16] = {
    0x1.661ec6a5122f9p+0, 0x1.571ed3c506b3ap+0, 0x1.49539e3b2d067p+0, 0x1.3c995a47babe7p+0,
    0x1.30d190130d190p+0, 0x1.25e22708092f1p+0, 0x1.1bb4a4046ed29p+0, 0x1.12358e75d3033p+0,
    0x1.0953f39010954p+0, 0x1.0000000000000p+0, 0x1.e573ac901e574p-1, 0x1.ca4b3055ee191p-1,
    0x1.b2036406c80d9p-1, 0x1.9c2d14ee4a102p-1, 0x1.886e5f0abb04ap-1, 0x1.767dce434a9b1p-1,
};
alignas(64) constexpr double kPowfLog2C[16] = {
    -0x1.efec61b011f85p-2, -0x1.b0b67f4f46812p-2, -0x1.7418acebbf18fp-2, -0x1.39de8e1559f6ep-2,
    -0x1.01d9bbcfa61d4p-2, -0x1.97c1cb13c7ec0p-3, -0x1.2f9e32d5bfdd1p-3, -0x1.960caf9abb7c1p-4,
    -0x1.a6f9c377dd31dp-5, 0x0.0p+0, 0x1.3aa2fdd27f1bfp-4, 0x1.476a9f983f74dp-3,
    0x1.e840be74e6a4dp-3, 0x1.406463b1b0448p-2, 0x1.88e9c72e0b224p-2, 0x1.ce0a4923a587dp-2,
};
constexpr double kPowfLog2P[6] = {
    0x1.71547652bcfc0p+0, -0x1.71547652d2883p-1, 0x1.ec7097c2f1b3cp-2,
    -0x1.71546e93288d2p-2, 0x1.27bdf956ecafap-2, -0x1.ecfefe92f261ep-3,
};
constexpr double kPowfExp2Q[4] = {
    0x1.62e42fefa39efp-1, 0x1.ebfbdff82c58fp-3, 0x1.c6b08d704a0c0p-5, 0x1.3b2ab6fba4e77p-7,
};
// clang-format on

// x = 2^k z, z in [0.699, 1.398), split by the bits of x as above but in the float64 layout
// (OFFSET's float64 pattern; the interval is bits 48-51 of the difference, k its bits from 52),
// for x positive and normal; the float64 pow shares it.
struct PowSplit {
  __m512d k, z;
  __m512i interval;  // in bits 0-3 of each lane, the rest ignored by pow_lookup_pd
};
inline PowSplit pow_split_pd(__m512d x) {
  const __m512i ix = _mm512_castpd_si512(x);
  const __m512i from_offset = _mm512_sub_epi64(ix, _mm512_set1_epi64(0x3fe6600000000000));
  const __m512d k = _mm512_cvtepi64_pd(_mm512_srai_epi64(from_offset, 52));
  const __m512d z = _mm512_castsi512_pd(
      _mm512_sub_epi64(ix, _mm512_and_si512(from_offset, _mm512_set1_epi64(-(1ll << 52)))));
  return {k, z, _mm512_srli_epi64(from_offset, 48)};
}
// The interval's entry of a 16-entry table (permutex2var reads the low four bits of the index).
inline __m512d pow_lookup_pd(const double* table, __m512i interval) {
  return _mm512_permutex2var_pd(_mm512_load_pd(table), interval, _mm512_load_pd(table + 8));
}

// pow for eight lanes, x and y widened to float64 (exactly).
inline __m512d powf_eight_pd(__m512d x, __m512d y) {
  const auto [k, z, interval] = pow_split_pd(x);
  const __m512d inv_c = pow_lookup_pd(kPowfInvC, interval);
  const __m512d log2_c = pow_lookup_pd(kPowfLog2C, interval);
  const __m512d r = _mm512_fmsub_pd(z, inv_c, _mm512_set1_pd(1.0));
  __m512d p = _mm512_set1_pd(kPowfLog2P[5]);
  for (int d = 4; d >= 0; --d) p = _mm512_fmadd_pd(p, r, _mm512_set1_pd(kPowfLog2P[d]));
  const __m512d log2_x = _mm512_fmadd_pd(r, p, _mm512_add_pd(k, log2_c));
  __m512d t = _mm512_mul_pd(y, log2_x);
  t = _mm512_min_pd(_mm512_set1_pd(130.0), _mm512_max_pd(_mm512_set1_pd(-160.0), t));

  const __m512d shifter = _mm512_set1_pd(0x1.8p52);
  const __m512d shifted = _mm512_fmadd_pd(t, _mm512_set1_pd(16.0), shifter);
  const __m512d sixteenths = _mm512_sub_pd(shifted, shifter);                   // 16 n + j
  const __m512d s = _mm512_fnmadd_pd(sixteenths, _mm512_set1_pd(1.0 / 16), t);  // exact
  const __m512d table = exp2_sixteenths_pd(shifted);
  __m512d q = _mm512_set1_pd(kPowfExp2Q[3]);
  for (int d = 2; d >= 0; --d) q = _mm512_fmadd_pd(q, s, _mm512_set1_pd(kPowfExp2Q[d]));
  const __m512d scaled = _mm512_fmadd_pd(table, _mm512_mul_pd(s, q), table);
  return scale_by_sixteenths_pd(scaled, sixteenths);
}

// Half H of the sixteen float32 lanes, in float64 and back; *near_overflow: the lanes whose float64
// result is within an ulp of float32's overflow threshold or beyond, where its 1e-10 could round to
// inf what is finite or the other way.
template <int H>
__m256 powf_half(__m512 x, __m512 y, __mmask8* near_overflow) {
  const auto widen = [](__m512 v) {
    return _mm512_cvtps_pd(_mm256_castpd_ps(_mm512_extractf64x4_pd(_mm512_castps_pd(v), H)));
  };
  const __m512d r = powf_eight_pd(widen(x), widen(y));
  *near_overflow = _mm512_cmp_pd_mask(r, _mm512_set1_pd(0x1.fffffcp127), _CMP_GE_OQ);
  return _mm512_cvtpd_ps(r);
}

// The lanes of `out` named by `lanes` recomputed by libm (the special cases), the rest kept.
template <class S, int W, class V, class Store, class Load, class Pow>
V redo_lanes(V x, V y, V out, unsigned lanes, Store store, Load load, Pow pow_libm) {
  alignas(64) S xs[W], ys[W], rs[W];
  store(xs, x);
  store(ys, y);
  store(rs, out);
  for (; lanes != 0; lanes &= lanes - 1) {
    const int lane = __builtin_ctz(lanes);
    rs[lane] = pow_libm(xs[lane], ys[lane]);
  }
  return load(rs);
}
inline __m512 redo_lanes_ps(__m512 x, __m512 y, __m512 out, __mmask16 lanes) {
  return redo_lanes<float, 16>(
      x, y, out, lanes, [](float* p, __m512 v) { _mm512_store_ps(p, v); },
      [](const float* p) { return _mm512_load_ps(p); },
      [](float a, float b) { return static_cast<float>(pow(double{a}, double{b})); });
}
inline __m512d redo_lanes_pd(__m512d x, __m512d y, __m512d out, __mmask8 lanes) {
  return redo_lanes<double, 8>(
      x, y, out, lanes, [](double* p, __m512d v) { _mm512_store_pd(p, v); },
      [](const double* p) { return _mm512_load_pd(p); },
      [](double a, double b) { return pow(a, b); });
}

inline __m512 powf_table_ps(__m512 x, __m512 y) {
  const __m512i ix = _mm512_castps_si512(x);
  const __m512i iy = _mm512_castps_si512(y);
  // x positive and normal (its bits from 0x00800000 below 0x7f800000), y finite.
  const __mmask16 ordinary =
      _mm512_cmplt_epu32_mask(_mm512_sub_epi32(ix, _mm512_set1_epi32(0x00800000)),
                              _mm512_set1_epi32(0x7f000000)) &
      _mm512_cmplt_epu32_mask(_mm512_and_si512(iy, _mm512_set1_epi32(0x7fffffff)),
                              _mm512_set1_epi32(0x7f800000));
  __mmask8 near_lo, near_hi;
  const __m256 lo = powf_half<0>(x, y, &near_lo);
  __m512 out = _mm512_insertf32x8(_mm512_castps256_ps512(lo), powf_half<1>(x, y, &near_hi), 1);
  const unsigned redo = (~ordinary & 0xFFFFu) | near_lo | (unsigned{near_hi} << 8);
  if (redo != 0) out = redo_lanes_ps(x, y, out, static_cast<__mmask16>(redo));
  return out;
}

}  // namespace
}  // namespace tenferro::prims_cpu::simd::isa
