// The small GEMMs with AVX2 and FMA (compiled with -mavx2 -mfma; entered only when the CPU
// reports both).
#define SMALL_GEMM_SUFFIX avx2
#define SMALL_GEMM_VECTOR_BYTES 32
#include "backends/cpu/isa/small_gemm_body.inc"
