// The batched small-matrix kernels (Jacobi eigh and SVD, Householder QR) with AVX2 and FMA, one
// matrix per lane of a 32-byte vector (compiled with -mavx2 -mfma -fno-math-errno, which makes the
// lanes' square roots vector instructions; entered only after the CPU check of
// backends/cpu/jacobi_eigh.cpp, jacobi_svd.cpp and lane_qr.cpp).
#define LANES_SUFFIX avx2
#define LANES_VECTOR_BYTES 32
// In this order: the lanes first, then the kernels built on them.
#include "backends/cpu/isa/lanes.inc"

#include "backends/cpu/isa/jacobi_eigh_body.inc"

#include "backends/cpu/isa/jacobi_svd_body.inc"

#include "backends/cpu/isa/lane_qr_body.inc"
