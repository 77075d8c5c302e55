// The AVX-512 kernels (compiled with -mavx512f -mavx512dq -mfma; run only when the CPU reports
// avx512f and avx512dq: cpu_isa.hpp).
#include <immintrin.h>
#include <math.h>
#include <sleef.h>

#include "ops/prims/cpu/simd/cbrt_avx512.hpp"
#include "ops/prims/cpu/simd/exp_table_avx512.hpp"
#include "ops/prims/cpu/simd/expm1_avx512.hpp"
#include "ops/prims/cpu/simd/log1p_avx512.hpp"
#include "ops/prims/cpu/simd/pow_table_avx512.hpp"
#include "ops/prims/cpu/simd/powf_table_avx512.hpp"
#include "ops/prims/cpu/simd/simd_isa_entry.hpp"
#include "ops/prims/cpu/simd/sinh_cosh_avx512.hpp"
#include "ops/prims/cpu/simd/tan_avx512.hpp"
#include "ops/prims/cpu/simd/tanh_avx512.hpp"

namespace {
// Square roots and quotients 256 bits at a time: AMD Zen 4 runs a 512-bit vsqrt or vdiv in
// two halves and more slowly than two 256-bit ones (float64 sqrt of 2^16 elements 0.80 against
// 0.74 ns an element; NumPy's own sqrt and divide are the 256-bit ones); on Intel the two
// forms have the same throughput.
inline __m512d sqrt_pd_by_halves(__m512d v) {
  const __m256d lo = _mm256_sqrt_pd(_mm512_castpd512_pd256(v));
  const __m256d hi = _mm256_sqrt_pd(_mm512_extractf64x4_pd(v, 1));
  return _mm512_insertf64x4(_mm512_castpd256_pd512(lo), hi, 1);
}
inline __m512 sqrt_ps_by_halves(__m512 v) {
  const __m512d bits = _mm512_castps_pd(v);
  const __m256 lo = _mm256_sqrt_ps(_mm512_castps512_ps256(v));
  const __m256 hi = _mm256_sqrt_ps(_mm256_castpd_ps(_mm512_extractf64x4_pd(bits, 1)));
  return _mm512_castpd_ps(
      _mm512_insertf64x4(_mm512_castps_pd(_mm512_castps256_ps512(lo)), _mm256_castps_pd(hi), 1));
}
inline __m512d div_pd_by_halves(__m512d a, __m512d b) {
  const __m256d lo = _mm256_div_pd(_mm512_castpd512_pd256(a), _mm512_castpd512_pd256(b));
  const __m256d hi = _mm256_div_pd(_mm512_extractf64x4_pd(a, 1), _mm512_extractf64x4_pd(b, 1));
  return _mm512_insertf64x4(_mm512_castpd256_pd512(lo), hi, 1);
}
inline __m512 div_ps_by_halves(__m512 a, __m512 b) {
  const __m256 lo = _mm256_div_ps(_mm512_castps512_ps256(a), _mm512_castps512_ps256(b));
  const __m256 hi = _mm256_div_ps(_mm256_castpd_ps(_mm512_extractf64x4_pd(_mm512_castps_pd(a), 1)),
                                  _mm256_castpd_ps(_mm512_extractf64x4_pd(_mm512_castps_pd(b), 1)));
  return _mm512_castpd_ps(
      _mm512_insertf64x4(_mm512_castps_pd(_mm512_castps256_ps512(lo)), _mm256_castps_pd(hi), 1));
}
// Lane 0 after adding the upper half of the lanes onto the lower half, halving until one is
// left (lane l += lane l + w for w = 4, 2, 1): a pairwise sum's last levels, in registers.
inline double fold_lanes_pd(__m512d v) {
  const __m256d h = _mm256_add_pd(_mm512_castpd512_pd256(v), _mm512_extractf64x4_pd(v, 1));
  const __m128d q = _mm_add_pd(_mm256_castpd256_pd128(h), _mm256_extractf128_pd(h, 1));
  return _mm_cvtsd_f64(_mm_add_sd(q, _mm_unpackhi_pd(q, q)));
}
// maximum/minimum as the scalar nan_max/nan_min, without a branch: VRANGE's max/min (imm8
// 0x5/0x4: the larger/smaller, its sign from the comparison), which orders -0 below +0 as IEEE
// does but treats a quiet NaN as missing, then b where b is NaN, then a where a is NaN (the
// first NaN wins, its bits unchanged). Three instructions fewer per vector than the max/min
// with the zero pair's bits ANDed/ORed in (maximum of 2^16 float32 was 1.05x the time of add);
// branching on "any NaN" and "any zero" per vector ran it at 0.77x NumPy.
#define NAN_RANGE(name, V, RANGE, IMM, CMP, MOV) \
  inline V name(V a, V b) {                      \
    V m = RANGE(a, b, IMM);                      \
    m = MOV(m, CMP(b, b, _CMP_UNORD_Q), b);      \
    return MOV(m, CMP(a, a, _CMP_UNORD_Q), a);   \
  }
NAN_RANGE(nan_max_pd, __m512d, _mm512_range_pd, 0x5, _mm512_cmp_pd_mask, _mm512_mask_mov_pd)
NAN_RANGE(nan_min_pd, __m512d, _mm512_range_pd, 0x4, _mm512_cmp_pd_mask, _mm512_mask_mov_pd)
NAN_RANGE(nan_max_ps, __m512, _mm512_range_ps, 0x5, _mm512_cmp_ps_mask, _mm512_mask_mov_ps)
NAN_RANGE(nan_min_ps, __m512, _mm512_range_ps, 0x4, _mm512_cmp_ps_mask, _mm512_mask_mov_ps)
#undef NAN_RANGE
}  // namespace

