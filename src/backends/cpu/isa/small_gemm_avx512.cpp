// The small GEMMs with AVX-512F (compiled with -mavx512f -mfma; entered only when the CPU
// reports avx512f).
#define SMALL_GEMM_SUFFIX avx512
#define SMALL_GEMM_VECTOR_BYTES 64
#include "backends/cpu/isa/small_gemm_body.inc"
