// The CPU backend's batched Jacobi eigensolver (backends/cpu/jacobi_eigh.hpp) on every ISA this
// CPU runs: eigenvalues against LAPACK's syevd on the same matrices, eigenvectors against the
// definition (A V = V diag(w), V^T V = I, in long double), the ordering, the lower triangle
// alone read, matrices scaled by powers of two (results scaled exactly), lanes that keep to
// themselves, special matrices, and the declines.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "backends/cpu/cpu_isa.hpp"
#include "backends/cpu/jacobi_eigh.hpp"
#include "jacobi_test_util.hpp"
#include "ops/linalg/cpu/lapack.hpp"

namespace {

using tenferro::cpu_isa::Isa;
namespace cpu_blas = tenferro::cpu_blas;
namespace lapack = tenferro::linalg_cpu::lapack;

using jacobi_test::isas;
using jacobi_test::lanes;
using jacobi_test::name;

// `count` symmetric n x n matrices, entries uniform in [-1, 1], the strict upper triangle NaN:
// the kernels read the lower one only.
template <class T>
std::vector<T> random_symmetric(int n, int count, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::vector<T> a(static_cast<std::size_t>(n * n * count));
  for (int b = 0; b < count; ++b) {
    for (int j = 0; j < n; ++j) {
      for (int i = 0; i < n; ++i) {
        a[b * n * n + i + j * n] =
            i >= j ? static_cast<T>(u(rng)) : std::numeric_limits<T>::quiet_NaN();
      }
    }
  }
  return a;
}

template <class T>
long double lower(const T* a, int n, int i, int j) {
  return static_cast<long double>(i >= j ? a[i + j * n] : a[j + i * n]);
}

template <class T>
long double max_abs(const T* a, int n) {
  long double m = 0;
  for (int j = 0; j < n; ++j)
    for (int i = j; i < n; ++i) m = std::max(m, std::fabs(static_cast<long double>(a[i + j * n])));
  return m;
}

template <class T>
struct Decomposition {
  std::vector<T> w, v;
  bool ok = false;
};

template <class T>
Decomposition<T> jacobi(Isa isa, int n, int count, const std::vector<T>& a, bool vectors = true) {
  Decomposition<T> d;
  d.w.assign(static_cast<std::size_t>(n * count), T(-7));
  d.v.assign(static_cast<std::size_t>(n * n * count), T(-7));
  d.ok = cpu_blas::jacobi_eigh<T>(isa, n, count, a.data(), n * n, d.w.data(), d.v.data(), n * n,
                                  vectors);
  return d;
}

// LAPACK's eigenvalues of one matrix (lower triangle).
template <class T>
std::vector<T> lapack_values(int n, const T* a) {
  std::vector<T> copy(a, a + n * n), w(static_cast<std::size_t>(n));
  T query{};
  lapack::lint iquery = 0;
  T rdummy{};
  lapack::syevd('N', 'L', n, copy.data(), n, w.data(), &query, -1, &rdummy, 0, &iquery, -1);
  std::vector<T> work(static_cast<std::size_t>(std::max<T>(query, 1)));
  std::vector<lapack::lint> iwork(static_cast<std::size_t>(std::max<lapack::lint>(iquery, 1)));
  const auto info = lapack::syevd('N', 'L', n, copy.data(), n, w.data(), work.data(),
                                  static_cast<lapack::lint>(work.size()), &rdummy, 0, iwork.data(),
                                  static_cast<lapack::lint>(iwork.size()));
  EXPECT_EQ(info, 0);
  return w;
}

// Checks one matrix's decomposition: ascending values within tol of LAPACK's, A v_k = w_k v_k
// and V^T V = I to tol, all relative to max |A| (tol: a few n eps).
template <class T>
void expect_decomposition(int n, const T* a, const T* w, const T* v, const char* what) {
  SCOPED_TRACE(what);
  const long double eps = std::numeric_limits<T>::epsilon();
  const long double norm = std::max<long double>(max_abs(a, n), std::numeric_limits<T>::min());
  const long double tol = 8 * n * eps;
  for (int k = 0; k + 1 < n; ++k) EXPECT_LE(w[k], w[k + 1]) << "ascending, k = " << k;
  const std::vector<T> want = lapack_values(n, a);
  for (int k = 0; k < n; ++k)
    EXPECT_LE(std::fabs(static_cast<long double>(w[k]) - want[k]), tol * norm) << "w[" << k << "]";
  if (v == nullptr) return;
  for (int k = 0; k < n; ++k) {
    for (int i = 0; i < n; ++i) {
      long double av = 0;
      for (int j = 0; j < n; ++j) av += lower(a, n, i, j) * v[j + k * n];
      const long double r = av - static_cast<long double>(w[k]) * v[i + k * n];
      EXPECT_LE(std::fabs(r), tol * norm) << "(A V - V w)[" << i << ", " << k << "]";
    }
    for (int l = 0; l < n; ++l) {
      long double dot = 0;
      for (int i = 0; i < n; ++i)
        dot += static_cast<long double>(v[i + k * n]) * static_cast<long double>(v[i + l * n]);
      EXPECT_LE(std::fabs(dot - (k == l ? 1.0L : 0.0L)), tol)
          << "(V^T V)[" << k << ", " << l << "]";
    }
  }
}

template <class T>
void random_matrices_agree_with_lapack() {
  for (Isa isa : isas()) {
    const int full = lanes<T>(isa);
    for (int n : {1, 2, 3, 4, 5, 7, 8, 9, 12, 15, 16, 17, 23, 24, 31, 32}) {
      for (int count : {1, full / 2 + 1, full}) {
        SCOPED_TRACE(std::string(name(isa)) + " n = " + std::to_string(n) +
                     " count = " + std::to_string(count));
        const auto a = random_symmetric<T>(n, count, 100 + n * 31 + count);
        const Decomposition<T> d = jacobi(isa, n, count, a);
        ASSERT_TRUE(d.ok);
        for (int b = 0; b < count; ++b)
          expect_decomposition(n, a.data() + b * n * n, d.w.data() + b * n, d.v.data() + b * n * n,
                               "random");
        // Values alone: the same rotations of A, so the same values bit for bit, V untouched.
        const Decomposition<T> values = jacobi(isa, n, count, a, false);
        ASSERT_TRUE(values.ok);
        EXPECT_EQ(values.w, d.w);
        EXPECT_TRUE(std::all_of(values.v.begin(), values.v.end(), [](T x) { return x == T(-7); }));
      }
    }
  }
}

TEST(JacobiEigh, RandomFloat64MatricesAgreeWithLapack) {
  random_matrices_agree_with_lapack<double>();
}
TEST(JacobiEigh, RandomFloat32MatricesAgreeWithLapack) {
  random_matrices_agree_with_lapack<float>();
}

// Multiplying A by 2^k multiplies every eigenvalue by 2^k exactly and leaves the eigenvectors as
// they were, bit for bit, across the whole exponent range (also where A's entries are subnormal
// or near overflow): the kernels scale each matrix by a power of two first.
template <class T>
void powers_of_two_scale_exactly(std::initializer_list<int> exponents) {
  for (Isa isa : isas()) {
    const int n = 6;
    const auto a = random_symmetric<T>(n, 1, 5);
    const Decomposition<T> base = jacobi(isa, n, 1, a);
    ASSERT_TRUE(base.ok);
    for (int k : exponents) {
      SCOPED_TRACE(std::string(name(isa)) + " 2^" + std::to_string(k));
      std::vector<T> scaled(a);
      for (T& x : scaled) x = std::ldexp(x, k);
      const Decomposition<T> d = jacobi(isa, n, 1, scaled);
      ASSERT_TRUE(d.ok);
      for (int i = 0; i < n; ++i) EXPECT_EQ(d.w[i], std::ldexp(base.w[i], k)) << "w[" << i << "]";
      EXPECT_EQ(d.v, base.v);
    }
  }
}

TEST(JacobiEigh, PowersOfTwoScaleFloat64Exactly) {
  powers_of_two_scale_exactly<double>({-1000, -700, -100, -64, -1, 1, 63, 64, 65, 500, 1000});
}
TEST(JacobiEigh, PowersOfTwoScaleFloat32Exactly) {
  powers_of_two_scale_exactly<float>({-100, -60, -17, -1, 1, 16, 17, 60, 100, 126});
}

// A group of matrices of very different scales gives each the result it gets alone.
// Symmetric matrices of subnormal entries (float32 near 1e-40, float64 near 1e-320), scaled up
// by a power of two far enough that the rotations see normal numbers (see jacobi_svd_test.cpp):
// orthonormal eigenvectors, ascending eigenvalues.
template <class T>
void subnormal_matrices_keep_orthogonal_vectors() {
  const long double eps = std::numeric_limits<T>::epsilon();
  for (Isa isa : isas()) {
    for (int n : {8, 32}) {
      SCOPED_TRACE(std::string(name(isa)) + " n = " + std::to_string(n));
      const int count = lanes<T>(isa);
      auto a = random_symmetric<T>(n, count, 91 + n);
      jacobi_test::make_subnormal(a);
      const Decomposition<T> d = jacobi(isa, n, count, a);
      ASSERT_TRUE(d.ok);
      for (int b = 0; b < count; ++b) {
        EXPECT_LE(jacobi_test::orthogonality_error(d.v.data() + b * n * n, n, n, n), 8 * n * eps)
            << "eigenvectors of matrix " << b;
        for (int i = 0; i + 1 < n; ++i) EXPECT_LE(d.w[b * n + i], d.w[b * n + i + 1]);
      }
    }
  }
}

TEST(JacobiEigh, SubnormalMatricesKeepOrthogonalVectors) {
  subnormal_matrices_keep_orthogonal_vectors<float>();
  subnormal_matrices_keep_orthogonal_vectors<double>();
}

TEST(JacobiEigh, LanesKeepToThemselves) {
  for (Isa isa : isas()) {
    SCOPED_TRACE(name(isa));
    const int n = 5, count = lanes<double>(isa);
    auto a = random_symmetric<double>(n, count, 9);
    for (int b = 0; b < count; ++b)
      for (int e = 0; e < n * n; ++e)
        a[b * n * n + e] = std::ldexp(a[b * n * n + e], 250 * b - 900);
    const Decomposition<double> group = jacobi(isa, n, count, a);
    ASSERT_TRUE(group.ok);
    for (int b = 0; b < count; ++b) {
      const std::vector<double> one(a.begin() + b * n * n, a.begin() + (b + 1) * n * n);
      const Decomposition<double> alone = jacobi(isa, n, 1, one);
      ASSERT_TRUE(alone.ok);
      EXPECT_TRUE(std::equal(alone.w.begin(), alone.w.end(), group.w.begin() + b * n)) << b;
      EXPECT_TRUE(std::equal(alone.v.begin(), alone.v.end(), group.v.begin() + b * n * n)) << b;
      expect_decomposition(n, one.data(), alone.w.data(), alone.v.data(), "scaled lane");
    }
  }
}

std::vector<double> from_rows(int n, std::initializer_list<double> rows) {
  std::vector<double> a(rows);  // symmetric: row-major equals column-major
  EXPECT_EQ(static_cast<int>(a.size()), n * n);
  return a;
}

TEST(JacobiEigh, SpecialMatrices) {
  for (Isa isa : isas()) {
    SCOPED_TRACE(name(isa));
    {  // zero: zero values, the identity as vectors
      const Decomposition<double> d = jacobi(isa, 4, 1, std::vector<double>(16, 0.0));
      ASSERT_TRUE(d.ok);
      for (int i = 0; i < 4; ++i) {
        EXPECT_EQ(d.w[i], 0.0);
        for (int j = 0; j < 4; ++j) EXPECT_EQ(d.v[i + j * 4], i == j ? 1.0 : 0.0);
      }
    }
    {  // diagonal, unsorted: the values sorted exactly, the vectors a permutation
      const auto a = from_rows(3, {3, 0, 0, 0, -1, 0, 0, 0, 2});
      const Decomposition<double> d = jacobi(isa, 3, 1, a);
      ASSERT_TRUE(d.ok);
      EXPECT_EQ(d.w, (std::vector<double>{-1, 2, 3}));
      EXPECT_EQ(d.v, (std::vector<double>{0, 1, 0, 0, 0, 1, 1, 0, 0}));
    }
    {  // the exchange matrix [[0, 1], [1, 0]]: -1 and 1
      const auto a = from_rows(2, {0, 1, 1, 0});
      const Decomposition<double> d = jacobi(isa, 2, 1, a);
      ASSERT_TRUE(d.ok);
      EXPECT_NEAR(d.w[0], -1.0, 1e-15);
      EXPECT_NEAR(d.w[1], 1.0, 1e-15);
      expect_decomposition(2, a.data(), d.w.data(), d.v.data(), "exchange");
    }
    for (int n : {2, 7, 16, 32}) {  // all ones: 0 (n - 1 times) and n; a degenerate eigenspace
      const std::vector<double> a(static_cast<std::size_t>(n * n), 1.0);
      const Decomposition<double> d = jacobi(isa, n, 1, a);
      ASSERT_TRUE(d.ok);
      EXPECT_NEAR(d.w[n - 1], n, 8 * n * 2.2e-16 * n);
      expect_decomposition(n, a.data(), d.w.data(), d.v.data(), "all ones");
    }
    {  // graded: entries from 1e-150 to 1e150 (the values span the range; absolute accuracy)
      const int n = 8;
      std::vector<double> a(n * n);
      for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i)
          a[i + j * n] =
              std::pow(10.0, -150.0 + 300.0 * (i + j) / (2 * n - 2)) * (1 + 0.1 * ((i * j) % 3));
      const Decomposition<double> d = jacobi(isa, n, 1, a);
      ASSERT_TRUE(d.ok);
      expect_decomposition(n, a.data(), d.w.data(), d.v.data(), "graded");
    }
    {  // subnormal entries only
      const auto a = from_rows(2, {4e-320, 1e-320, 1e-320, 2e-320});
      const Decomposition<double> d = jacobi(isa, 2, 1, a);
      ASSERT_TRUE(d.ok);
      expect_decomposition(2, a.data(), d.w.data(), d.v.data(), "subnormal");
    }
    {  // near overflow: the values themselves are finite
      const double h = 0x1p1021;
      const auto a = from_rows(2, {h, h / 2, h / 2, -h});
      const Decomposition<double> d = jacobi(isa, 2, 1, a);
      ASSERT_TRUE(d.ok);
      EXPECT_TRUE(std::isfinite(d.w[0]) && std::isfinite(d.w[1]));
      expect_decomposition(2, a.data(), d.w.data(), d.v.data(), "huge");
    }
  }
}

TEST(JacobiEigh, DeclinesNonFiniteEntriesAndDoesNotApplyPastItsSize) {
  for (Isa isa : isas()) {
    SCOPED_TRACE(name(isa));
    for (double bad : {std::numeric_limits<double>::infinity(), std::nan("")}) {
      auto a = random_symmetric<double>(3, 2, 4);
      a[9 + 1] = bad;  // the second matrix, lower triangle
      EXPECT_FALSE(jacobi(isa, 3, 2, a).ok);
    }
    EXPECT_TRUE(cpu_blas::jacobi_eigh_applies(isa, cpu_blas::kJacobiEighMax));
    EXPECT_FALSE(cpu_blas::jacobi_eigh_applies(isa, cpu_blas::kJacobiEighMax + 1));
    EXPECT_FALSE(cpu_blas::jacobi_eigh_applies(isa, 0));
  }
  EXPECT_FALSE(cpu_blas::jacobi_eigh_applies(Isa::None, 4));
  EXPECT_EQ(cpu_blas::matrix_lanes(Isa::None, true), 0);
}

}  // namespace
