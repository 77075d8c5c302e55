// The batched Jacobi eigensolver with AVX2 and FMA, one matrix per lane of a 32-byte vector
// (compiled with -mavx2 -mfma -fno-math-errno; entered only after backends/cpu/jacobi_eigh.cpp's
// CPU check).
#define JACOBI_EIGH_SUFFIX avx2
#define JACOBI_EIGH_VECTOR_BYTES 32
#include "backends/cpu/isa/jacobi_eigh_body.inc"
