// Eigenvalues and eigenvectors of small real symmetric matrices, many at once: cyclic Jacobi
// with one matrix per vector lane (8 float64 or 16 float32 matrices per AVX-512 call, half as
// many with AVX2), every lane running the same rotation sequence with its own angles. LAPACK's
// syevd takes about 5 us for one 8x8 float64 matrix, most of it the call and setup of its
// tridiagonal reduction; the lanes take under 1 us each. Jacobi's sweeps cost O(n^3) with a
// larger constant than syevd, so LAPACK wins past about kJacobiEighMax (one thread, float64,
// 64 32x32 matrices: 2.1 ms with AVX-512, 2.9 ms with AVX2, syevd 4.1-4.5 ms; 32 48x48: 4.1 and
// 5.0 ms against 4.7 ms; float32 still wins at 48). The kernels live in
// backends/cpu/isa/jacobi_eigh_body.inc.
#pragma once

#include <cstdint>

#include "backends/cpu/cpu_isa.hpp"
#include "backends/cpu/matrix_lanes.hpp"

namespace tenferro::cpu_blas {

inline constexpr std::int64_t kJacobiEighMax = 32;

// Whether jacobi_eigh runs n x n matrices on `isa`: 1 <= n <= kJacobiEighMax and matrix_lanes > 0.
bool jacobi_eigh_applies(cpu_isa::Isa isa, std::int64_t n);

// The eigen-decompositions of `count` (1..matrix_lanes) column-major n x n matrices
// a + i * a_stride, of which the lower triangle is read (T float or double): ascending
// eigenvalues into w + i * n and, when `vectors`, the orthonormal eigenvectors as the columns of
// v + i * v_stride (n x n, leading dimension n), in the eigenvalues' order; LAPACK's contract
// (syevd), with eigenvectors' signs of their own. Each matrix is scaled by a power of two
// first, so neither overflow nor gradual underflow reaches the rotations. Returns false, the
// outputs then unspecified, when an entry is not finite or a matrix is not diagonal to T's
// precision after the sweep limit (never seen; the caller then runs LAPACK).
template <class T>
bool jacobi_eigh(cpu_isa::Isa isa, std::int64_t n, int count, const T* a, std::int64_t a_stride,
                 T* w, T* v, std::int64_t v_stride, bool vectors);

}  // namespace tenferro::cpu_blas
