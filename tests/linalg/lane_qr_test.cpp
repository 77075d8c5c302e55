// The CPU backend's batched Householder QR (backends/cpu/lane_qr.hpp) on every ISA this CPU runs
// it on: Q and R against the per-matrix kernels of the same algorithm (householder_qr.hpp, so
// LAPACK's sign conventions) and against the definition (Q^T Q = I, A = Q R, in long double),
// tall, wide and square, reduced and complete, one lane to all of them; columns with nothing
// below the diagonal (H = I) and a -0.0 diagonal entry; the declines (non-finite entries, sums
// of squares out of range), which write nothing.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "backends/cpu/householder_qr.hpp"
#include "backends/cpu/lane_qr.hpp"
#include "jacobi_test_util.hpp"

namespace {

using tenferro::cpu_isa::Isa;
namespace cpu_blas = tenferro::cpu_blas;

using jacobi_test::isas;
using jacobi_test::lanes;
using jacobi_test::name;
using jacobi_test::random_matrices;

constexpr float kUnwritten = -7.0f;

template <class T>
struct Qr {
  std::vector<T> q, r;
  bool ok = false;
};

// lane_qr on `count` m x n matrices: Q with q_cols columns, R with r_rows rows (the caller's
// zeros below its diagonal, kUnwritten elsewhere before the call).
template <class T>
Qr<T> lanes_qr(Isa isa, int m, int n, int q_cols, int count, const std::vector<T>& a) {
  const int r_rows = q_cols == m ? m : std::min(m, n);
  Qr<T> d;
  d.q.assign(static_cast<std::size_t>(m * q_cols * count), T(kUnwritten));
  d.r.assign(static_cast<std::size_t>(r_rows * n * count), T(kUnwritten));
  for (int b = 0; b < count; ++b)
    for (int j = 0; j < n; ++j)
      for (int i = j + 1; i < r_rows; ++i) d.r[b * r_rows * n + i + j * r_rows] = 0;
  d.ok = cpu_blas::lane_qr<T>(isa, m, n, q_cols, count, a.data(), m * n, d.q.data(), m * q_cols,
                              d.r.data(), r_rows, r_rows * n);
  return d;
}

// The per-matrix kernels on matrix b of `a`: Q (m x q_cols) and R (r_rows x n).
template <class T>
Qr<T> per_matrix_qr(Isa isa, int m, int n, int q_cols, const T* a) {
  const int k = std::min(m, n), r_rows = q_cols == m ? m : k;
  std::vector<T> buf(static_cast<std::size_t>(m * std::max(n, q_cols))), tau(k);
  std::copy_n(a, m * n, buf.data());
  Qr<T> d;
  d.ok = cpu_blas::householder_qr<T>(isa, m, n, buf.data(), tau.data());
  d.r.assign(static_cast<std::size_t>(r_rows * n), T(0));
  for (int j = 0; j < n; ++j)
    for (int i = 0; i <= std::min(j, r_rows - 1); ++i) d.r[i + j * r_rows] = buf[i + j * m];
  cpu_blas::householder_q<T>(isa, m, q_cols, k, buf.data(), tau.data());
  d.q.assign(buf.begin(), buf.begin() + m * q_cols);
  return d;
}

// Q^T Q = I and A = Q R in long double, and Q, R within a few roundings of the per-matrix
// kernels' (the same reflectors, signs included; only the order of the dot products' sums
// differs).
template <class T>
void expect_qr(Isa isa, int m, int n, int q_cols, const T* a, const T* q, const T* r) {
  const int r_rows = q_cols == m ? m : std::min(m, n);
  const long double eps = std::numeric_limits<T>::epsilon();
  const long double tol = 8 * eps * std::max(m, n);
  for (int i = 0; i < q_cols; ++i)
    for (int j = 0; j < q_cols; ++j) {
      long double s = 0;
      for (int t = 0; t < m; ++t) s += (long double)q[t + i * m] * q[t + j * m];
      ASSERT_LE(std::fabs(s - (i == j ? 1 : 0)), tol) << "Q^T Q at " << i << ", " << j;
    }
  long double norm = 0;
  for (int e = 0; e < m * n; ++e) norm = std::max(norm, (long double)std::fabs(a[e]));
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      long double s = 0;
      for (int t = 0; t < r_rows; ++t) s += (long double)q[i + t * m] * r[t + j * r_rows];
      ASSERT_LE(std::fabs(s - a[i + j * m]), tol * (norm + 1)) << "A = Q R at " << i << ", " << j;
    }
  // Two backward-stable factorisations of one matrix differ by about its condition number
  // times their backward errors: kappa estimated from R's diagonal.
  const Qr<T> ref = per_matrix_qr(isa, m, n, q_cols, a);
  ASSERT_TRUE(ref.ok);
  const int k = std::min(m, n);
  long double big = 0, small = std::numeric_limits<long double>::infinity();
  for (int j = 0; j < k; ++j) {
    const long double d = std::fabs((long double)ref.r[j + j * r_rows]);
    big = std::max(big, d);
    small = std::min(small, d);
  }
  const long double kappa = small > 0 ? big / small : 1 / eps;
  for (int j = 0; j < k; ++j) {  // LAPACK's signs: beta = -sign(alpha) * norm
    if (std::fabs((long double)ref.r[j + j * r_rows]) > tol * kappa * (norm + 1)) {
      ASSERT_EQ(std::signbit(r[j + j * r_rows]), std::signbit(ref.r[j + j * r_rows]))
          << "the sign of R's diagonal entry " << j;
    }
  }
  for (int e = 0; e < m * q_cols; ++e)
    ASSERT_NEAR(q[e], ref.q[e], tol * kappa)
        << "Q entry " << e << " against the per-matrix kernels";
  for (int e = 0; e < r_rows * n; ++e)
    ASSERT_NEAR(r[e], ref.r[e], tol * kappa * (norm + 1))
        << "R entry " << e << " against the per-matrix kernels";
}