#define SIMD_SUFFIX avx512
#define VD __m512d
#define VF __m512
#define WD 8
#define WF 16
#define LDD _mm512_loadu_pd
#define LDF _mm512_loadu_ps
#define STD_ _mm512_storeu_pd
#define STF _mm512_storeu_ps
#define ADDD _mm512_add_pd
#define SUBD _mm512_sub_pd
#define MULD _mm512_mul_pd
#define DIVD div_pd_by_halves
#define MAXD _mm512_max_pd
#define MIND _mm512_min_pd
#define SQRTD sqrt_pd_by_halves
#define ABSD _mm512_abs_pd
#define ADDF _mm512_add_ps
#define SUBF _mm512_sub_ps
#define MULF _mm512_mul_ps
#define DIVF div_ps_by_halves
#define MAXF _mm512_max_ps
#define MINF _mm512_min_ps
#define SQRTF sqrt_ps_by_halves
#define ABSF _mm512_abs_ps
#define ROUND_D(v, mode) _mm512_roundscale_pd(v, (mode) | _MM_FROUND_NO_EXC)
#define ROUND_F(v, mode) _mm512_roundscale_ps(v, (mode) | _MM_FROUND_NO_EXC)
#define ANY_UNORD_D(a, b) (_mm512_cmp_pd_mask(a, b, _CMP_UNORD_Q) != 0)
#define ANY_UNORD_F(a, b) (_mm512_cmp_ps_mask(a, b, _CMP_UNORD_Q) != 0)
#define ANY_GT_D(v, s) (_mm512_cmp_pd_mask(v, _mm512_set1_pd(s), _CMP_GT_OQ) != 0)
#define ANY_GT_F(v, s) (_mm512_cmp_ps_mask(v, _mm512_set1_ps(s), _CMP_GT_OQ) != 0)
#define NAN_MAX_D nan_max_pd
#define NAN_MIN_D nan_min_pd
#define NAN_MAX_F nan_max_ps
#define NAN_MIN_F nan_min_ps
#define BELOW_D(v, s) \
  static_cast<unsigned>(_mm512_cmp_pd_mask(_mm512_abs_pd(v), _mm512_set1_pd(s), _CMP_LT_OQ))
#define BELOW_F(v, s) \
  static_cast<unsigned>(_mm512_cmp_ps_mask(_mm512_abs_ps(v), _mm512_set1_ps(s), _CMP_LT_OQ))
