// The batched Jacobi eigensolver with AVX-512F, one matrix per lane of a 64-byte vector
// (compiled with -mavx512f -mfma -fno-math-errno; entered only after backends/cpu/jacobi_eigh.cpp's
// CPU check).
#define JACOBI_EIGH_SUFFIX avx512
#define JACOBI_EIGH_VECTOR_BYTES 64
#include "backends/cpu/isa/jacobi_eigh_body.inc"
