// Singular value decompositions of small real matrices, many at once: one-sided Jacobi
// (Hestenes) with one matrix per vector lane, the lanes of backends/cpu/jacobi_eigh.hpp. LAPACK's
// gesdd takes about 7 us for one 8x8 float64 matrix; the lanes take about 1-2 us each. Up to
// kJacobiSvdMax the lanes win with AVX2 and AVX-512 in both types (one thread, float64, 64
// 32x32 matrices: 3.8 ms with AVX-512, 5.3 ms with AVX2, gesdd 6.6 ms; float64 with AVX2 is even
// with gesdd at 40x40). The kernels live in backends/cpu/isa/jacobi_svd_body.inc.
#pragma once

#include <cstdint>

#include "backends/cpu/cpu_isa.hpp"

namespace tenferro::cpu_blas {

inline constexpr std::int64_t kJacobiSvdMax = 32;

// Whether jacobi_svd runs m x n matrices on `isa`: 1 <= m, n <= kJacobiSvdMax and
// matrix_lanes(isa, ...) > 0 (it takes as many matrices at once).
bool jacobi_svd_applies(cpu_isa::Isa isa, std::int64_t m, std::int64_t n);

// The thin SVDs A = U diag(s) V^T of `count` (1..matrix_lanes) column-major m x n matrices
// a + i * a_stride (T float or double), k = min(m, n): the singular values, descending, into
// s + i * k and, when `vectors`, U (m x k, leading dimension m) into u + i * u_stride and V^T
// (k x n, leading dimension k) into vt + i * vt_stride; LAPACK's contract (gesdd with jobz 'S'),
// with singular vectors' signs of their own. Each matrix is scaled by a power of two first.
// Returns false, the outputs then unspecified, when an entry is not finite, a matrix is not
// diagonalised to T's precision after the sweep limit, or (vectors wanted) a singular value is
// at most max(m, n) eps times the largest, where a singular vector is not determined by the
// column it comes from (the caller then runs LAPACK).
template <class T>
bool jacobi_svd(cpu_isa::Isa isa, std::int64_t m, std::int64_t n, int count, const T* a,
                std::int64_t a_stride, T* s, T* u, std::int64_t u_stride, T* vt,
                std::int64_t vt_stride, bool vectors);

}  // namespace tenferro::cpu_blas
