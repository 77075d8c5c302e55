// The AVX-512F kernels (compiled with -mavx512f -mfma; run only when the CPU reports avx512f).
#include <immintrin.h>
#include <math.h>
#include <sleef.h>

#include "ops/prims/cpu/simd/exp_table_avx512.hpp"
#include "ops/prims/cpu/simd/simd_isa_entry.hpp"
#include "ops/prims/cpu/simd/tanh_exp_avx512.hpp"
#include "ops/prims/cpu/simd/tanh_table_avx512.hpp"

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
#define DIVD _mm512_div_pd
#define MAXD _mm512_max_pd
#define MIND _mm512_min_pd
#define SQRTD _mm512_sqrt_pd
#define ABSD _mm512_abs_pd
#define ADDF _mm512_add_ps
#define SUBF _mm512_sub_ps
#define MULF _mm512_mul_ps
#define DIVF _mm512_div_ps
#define MAXF _mm512_max_ps
#define MINF _mm512_min_ps
#define SQRTF _mm512_sqrt_ps
#define ABSF _mm512_abs_ps
#define ANY_UNORD_D(a, b) (_mm512_cmp_pd_mask(a, b, _CMP_UNORD_Q) != 0)
#define ANY_UNORD_F(a, b) (_mm512_cmp_ps_mask(a, b, _CMP_UNORD_Q) != 0)
#define ANY_GT_D(v, s) (_mm512_cmp_pd_mask(v, _mm512_set1_pd(s), _CMP_GT_OQ) != 0)
#define ANY_GT_F(v, s) (_mm512_cmp_ps_mask(v, _mm512_set1_ps(s), _CMP_GT_OQ) != 0)
#define ANY_EQ_D(v, s) (_mm512_cmp_pd_mask(v, _mm512_set1_pd(s), _CMP_EQ_OQ) != 0)
#define ANY_EQ_F(v, s) (_mm512_cmp_ps_mask(v, _mm512_set1_ps(s), _CMP_EQ_OQ) != 0)
#define SLEEF_D(fn, u) Sleef_##fn##d8_##u##avx512f
#define SLEEF_F(fn, u) Sleef_##fn##f16_##u##avx512f
#define SIMD_EXP_F64 exp_table_pd
#define SIMD_TANH_F32 tanh_table_ps
#define SIMD_TANH_F64 tanh_exp_pd

#include "ops/prims/cpu/simd/simd_body.inc"
