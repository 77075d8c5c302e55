// float32 log1p, and asinh and atanh on it, for the AVX-512 kernels (float64: the table kernel
// of log_table_avx512.hpp, which this file's entry points call). SLEEF's u10 asinh and atanh
// took 2.2-3x NumPy's time on this machine in float32.
//
// log1p y: u = 1 + y rounded, u = 2^e m with m in [0.75, 1.5) (vgetmantps / vgetexpps), and
//   log1p y = e ln2 + log m + (y - (u - 1)) / u,   f = m - 1, s = f / (m + 1), |s| <= 0.2.
//  - The last term takes the rounding of 1 + y back (fdlibm's correction). It is all of the
//    result for the smallest y, so it is a division.
//  - log m = 2 atanh s = 2s + s^3 Q(s^2), Q the series' terms to s^11 (the first left out,
//    2 s^13/13, is below 2^-27 of 2s), evaluated as f - s (f - s^2 Q) (2s = f - s f, fdlibm's
//    form): f is exact, so the roundings of s and of the sums reach only the smaller terms.
//  - ln2 in two parts, the high one with 15 significant bits so that e ln2_hi is exact for
//    |e| < 2^9.
//  - u = +inf gives +inf, u = 0 -inf, u < 0 NaN, by one vfixupimmps on u (the three compares
//    and blends before took a fifth of atanh's time: 0.41 -> 0.34 ns an element, asinh 0.50
//    -> 0.46).
// atanh x = sign(x) log1p(t + t |x| / (1 - |x|)) / 2 with t = 2|x| below |x| = 1/2, and
// log1p(2|x| / (1 - |x|)) / 2 above (fdlibm's split; 1 - |x| exact there; one quotient for
// both); +-inf at |x| = 1, where the quotient is inf and so is u.
// Both give x itself for |x| < 2^-30 (the sign of zero included).
// asinh x = sign(x) log1p(|x| + x^2 / (1 + sqrt(1 + x^2))), and log|x| + ln2 above 2^12 (where
// 1 / (4 x^2), the next term of log 2x, is below 2^-27 of it).
// Every quotient is a division: 512-bit vdivps is faster on the Zen 4 machine than the vrcp14ps
// reciprocal with a Newton step that the kernels multiplied by before (2^16 elements: atanh
// 0.50 -> 0.41 ns an element, asinh 0.60 -> 0.50; max error over every 7th float 2.04 -> 2.07
// ulp for atanh, 2.03 for asinh both ways).
//
// Templates over lanes_avx512.hpp's lane types, instantiated for LanesF32 (they were the
// float64 kernels too, with the series to s^25, until the table kernel replaced them).
//
// Included only by simd_avx512.cpp (compiled with -mavx512f -mfma): everything here has internal
// linkage (see simd_body.inc on why).
#pragma once

#include <immintrin.h>

#include "ops/prims/cpu/simd/lanes_avx512.hpp"
#include "ops/prims/cpu/simd/log_table_avx512.hpp"

namespace tenferro::prims_cpu::simd::isa {
namespace {

// The constants that differ between the precisions (the header comment says why each is what
// it is).
template <class L>
struct Log1pConstants;
template <>
struct Log1pConstants<LanesF32> {
  static constexpr int kLastTerm = 11;
  static constexpr float kLn2High = 0x1.62e4p-1f, kLn2Low = 0x1.7f7d1cp-20f;
  static constexpr float kLn2 = 0x1.62e430p-1f;
  static constexpr float kTiny = 0x1p-30f;
  static constexpr float kLogFrom = 0x1p12f;
};

// log1p y (y = -0 gives +0: atanh and asinh put x's sign back, and give x itself below kTiny).
template <class L>
typename L::V log1p_lanes(typename L::V y) {
  using V = typename L::V;
  using S = typename L::S;
  using C = Log1pConstants<L>;
  const V one = L::set1(S(1));
  const V u = L::add(y, one);
  const V m = L::mantissa_p75_1p5(u);
  V e = L::exponent(u);
  e = L::mask_add(e, L::template cmp<_CMP_LT_OQ>(m, one), e, one);
  const V f = L::sub(m, one);
  const V s = L::div(f, L::add(m, one));
  const V s2 = L::mul(s, s);
  V q = L::set1(S(2) / C::kLastTerm);
  for (int k = C::kLastTerm - 2; k >= 3; k -= 2) q = L::fmadd(q, s2, L::set1(S(2) / k));
  const V log_m = L::fnmadd(s, L::fnmadd(s2, q, f), f);
  const V correction = L::div(L::sub(y, L::sub(u, one)), u);
  const V low = L::fmadd(e, L::set1(C::kLn2Low), correction);
  return L::fixup(L::fmadd(e, L::set1(C::kLn2High), L::add(log_m, low)), u, kLogFixup);
}

// x's sign on a non-negative magnitude, and |x| below kTiny giving x itself.
template <class L>
typename L::V odd_from_magnitude(typename L::V x, typename L::V magnitude) {
  using S = typename L::S;
  const typename L::V r = L::or_bits(magnitude, L::and_bits(x, L::set1(S(-0.0))));
  return L::mask_mov(r, L::template cmp<_CMP_LT_OQ>(L::abs(x), L::set1(Log1pConstants<L>::kTiny)),
                     x);
}

template <class L>
typename L::V atanh_lanes(typename L::V x) {
  using V = typename L::V;
  using S = typename L::S;
  const V a = L::abs(x);
  const V one = L::set1(S(1));
  const V t = L::add(a, a);
  const V rest = L::sub(one, a);
  const V ratio = L::div(a, rest);  // inf at |x| = 1
  const V below = L::fmadd(t, ratio, t);
  const V above = L::add(ratio, ratio);
  const V y = L::mask_mov(above, L::template cmp<_CMP_LT_OQ>(a, L::set1(S(0.5))), below);
  return odd_from_magnitude<L>(x, L::mul(log1p_lanes<L>(y), L::set1(S(0.5))));
}

template <class L>
typename L::V asinh_lanes(typename L::V x) {
  using V = typename L::V;
  using S = typename L::S;
  const V a = L::abs(x);
  const V one = L::set1(S(1));
  const V a2 = L::mul(a, a);
  const V y = L::add(a, L::div(a2, L::add(one, L::sqrt(L::add(one, a2)))));
  // Above kLogFrom: log a + ln2 = log1p(a - 1) + ln2 (a - 1 is exact there, or rounds to a).
  const typename L::M big = L::template cmp<_CMP_GT_OQ>(a, L::set1(Log1pConstants<L>::kLogFrom));
  const V r = log1p_lanes<L>(L::mask_mov(y, big, L::sub(a, one)));
  return odd_from_magnitude<L>(x, L::mask_add(r, big, r, L::set1(Log1pConstants<L>::kLn2)));
}

inline __m512d atanh_pd(__m512d x) {
  return atanh_table_pd(x);
}
inline __m512d asinh_pd(__m512d x) {
  return asinh_table_pd(x);
}
inline __m512 atanh_ps(__m512 x) {
  return atanh_lanes<LanesF32>(x);
}
inline __m512 asinh_ps(__m512 x) {
  return asinh_lanes<LanesF32>(x);
}

}  // namespace
}  // namespace tenferro::prims_cpu::simd::isa