#define GT_MASK_D(a, b) _mm512_cmp_pd_mask(a, b, _CMP_GT_OQ)
#define GT_MASK_F(a, b) _mm512_cmp_ps_mask(a, b, _CMP_GT_OQ)
#define BLEND_MASK_D(m, a, b) _mm512_mask_blend_pd(m, a, b)
#define BLEND_MASK_F(m, a, b) _mm512_mask_blend_ps(m, a, b)
#define EQ_MASK_D(a, b) _mm512_cmp_pd_mask(a, b, _CMP_EQ_OQ)
#define EQ_MASK_F(a, b) _mm512_cmp_ps_mask(a, b, _CMP_EQ_OQ)
#define MASK_OR_D(a, b) static_cast<__mmask8>((a) | (b))
#define MASK_OR_F(a, b) static_cast<__mmask16>((a) | (b))
#define MASK_AND_D(a, b) static_cast<__mmask8>((a) & (b))
#define MASK_AND_F(a, b) static_cast<__mmask16>((a) & (b))
#define NAN_BITS_D(v) static_cast<unsigned>(_mm512_cmp_pd_mask(v, v, _CMP_UNORD_Q))
#define NAN_BITS_F(v) static_cast<unsigned>(_mm512_cmp_ps_mask(v, v, _CMP_UNORD_Q))
#define LANE_D(v, i) _mm512_permutexvar_pd(_mm512_set1_epi64(i), v)
#define LANE_F(v, i) _mm512_permutexvar_ps(_mm512_set1_epi32(i), v)
#define SELECT_D(bits, a, b) _mm512_mask_blend_pd(static_cast<__mmask8>(bits), a, b)
#define SELECT_F(bits, a, b) _mm512_mask_blend_ps(static_cast<__mmask16>(bits), a, b)
#define SET1D _mm512_set1_pd
#define SET1F _mm512_set1_ps
#define NEGD(v) _mm512_xor_pd(v, _mm512_set1_pd(-0.0))
#define NEGF(v) _mm512_xor_ps(v, _mm512_set1_ps(-0.0f))
#define CMP01_D(a, b, pred) _mm512_maskz_mov_pd(_mm512_cmp_pd_mask(a, b, pred), _mm512_set1_pd(1.0))
#define CMP01_F(a, b, pred) \
  _mm512_maskz_mov_ps(_mm512_cmp_ps_mask(a, b, pred), _mm512_set1_ps(1.0f))
#define PICK_NONZERO_D(c, x, y) \
  _mm512_mask_blend_pd(_mm512_cmp_pd_mask(c, _mm512_setzero_pd(), _CMP_NEQ_UQ), y, x)
#define PICK_NONZERO_F(c, x, y) \
  _mm512_mask_blend_ps(_mm512_cmp_ps_mask(c, _mm512_setzero_ps(), _CMP_NEQ_UQ), y, x)
// W float32 lanes widened to W float64 ones and back (VD's lane count: 8).
#define WIDEN_TO_D(p) _mm512_cvtps_pd(_mm256_loadu_ps(p))
#define FMADD_D _mm512_fmadd_pd
#define FOLD_LANES_D fold_lanes_pd
#define NARROW_STORE_F(p, v) _mm256_storeu_ps(p, _mm512_cvtpd_ps(v))
#define NARROW_SQRT_STORE_F(p, v) _mm256_storeu_ps(p, _mm256_sqrt_ps(_mm512_cvtpd_ps(v)))
#define SPLIT_PARTS_TO_D(p, re, im)                                                              \
  do {                                                                                           \
    const __m512 parts_ = _mm512_permutexvar_ps(                                                 \
        _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 1, 3, 5, 7, 9, 11, 13, 15),                 \
        _mm512_loadu_ps(p));                                                                     \
    re = _mm512_cvtps_pd(_mm512_castps512_ps256(parts_));                                        \
    im = _mm512_cvtps_pd(_mm256_castpd_ps(_mm512_extractf64x4_pd(_mm512_castps_pd(parts_), 1))); \
  } while (false)
