// The batched Jacobi kernels (eigh and SVD) with AVX2 and FMA, one matrix per lane of a 32-byte
// vector (compiled with -mavx2 -mfma -fno-math-errno, which makes the lanes' square roots vector
// instructions; entered only after the CPU check of backends/cpu/jacobi_eigh.cpp and
// jacobi_svd.cpp).
#define JACOBI_SUFFIX avx2
#define JACOBI_VECTOR_BYTES 32
// In this order: the lanes first, then the two kernels built on them.
#include "backends/cpu/isa/jacobi_lanes.inc"

#include "backends/cpu/isa/jacobi_eigh_body.inc"

#include "backends/cpu/isa/jacobi_svd_body.inc"
