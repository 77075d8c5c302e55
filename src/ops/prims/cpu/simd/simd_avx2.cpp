// The AVX2 kernels (compiled with -mavx2 -mfma; run only when the CPU reports avx2 and fma).
#include <immintrin.h>
#include <math.h>
#include <sleef.h>

#include "ops/prims/cpu/simd/simd_isa_entry.hpp"

namespace {
// fabs: clear the sign bit (AVX has no abs instruction).
inline __m256d abs_pd(__m256d x) {
  return _mm256_andnot_pd(_mm256_set1_pd(-0.0), x);
}
inline __m256 abs_ps(__m256 x) {
  return _mm256_andnot_ps(_mm256_set1_ps(-0.0f), x);
}
// Lane i of v in every lane.
inline __m256d lane_pd(__m256d v, int i) {
  const __m256i pair =
      _mm256_setr_epi32(2 * i, 2 * i + 1, 2 * i, 2 * i + 1, 2 * i, 2 * i + 1, 2 * i, 2 * i + 1);
  return _mm256_castps_pd(_mm256_permutevar8x32_ps(_mm256_castpd_ps(v), pair));
}
// The lane mask of a bit set (bit k: lane k).
inline __m256d mask_pd(unsigned bits) {
  const __m256i bit = _mm256_setr_epi64x(1, 2, 4, 8);
  return _mm256_castsi256_pd(
      _mm256_cmpeq_epi64(_mm256_and_si256(_mm256_set1_epi64x(bits), bit), bit));
}
inline __m256 mask_ps(unsigned bits) {
  const __m256i bit = _mm256_setr_epi32(1, 2, 4, 8, 16, 32, 64, 128);
  return _mm256_castsi256_ps(
      _mm256_cmpeq_epi32(_mm256_and_si256(_mm256_set1_epi32(static_cast<int>(bits)), bit), bit));
}
// Lane 0 after adding the upper half of the lanes onto the lower half, halving until one is
// left (lane l += lane l + w for w = 2, 1): a pairwise sum's last levels, in registers.
inline double fold_lanes_pd(__m256d v) {
  const __m128d q = _mm_add_pd(_mm256_castpd256_pd128(v), _mm256_extractf128_pd(v, 1));
  return _mm_cvtsd_f64(_mm_add_sd(q, _mm_unpackhi_pd(q, q)));
}
// maximum/minimum as the scalar nan_max/nan_min, without a branch (simd_avx512.cpp says how).
#define NAN_PICK(name, V, PICK, BITS, CMP, BLEND)    \
  inline V name(V a, V b) {                          \
    V m = PICK(b, a);                                \
    m = BLEND(m, BITS(a, b), CMP(a, b, _CMP_EQ_OQ)); \
    m = BLEND(m, b, CMP(b, b, _CMP_UNORD_Q));        \
    return BLEND(m, a, CMP(a, a, _CMP_UNORD_Q));     \
  }
NAN_PICK(nan_max_pd, __m256d, _mm256_max_pd, _mm256_and_pd, _mm256_cmp_pd, _mm256_blendv_pd)
NAN_PICK(nan_min_pd, __m256d, _mm256_min_pd, _mm256_or_pd, _mm256_cmp_pd, _mm256_blendv_pd)
NAN_PICK(nan_max_ps, __m256, _mm256_max_ps, _mm256_and_ps, _mm256_cmp_ps, _mm256_blendv_ps)
NAN_PICK(nan_min_ps, __m256, _mm256_min_ps, _mm256_or_ps, _mm256_cmp_ps, _mm256_blendv_ps)
#undef NAN_PICK
}  // namespace