struct Shape2 {
  int m, n;
};

template <class T>
void random_matrices_are_factored() {
  const std::vector<Shape2> shapes{{1, 1},  {1, 5},   {5, 1},   {2, 2},   {3, 6},   {6, 3},
                                   {8, 8},  {9, 4},   {4, 9},   {16, 16}, {17, 23}, {23, 17},
                                   {32, 7}, {31, 32}, {64, 40}, {63, 64}, {64, 64}};
  for (Isa isa : isas()) {
    const int full = lanes<T>(isa);
    for (const Shape2& sh : shapes) {
      const int m = sh.m, n = sh.n, k = std::min(m, n);
      for (int q_cols : {k, m}) {
        if (q_cols != k && q_cols < n) continue;  // a complete Q of a wide matrix is its reduced
        for (int count : {1, full / 2 + 1, full}) {
          SCOPED_TRACE(std::string(name(isa)) + " " + std::to_string(m) + "x" + std::to_string(n) +
                       " q_cols " + std::to_string(q_cols) + " count = " + std::to_string(count));
          const auto a = random_matrices<T>(m, n, count, 100 + m * 31 + n * 7 + count + q_cols);
          const Qr<T> d = lanes_qr(isa, m, n, q_cols, count, a);
          ASSERT_TRUE(d.ok);
          const int r_rows = q_cols == m ? m : k;
          for (int b = 0; b < count; ++b)
            expect_qr(isa, m, n, q_cols, a.data() + b * m * n, d.q.data() + b * m * q_cols,
                      d.r.data() + b * r_rows * n);
        }
      }
    }
  }
}

TEST(LaneQr, RandomFloat64Matrices) {
  if (isas().empty()) GTEST_SKIP() << "this CPU has neither AVX2 nor AVX-512: no lane kernels";
  random_matrices_are_factored<double>();
}

TEST(LaneQr, RandomFloat32Matrices) {
  if (isas().empty()) GTEST_SKIP() << "this CPU has neither AVX2 nor AVX-512: no lane kernels";
  random_matrices_are_factored<float>();
}

