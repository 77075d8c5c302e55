// The batched Jacobi kernels (eigh and SVD) with AVX-512F, one matrix per lane of a 64-byte vector
// (compiled with -mavx512f -mfma -fno-math-errno, which makes the lanes' square roots vector
// instructions; entered only after the CPU check of backends/cpu/jacobi_eigh.cpp and
// jacobi_svd.cpp).
#define JACOBI_SUFFIX avx512
#define JACOBI_VECTOR_BYTES 64
// In this order: the lanes first, then the two kernels built on them.
#include "backends/cpu/isa/jacobi_lanes.inc"

#include "backends/cpu/isa/jacobi_eigh_body.inc"

#include "backends/cpu/isa/jacobi_svd_body.inc"
