// QR of small matrices in vector code of our own, the algorithm of LAPACK's unblocked geqr2 and
// org2r (zgeqr2 and zung2r for complex; geqrf and orgqr run them below 128 columns anyway) with
// each reflector applied to a column as one fused dot product and update: LAPACK reaches them
// through a gemv and a ger per column, and their call overhead was most of a small QR's time
// (an 8x8 float64 factorisation and its Q took 1.3 us through OpenBLAS, 0.4 us here; 32x32
// 13 us against 7; complex128 32x32 26 us against 16). The kernels live in
// backends/cpu/isa/householder_qr_avx2.cpp.
#pragma once

#include <cstdint>

#include "backends/cpu/cpu_isa.hpp"

namespace tenferro::cpu_blas {

// Past this many rows or columns LAPACK is as fast or faster: real matrices (its blocked code's
// GEMM updates) and complex ones (its zgemv and zgerc, at 64x64 complex128 already).
inline constexpr std::int64_t kHouseholderQrMax = 128;
inline constexpr std::int64_t kHouseholderQrComplexMax = 48;

// Whether the kernels below run an m x n QR on `isa`: 1 <= m, n <= kHouseholderQrMax (real) or
// kHouseholderQrComplexMax (complex entries), on an x86-64 CPU with AVX2 and FMA (isa not None).
bool householder_qr_applies(cpu_isa::Isa isa, std::int64_t m, std::int64_t n, bool complex);

// geqr2 on the column-major m x n matrix `a` (leading dimension m), when householder_qr_applies
// (T float, double or their complex): R on and above the diagonal, the Householder vectors
// below it (their unit first entries implied), tau[0, min(m, n)) their scales, with LAPACK's
// conventions (beta = -sign(alpha) * norm; complex as zgeqr2: beta real, H(i)^H applied).
// Returns false, `a` then partly overwritten, when a column's squares leave the range the plain
// sum of squares carries (T's normal minimum over eps^2 up to its inverse; the sum below the
// diagonal at both ends, the whole column's at the top), where LAPACK rescales: the caller then
// runs LAPACK on the original matrix.
template <class T>
bool householder_qr(cpu_isa::Isa isa, std::int64_t m, std::int64_t n, T* a, T* tau);

// org2r: overwrites the first q_cols columns of `a` (m x q_cols, leading dimension m; k <=
// q_cols <= m) holding householder_qr's k = min(m, n) reflectors with the first q_cols columns
// of Q = H(0) H(1) ... H(k-1), when householder_qr_applies(isa, m, q_cols).
template <class T>
void householder_q(cpu_isa::Isa isa, std::int64_t m, std::int64_t q_cols, std::int64_t k, T* a,
                   const T* tau);

}  // namespace tenferro::cpu_blas