#define SIMD_SUFFIX avx2
#define VD __m256d
#define VF __m256
#define WD 4
#define WF 8
#define LDD _mm256_loadu_pd
#define LDF _mm256_loadu_ps
#define STD_ _mm256_storeu_pd
#define STF _mm256_storeu_ps
#define ADDD _mm256_add_pd
#define SUBD _mm256_sub_pd
#define MULD _mm256_mul_pd
#define DIVD _mm256_div_pd
#define MAXD _mm256_max_pd
#define MIND _mm256_min_pd
#define SQRTD _mm256_sqrt_pd
#define ABSD abs_pd
#define ADDF _mm256_add_ps
#define SUBF _mm256_sub_ps
#define MULF _mm256_mul_ps
#define DIVF _mm256_div_ps
#define MAXF _mm256_max_ps
#define MINF _mm256_min_ps
#define SQRTF _mm256_sqrt_ps
#define ABSF abs_ps
#define ROUND_D(v, mode) _mm256_round_pd(v, (mode) | _MM_FROUND_NO_EXC)
#define ROUND_F(v, mode) _mm256_round_ps(v, (mode) | _MM_FROUND_NO_EXC)
#define ANY_UNORD_D(a, b) (_mm256_movemask_pd(_mm256_cmp_pd(a, b, _CMP_UNORD_Q)) != 0)
#define ANY_UNORD_F(a, b) (_mm256_movemask_ps(_mm256_cmp_ps(a, b, _CMP_UNORD_Q)) != 0)
#define ANY_GT_D(v, s) (_mm256_movemask_pd(_mm256_cmp_pd(v, _mm256_set1_pd(s), _CMP_GT_OQ)) != 0)
#define ANY_GT_F(v, s) (_mm256_movemask_ps(_mm256_cmp_ps(v, _mm256_set1_ps(s), _CMP_GT_OQ)) != 0)
#define NAN_MAX_D nan_max_pd
#define NAN_MIN_D nan_min_pd
#define NAN_MAX_F nan_max_ps
#define NAN_MIN_F nan_min_ps
#define BELOW_D(v, s) \
  static_cast<unsigned>(_mm256_movemask_pd(_mm256_cmp_pd(abs_pd(v), _mm256_set1_pd(s), _CMP_LT_OQ)))
#define BELOW_F(v, s) \
  static_cast<unsigned>(_mm256_movemask_ps(_mm256_cmp_ps(abs_ps(v), _mm256_set1_ps(s), _CMP_LT_OQ)))
#define GT_MASK_D(a, b) _mm256_cmp_pd(a, b, _CMP_GT_OQ)
#define GT_MASK_F(a, b) _mm256_cmp_ps(a, b, _CMP_GT_OQ)
#define BLEND_MASK_D(m, a, b) _mm256_blendv_pd(a, b, m)
#define BLEND_MASK_F(m, a, b) _mm256_blendv_ps(a, b, m)
#define EQ_MASK_D(a, b) _mm256_cmp_pd(a, b, _CMP_EQ_OQ)
#define EQ_MASK_F(a, b) _mm256_cmp_ps(a, b, _CMP_EQ_OQ)
#define MASK_OR_D(a, b) _mm256_or_pd(a, b)
#define MASK_OR_F(a, b) _mm256_or_ps(a, b)
#define MASK_AND_D(a, b) _mm256_and_pd(a, b)
#define MASK_AND_F(a, b) _mm256_and_ps(a, b)
#define NAN_BITS_D(v) static_cast<unsigned>(_mm256_movemask_pd(_mm256_cmp_pd(v, v, _CMP_UNORD_Q)))
#define NAN_BITS_F(v) static_cast<unsigned>(_mm256_movemask_ps(_mm256_cmp_ps(v, v, _CMP_UNORD_Q)))
#define LANE_D(v, i) lane_pd(v, i)
#define LANE_F(v, i) _mm256_permutevar8x32_ps(v, _mm256_set1_epi32(i))
#define SELECT_D(bits, a, b) _mm256_blendv_pd(a, b, mask_pd(bits))
#define SELECT_F(bits, a, b) _mm256_blendv_ps(a, b, mask_ps(bits))
#define SET1D _mm256_set1_pd
#define SET1F _mm256_set1_ps
#define NEGD(v) _mm256_xor_pd(v, _mm256_set1_pd(-0.0))
#define NEGF(v) _mm256_xor_ps(v, _mm256_set1_ps(-0.0f))
#define CMP01_D(a, b, pred) _mm256_and_pd(_mm256_cmp_pd(a, b, pred), _mm256_set1_pd(1.0))
#define CMP01_F(a, b, pred) _mm256_and_ps(_mm256_cmp_ps(a, b, pred), _mm256_set1_ps(1.0f))
#define PICK_NONZERO_D(c, x, y) \
  _mm256_blendv_pd(y, x, _mm256_cmp_pd(c, _mm256_setzero_pd(), _CMP_NEQ_UQ))