// Columns with nothing below the diagonal take H = I in their lane only: an upper triangular
// matrix is its own R with Q = I, exactly, beside random matrices in the other lanes; a zero
// diagonal entry of either sign before nonzero entries below it gets LAPACK's beta (-0.0 counts
// as negative: beta = +norm), as the per-matrix kernels do.
template <class T>
void structured_columns() {
  for (Isa isa : isas()) {
    SCOPED_TRACE(name(isa));
    const int full = lanes<T>(isa), m = 7, n = 5;
    auto a = random_matrices<T>(m, n, full, 42);
    for (int j = 0; j < n; ++j)  // lane 0: upper triangular
      for (int i = j + 1; i < m; ++i) a[i + j * m] = 0;
    a[1 * m * n + 0] = T(-0.0);  // lane 1: a -0.0 on the diagonal of column 0
    a[2 * m * n + 0] = T(0.0);   // lane 2: a +0.0 there
    const Qr<T> d = lanes_qr(isa, m, n, m, full, a);
    ASSERT_TRUE(d.ok);
    for (int i = 0; i < m; ++i)
      for (int j = 0; j < m; ++j) ASSERT_EQ(d.q[i + j * m], i == j ? T(1) : T(0));
    for (int j = 0; j < n; ++j)
      for (int i = 0; i <= j; ++i) ASSERT_EQ(d.r[i + j * m], a[i + j * m]);
    EXPECT_GT(d.r[1 * m * n + 0], T(0)) << "beta = +norm after -0.0";
    EXPECT_LT(d.r[2 * m * n + 0], T(0)) << "beta = -norm after +0.0";
    for (int b = 1; b < full; ++b)
      expect_qr(isa, m, n, m, a.data() + b * m * n, d.q.data() + b * m * m, d.r.data() + b * m * n);
  }
}

// A column with nothing below its diagonal (H = I) leaves the columns after it bit for bit,
// -0.0 entries included (y - 0 * x would make them +0.0 and flip the sign of a later column's
// alpha, so of an R row and a Q column; found by an adversarial test): A = [[1, 2], [-0, -0],
// [0, 1]] in every lane gives what the per-matrix kernels and LAPACK give, R = [[1, 2], [0, 1]].
template <class T>
void identity_reflectors_leave_columns_alone() {
  for (Isa isa : isas()) {
    SCOPED_TRACE(name(isa));
    const int full = lanes<T>(isa), m = 3, n = 2;
    const T one_matrix[] = {T(1), T(-0.0), T(0), T(2), T(-0.0), T(1)};
    std::vector<T> a;
    for (int b = 0; b < full; ++b) a.insert(a.end(), one_matrix, one_matrix + m * n);
    const Qr<T> d = lanes_qr(isa, m, n, m, full, a);
    ASSERT_TRUE(d.ok);
    const Qr<T> ref = per_matrix_qr(isa, m, n, m, one_matrix);
    for (int b = 0; b < full; ++b) {
      for (int j = 0; j < n; ++j)
        for (int i = 0; i <= j; ++i)
          EXPECT_EQ(std::memcmp(&d.r[b * m * n + i + j * m], &ref.r[i + j * m], sizeof(T)), 0)
              << "R(" << i << ", " << j << ") of matrix " << b;
      EXPECT_EQ(std::memcmp(d.q.data() + b * m * m, ref.q.data(), sizeof(T) * m * m), 0)
          << "Q of matrix " << b;
    }
    EXPECT_EQ(d.r[1 + 1 * m], T(1));
  }
}

TEST(LaneQr, IdentityReflectorsLeaveColumnsAlone) {
  if (isas().empty()) GTEST_SKIP() << "this CPU has neither AVX2 nor AVX-512: no lane kernels";
  identity_reflectors_leave_columns_alone<double>();
  identity_reflectors_leave_columns_alone<float>();
}

TEST(LaneQr, StructuredColumns) {
  if (isas().empty()) GTEST_SKIP() << "this CPU has neither AVX2 nor AVX-512: no lane kernels";
  structured_columns<double>();
  structured_columns<float>();
}

