// QR of many small real matrices at once: Householder QR (the algorithm of householder_qr.hpp,
// LAPACK's geqr2 and org2r) with one matrix per vector lane, every lane running the same
// reflector sequence on its own numbers. One 8x8 float64 factorisation and its Q take about
// 0.4 us through householder_qr.hpp's kernels, a column's dot products and updates being short
// chains of dependent operations; in the lanes they run side by side for 8 (AVX-512) or 4 (AVX2)
// matrices. The kernels live in backends/cpu/isa/lane_qr_body.inc.
#pragma once

#include <cstdint>

#include "backends/cpu/cpu_isa.hpp"
#include "backends/cpu/matrix_lanes.hpp"

namespace tenferro::cpu_blas {

// Measured against householder_qr.hpp's kernels (one thread, 16 float64 64x64 matrices: 516 us
// against 668 with AVX-512, 489 against 681 with AVX2; float32 3x faster); at 128 x 128 a
// group's matrices (1 MB with AVX-512 float64) leave the level-2 cache.
inline constexpr std::int64_t kLaneQrMax = 64;

// The ISA to run m x n matrices (Q of q_cols columns) on when `best` is the host's
// (lanes_isa_for): a call keeps m x max(n, q_cols) entries and the k reflector scales. Its
// budget, kLaneQrBytes, as measured on a full-width AVX-512 host (Xeon, Emerald Rapids, 48 KiB
// level-1 data cache; one thread, 64 matrices, 2026-12-07): every reflector sweeps the whole
// trailing matrix, so AVX-512 wins while the matrices fit that cache (float64 26x26, 44 KiB:
// 167 against 208 us; 64x8 79 against 121) and ties or loses past it (28x28, 51 KiB: 250 against
// 249, float32 173 against 156; 32x32 426 against 358, float32 296 against 216; 16x48 152
// against 133).
inline constexpr std::int64_t kLaneQrBytes = std::int64_t{48} << 10;
cpu_isa::Isa lane_qr_isa(cpu_isa::Isa best, std::int64_t m, std::int64_t n, std::int64_t q_cols);

// Whether lane_qr runs m x n matrices (Q of q_cols columns) on `isa`: 1 <= m, n <= kLaneQrMax,
// n <= q_cols <= m or q_cols = min(m, n), and matrix_lanes > 0.
bool lane_qr_applies(cpu_isa::Isa isa, std::int64_t m, std::int64_t n, std::int64_t q_cols);

// The QR factorisations A = Q R of `count` (1..matrix_lanes) column-major m x n matrices
// a + i * a_stride (T float or double), with LAPACK's conventions (geqrf then orgqr: R's
// diagonal -sign(alpha) * norm, H = I where a column has nothing below its diagonal): the first
// q_cols columns of Q into q + i * q_stride (m x q_cols, leading dimension m) and the upper
// triangle of R's first r_rows rows into r + i * r_stride (r_rows x n, leading dimension
// r_rows; the entries below its diagonal are not written). Returns false, nothing written, when
// a column's sum of squares leaves the range formed without rescaling (householder_qr's rule:
// the caller then factors the matrices one by one).
template <class T>
bool lane_qr(cpu_isa::Isa isa, std::int64_t m, std::int64_t n, std::int64_t q_cols, int count,
             const T* a, std::int64_t a_stride, T* q, std::int64_t q_stride, T* r,
             std::int64_t r_rows, std::int64_t r_stride);

}  // namespace tenferro::cpu_blas
