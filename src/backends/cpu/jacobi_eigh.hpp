// Eigenvalues and eigenvectors of small real symmetric matrices, many at once: cyclic Jacobi
// with one matrix per vector lane (8 float64 or 16 float32 matrices per AVX-512 call, half as
// many with AVX2), every lane running the same rotation sequence with its own angles. LAPACK's
// syevd takes about 5 us for one 8x8 float64 matrix, most of it the call and setup of its
// tridiagonal reduction; the lanes take under 1 us each. Jacobi's sweeps cost O(n^3) with a
// larger constant than syevd, so LAPACK wins past about kJacobiEighMax (one thread, float64,
// 64 32x32 matrices, 2026-12-05: 2.1 ms with AVX-512, 2.9 ms with AVX2, syevd 4.1-4.5 ms; 32
// 48x48: 4.1 and 5.0 ms against 4.7 ms; float32 still wins at 48). The kernels live in
// backends/cpu/isa/jacobi_eigh_body.inc.
#pragma once

#include <cstdint>

#include "backends/cpu/cpu_isa.hpp"
#include "backends/cpu/matrix_lanes.hpp"

namespace tenferro::cpu_blas {

inline constexpr std::int64_t kJacobiEighMax = 32;

// Whether jacobi_eigh runs n x n matrices on `isa`: 1 <= n <= kJacobiEighMax and matrix_lanes > 0.
bool jacobi_eigh_applies(cpu_isa::Isa isa, std::int64_t n);

// The ISA to run n x n matrices on when `best` is the host's (lanes_isa_for): a call keeps A
// (with an odd leading dimension) and, with vectors, Q. Its budget, kJacobiEighLaneBytes, as
// measured on a full-width AVX-512 host (Xeon, Emerald Rapids, 48 KiB level-1 data cache; one
// thread, 64 matrices with vectors, 2026-12-07): AVX-512 wins at 24 (float64 2.0 against 2.3
// ms, 73.5 KiB), ties at 26 (86 KiB) and loses at 28 (3.8 against 3.4 ms; float32 1.50 against
// 1.32) and 32 (6.0 against 5.2 ms, syevd 5.3; float32 2.41 against 2.04). Without vectors A
// alone is 66 KiB at 32, where AVX-512 still wins (2.9 against 3.5 ms).
inline constexpr std::int64_t kJacobiEighLaneBytes = std::int64_t{80} << 10;
cpu_isa::Isa jacobi_eigh_isa(cpu_isa::Isa best, std::int64_t n, bool vectors);

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