// Interleaved complex values (re, im pairs): each pair's real part in both its lanes, its
// imaginary part in both, the pair swapped; and -0 in the real lanes (a sign flip there).
#define DUP_RE_D _mm512_movedup_pd
#define DUP_IM_D(v) _mm512_unpackhi_pd(v, v)
#define SWAP_PAIRS_D(v) _mm512_permute_pd(v, 0x55)
#define DUP_RE_F _mm512_moveldup_ps
#define DUP_IM_F _mm512_movehdup_ps
#define SWAP_PAIRS_F(v) _mm512_permute_ps(v, 0xB1)
#define REAL_SIGNS_D _mm512_setr_pd(-0.0, 0.0, -0.0, 0.0, -0.0, 0.0, -0.0, 0.0)
#define REAL_SIGNS_F                                                                           \
  _mm512_setr_ps(-0.0f, 0.0f, -0.0f, 0.0f, -0.0f, 0.0f, -0.0f, 0.0f, -0.0f, 0.0f, -0.0f, 0.0f, \
                 -0.0f, 0.0f, -0.0f, 0.0f)
// The even lanes of two VDs (one per complex pair each) packed into one, a's first.
#define PACK_EVEN_D(a, b) _mm512_permutex2var_pd(a, _mm512_setr_epi64(0, 2, 4, 6, 8, 10, 12, 14), b)
// The odd lanes likewise; and the inverse, the lanes of re and im interleaved (lanes 0-3 of
// each into the first VD, lanes 4-7 into the second).
#define PACK_ODD_D(a, b) _mm512_permutex2var_pd(a, _mm512_setr_epi64(1, 3, 5, 7, 9, 11, 13, 15), b)
#define INTERLEAVE_LO_D(re, im) \
  _mm512_permutex2var_pd(re, _mm512_setr_epi64(0, 8, 1, 9, 2, 10, 3, 11), im)
#define INTERLEAVE_HI_D(re, im) \
  _mm512_permutex2var_pd(re, _mm512_setr_epi64(4, 12, 5, 13, 6, 14, 7, 15), im)
#define XORD _mm512_xor_pd
#define XORF _mm512_xor_ps
#define KEEP_NAN_D(r, x) _mm512_mask_mov_pd(r, _mm512_cmp_pd_mask(x, x, _CMP_UNORD_Q), x)
#define KEEP_NAN_F(r, x) _mm512_mask_mov_ps(r, _mm512_cmp_ps_mask(x, x, _CMP_UNORD_Q), x)
#define SLEEF_D(fn, u) Sleef_##fn##d8_##u##avx512f
#define SLEEF_F(fn, u) Sleef_##fn##f16_##u##avx512f
// The ops with kernels of their own here, faster than SLEEF's (docs/prims.md): X(op, kernel).
#define SIMD_OWN_UNARY_F64(X)                                                              \
  X(Exp, exp_table_pd)                                                                     \
  X(Expm1, expm1_pd)                                                                       \
  X(Log1p, log1p_table_pd)                                                                 \
  X(Tan, tan_pd) X(Sinh, sinh_pd) X(Cosh, cosh_pd) X(Tanh, tanh_exp_pd) X(Asinh, asinh_pd) \
      X(Atanh, atanh_pd) X(Cbrt, cbrt_pd)
#define SIMD_OWN_UNARY_F32(X)                                                                \
  X(Exp, exp_reduced_ps)                                                                     \
  X(Expm1, expm1_ps) X(Tan, tan_ps) X(Sinh, sinh_ps) X(Cosh, cosh_ps) X(Tanh, tanh_table_ps) \
      X(Asinh, asinh_ps) X(Atanh, atanh_ps) X(Cbrt, cbrt_ps)
#define SIMD_OWN_BINARY_F64(X) X(Pow, pow_table_pd)
#define SIMD_OWN_BINARY_F32(X) X(Pow, powf_table_ps)

#define STREAM_D _mm512_stream_pd
#define STREAM_F _mm512_stream_ps

#include "ops/prims/cpu/simd/simd_body.inc"
