// The small GEMMs with AVX-512F (compiled with -mavx512f -mfma; entered only when cpu_isa.hpp
// picks AVX-512, which also asks for DQ, which the prims kernels use).
#define SMALL_GEMM_SUFFIX avx512
#define SMALL_GEMM_VECTOR_BYTES 64
#include "backends/cpu/isa/small_gemm_body.inc"