// A group with one matrix the unscaled sums of squares cannot carry is declined whole, nothing
// written: a NaN or an infinity, entries whose squares underflow (below T's normal minimum over
// eps^2 in a column's sum) or overflow.
template <class T>
void declines() {
  const T inf = std::numeric_limits<T>::infinity(), nan = std::numeric_limits<T>::quiet_NaN();
  const T tiny = std::sqrt(std::numeric_limits<T>::min()) * std::numeric_limits<T>::epsilon() / 4;
  const T small = std::sqrt(std::numeric_limits<T>::min()) / 2;  // squares: subnormal
  const T huge = 1 / tiny;
  for (Isa isa : isas()) {
    const int full = lanes<T>(isa), m = 6, n = 4;
    for (T bad : {nan, inf, tiny, small, huge}) {
      SCOPED_TRACE(std::string(name(isa)) + " entry " + std::to_string(double(bad)));
      auto a = random_matrices<T>(m, n, full, 7);
      T* last = a.data() + (full - 1) * m * n;
      if (bad == tiny || bad == small) {
        for (int i = 1; i < m; ++i) last[i] = bad;  // column 0 below its diagonal
      } else {
        last[3 + 2 * m] = bad;
      }
      const Qr<T> d = lanes_qr(isa, m, n, n, full, a);
      EXPECT_FALSE(d.ok);
      for (T x : d.q) ASSERT_EQ(x, T(kUnwritten));
      for (int b = 0; b < full; ++b)
        for (int j = 0; j < n; ++j)
          for (int i = 0; i <= j; ++i) ASSERT_EQ(d.r[b * n * n + i + j * n], T(kUnwritten));
    }
  }
}

// A non-finite entry in a wide matrix's columns past its last row, which no sum of squares
// reads, declines too.
template <class T>
void declines_non_finite_trailing_columns() {
  for (Isa isa : isas()) {
    SCOPED_TRACE(name(isa));
    const int full = lanes<T>(isa), m = 2, n = 3;
    for (T bad : {std::numeric_limits<T>::quiet_NaN(), std::numeric_limits<T>::infinity()}) {
      auto a = random_matrices<T>(m, n, full, 13);
      a[0 + 2 * m] = bad;  // matrix 0, column 2
      EXPECT_FALSE(lanes_qr(isa, m, n, m, full, a).ok);
    }
  }
}

TEST(LaneQr, DeclinesWhatTheSumsOfSquaresCannotCarry) {
  if (isas().empty()) GTEST_SKIP() << "this CPU has neither AVX2 nor AVX-512: no lane kernels";
  declines_non_finite_trailing_columns<double>();
  declines_non_finite_trailing_columns<float>();
  declines<double>();
  declines<float>();
}

TEST(LaneQr, AppliesUpToItsLimit) {
  for (Isa isa : isas()) {
    const std::int64_t top = cpu_blas::kLaneQrMax;
    EXPECT_TRUE(cpu_blas::lane_qr_applies(isa, top, top, top));
    EXPECT_TRUE(cpu_blas::lane_qr_applies(isa, top, 3, 3));
    EXPECT_TRUE(cpu_blas::lane_qr_applies(isa, top, 3, top));
    EXPECT_TRUE(cpu_blas::lane_qr_applies(isa, 3, top, 3));
    EXPECT_FALSE(cpu_blas::lane_qr_applies(isa, top + 1, 2, 2));
    EXPECT_FALSE(cpu_blas::lane_qr_applies(isa, 2, top + 1, 2));
    EXPECT_FALSE(cpu_blas::lane_qr_applies(isa, 8, 4, 2));  // fewer columns than min(m, n)
    EXPECT_FALSE(cpu_blas::lane_qr_applies(isa, 8, 4, 9));  // more than m
  }
  EXPECT_FALSE(cpu_blas::lane_qr_applies(Isa::None, 4, 4, 4));
}

}  // namespace