#define PICK_NONZERO_F(c, x, y) \
  _mm256_blendv_ps(y, x, _mm256_cmp_ps(c, _mm256_setzero_ps(), _CMP_NEQ_UQ))
// WD float32 lanes widened to WD float64 ones and back (VD's lane count: 4).
#define WIDEN_TO_D(p) _mm256_cvtps_pd(_mm_loadu_ps(p))
#define FMADD_D _mm256_fmadd_pd
#define FOLD_LANES_D fold_lanes_pd
#define NARROW_STORE_F(p, v) _mm_storeu_ps(p, _mm256_cvtpd_ps(v))
#define NARROW_SQRT_STORE_F(p, v) _mm_storeu_ps(p, _mm_sqrt_ps(_mm256_cvtpd_ps(v)))
#define SPLIT_PARTS_TO_D(p, re, im)                                                              \
  do {                                                                                           \
    const __m256 parts_ =                                                                        \
        _mm256_permutevar8x32_ps(_mm256_loadu_ps(p), _mm256_setr_epi32(0, 2, 4, 6, 1, 3, 5, 7)); \
    re = _mm256_cvtps_pd(_mm256_castps256_ps128(parts_));                                        \
    im = _mm256_cvtps_pd(_mm256_extractf128_ps(parts_, 1));                                      \
  } while (false)
// Interleaved complex values (re, im pairs): each pair's real part in both its lanes, its
// imaginary part in both, the pair swapped; and -0 in the real lanes (a sign flip there).
#define DUP_RE_D _mm256_movedup_pd
#define DUP_IM_D(v) _mm256_unpackhi_pd(v, v)
#define SWAP_PAIRS_D(v) _mm256_permute_pd(v, 0x5)
#define DUP_RE_F _mm256_moveldup_ps
#define DUP_IM_F _mm256_movehdup_ps
#define SWAP_PAIRS_F(v) _mm256_permute_ps(v, 0xB1)
#define REAL_SIGNS_D _mm256_setr_pd(-0.0, 0.0, -0.0, 0.0)
#define REAL_SIGNS_F _mm256_setr_ps(-0.0f, 0.0f, -0.0f, 0.0f, -0.0f, 0.0f, -0.0f, 0.0f)
// The even lanes of two VDs (one per complex pair each) packed into one, a's first.
#define PACK_EVEN_D(a, b) _mm256_permute4x64_pd(_mm256_unpacklo_pd(a, b), 0xD8)
// The odd lanes likewise; and the inverse, the lanes of re and im interleaved (lanes 0, 1 of
// each into the first VD, lanes 2, 3 into the second).
#define PACK_ODD_D(a, b) _mm256_permute4x64_pd(_mm256_unpackhi_pd(a, b), 0xD8)
#define INTERLEAVE_LO_D(re, im) \
  _mm256_permute2f128_pd(_mm256_unpacklo_pd(re, im), _mm256_unpackhi_pd(re, im), 0x20)
#define INTERLEAVE_HI_D(re, im) \
  _mm256_permute2f128_pd(_mm256_unpacklo_pd(re, im), _mm256_unpackhi_pd(re, im), 0x31)
#define XORD _mm256_xor_pd
#define XORF _mm256_xor_ps
#define KEEP_NAN_D(r, x) _mm256_blendv_pd(r, x, _mm256_cmp_pd(x, x, _CMP_UNORD_Q))
#define KEEP_NAN_F(r, x) _mm256_blendv_ps(r, x, _mm256_cmp_ps(x, x, _CMP_UNORD_Q))
#define SLEEF_D(fn, u) Sleef_##fn##d4_##u##avx2
#define SLEEF_F(fn, u) Sleef_##fn##f8_##u##avx2

#define STREAM_D _mm256_stream_pd
#define STREAM_F _mm256_stream_ps

#include "ops/prims/cpu/simd/simd_body.inc"
