// The CPU backend's batched one-sided Jacobi SVD (backends/cpu/jacobi_svd.hpp) on every ISA this
// CPU runs: singular values against LAPACK's gesdd on the same matrices, the factors against
// the definition (A = U S V^T, U^T U = I, V V^T = I, in long double), tall, wide and square,
// values alone, exact power-of-two scaling, lanes that keep to themselves, and the declines
// (non-finite entries; with vectors, a numerically zero singular value).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "backends/cpu/cpu_isa.hpp"
#include "backends/cpu/jacobi_eigh.hpp"
#include "backends/cpu/jacobi_svd.hpp"
#include "jacobi_test_util.hpp"
#include "ops/linalg/cpu/lapack.hpp"

namespace {

using tenferro::cpu_isa::Isa;
namespace cpu_blas = tenferro::cpu_blas;
namespace lapack = tenferro::linalg_cpu::lapack;

using jacobi_test::isas;
using jacobi_test::lanes;
using jacobi_test::name;
using jacobi_test::random_matrices;

template <class T>
struct Svd {
  int m = 0, n = 0, k = 0;
  std::vector<T> s, u, vt;
  bool ok = false;
};

template <class T>
Svd<T> jacobi(Isa isa, int m, int n, int count, const std::vector<T>& a, bool vectors = true) {
  Svd<T> d;
  d.m = m, d.n = n, d.k = std::min(m, n);
  d.s.assign(static_cast<std::size_t>(d.k * count), T(-7));
  d.u.assign(static_cast<std::size_t>(m * d.k * count), T(-7));
  d.vt.assign(static_cast<std::size_t>(d.k * n * count), T(-7));
  d.ok = cpu_blas::jacobi_svd<T>(isa, m, n, count, a.data(), m * n, d.s.data(), d.u.data(), m * d.k,
                                 d.vt.data(), d.k * n, vectors);
  return d;
}

template <class T>
std::vector<T> lapack_values(int m, int n, const T* a) {
  std::vector<T> copy(a, a + m * n), s(static_cast<std::size_t>(std::min(m, n)));
  T query{}, dummy{};
  std::vector<lapack::lint> iwork(static_cast<std::size_t>(8 * std::min(m, n)));
  lapack::gesdd('N', m, n, copy.data(), m, s.data(), &dummy, 1, &dummy, 1, &query, -1, nullptr,
                iwork.data());
  std::vector<T> work(static_cast<std::size_t>(std::max<T>(query, 1)));
  EXPECT_EQ(lapack::gesdd('N', m, n, copy.data(), m, s.data(), &dummy, 1, &dummy, 1, work.data(),
                          static_cast<lapack::lint>(work.size()), nullptr, iwork.data()),
            0);
  return s;
}

template <class T>
long double max_abs(const T* a, int size) {
  long double m = 0;
  for (int e = 0; e < size; ++e) m = std::max(m, std::fabs(static_cast<long double>(a[e])));
  return m;
}

// One matrix's SVD: descending values within tol of LAPACK's, and when u / vt are given,
// A = U S V^T, U^T U = I and V V^T = I to tol (relative to max |A|; tol a few max(m, n) eps).
template <class T>
void expect_svd(int m, int n, const T* a, const T* s, const T* u, const T* vt, const char* what) {
  SCOPED_TRACE(what);
  const int k = std::min(m, n);
  const long double eps = std::numeric_limits<T>::epsilon();
  const long double norm = std::max<long double>(max_abs(a, m * n), std::numeric_limits<T>::min());
  const long double tol = 8 * std::max(m, n) * eps;
  for (int i = 0; i + 1 < k; ++i) EXPECT_GE(s[i], s[i + 1]) << "descending, i = " << i;
  const std::vector<T> want = lapack_values(m, n, a);
  for (int i = 0; i < k; ++i)
    EXPECT_LE(std::fabs(static_cast<long double>(s[i]) - want[i]), tol * norm) << "s[" << i << "]";
  if (u == nullptr) return;
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < m; ++i) {
      long double usv = 0;
      for (int l = 0; l < k; ++l)
        usv +=
            static_cast<long double>(u[i + l * m]) * s[l] * static_cast<long double>(vt[l + j * k]);
      EXPECT_LE(std::fabs(usv - a[i + j * m]), tol * norm)
          << "(U S V^T - A)[" << i << ", " << j << "]";
    }
  for (int p = 0; p < k; ++p)
    for (int q = 0; q < k; ++q) {
      long double uu = 0, vv = 0;
      for (int i = 0; i < m; ++i)
        uu += static_cast<long double>(u[i + p * m]) * static_cast<long double>(u[i + q * m]);
      for (int j = 0; j < n; ++j)
        vv += static_cast<long double>(vt[p + j * k]) * static_cast<long double>(vt[q + j * k]);
      EXPECT_LE(std::fabs(uu - (p == q ? 1.0L : 0.0L)), tol) << "(U^T U)[" << p << ", " << q << "]";
      EXPECT_LE(std::fabs(vv - (p == q ? 1.0L : 0.0L)), tol) << "(V V^T)[" << p << ", " << q << "]";
    }
}

struct Shape2 {
  int m, n;
};

template <class T>
void random_matrices_agree_with_lapack() {
  const std::vector<Shape2> shapes{{1, 1},   {1, 5},   {5, 1},   {2, 2},  {3, 3},   {8, 8},
                                   {9, 4},   {4, 9},   {7, 16},  {16, 7}, {16, 16}, {17, 23},
                                   {24, 24}, {32, 19}, {31, 32}, {32, 32}};
  for (Isa isa : isas()) {
    const int full = lanes<T>(isa);
    for (const Shape2& sh : shapes) {
      for (int count : {1, full / 2 + 1, full}) {
        SCOPED_TRACE(std::string(name(isa)) + " " + std::to_string(sh.m) + "x" +
                     std::to_string(sh.n) + " count = " + std::to_string(count));
        const int m = sh.m, n = sh.n, k = std::min(m, n);
        const auto a = random_matrices<T>(m, n, count, 100 + m * 31 + n * 7 + count);
        const Svd<T> d = jacobi(isa, m, n, count, a);
        ASSERT_TRUE(d.ok);
        for (int b = 0; b < count; ++b)
          expect_svd(m, n, a.data() + b * m * n, d.s.data() + b * k, d.u.data() + b * m * k,
                     d.vt.data() + b * k * n, "random");
        // Values alone: the same rotations, so the same values bit for bit; U, V^T untouched.
        const Svd<T> values = jacobi(isa, m, n, count, a, false);
        ASSERT_TRUE(values.ok);
        EXPECT_EQ(values.s, d.s);
        EXPECT_TRUE(std::all_of(values.u.begin(), values.u.end(), [](T x) { return x == T(-7); }));
        EXPECT_TRUE(
            std::all_of(values.vt.begin(), values.vt.end(), [](T x) { return x == T(-7); }));
      }
    }
  }
}

TEST(JacobiSvd, RandomFloat64MatricesAgreeWithLapack) {
  random_matrices_agree_with_lapack<double>();
}
TEST(JacobiSvd, RandomFloat32MatricesAgreeWithLapack) {
  random_matrices_agree_with_lapack<float>();
}

TEST(JacobiSvd, PowersOfTwoScaleExactly) {
  for (Isa isa : isas()) {
    const int m = 7, n = 5;
    const auto a = random_matrices<double>(m, n, 1, 5);
    const Svd<double> base = jacobi(isa, m, n, 1, a);
    ASSERT_TRUE(base.ok);
    for (int e : {-1000, -600, -65, -1, 1, 64, 65, 600, 1000}) {
      SCOPED_TRACE(std::string(name(isa)) + " 2^" + std::to_string(e));
      std::vector<double> scaled(a);
      for (double& x : scaled) x = std::ldexp(x, e);
      const Svd<double> d = jacobi(isa, m, n, 1, scaled);
      ASSERT_TRUE(d.ok);
      for (int i = 0; i < 5; ++i) EXPECT_EQ(d.s[i], std::ldexp(base.s[i], e)) << "s[" << i << "]";
      EXPECT_EQ(d.u, base.u);
      EXPECT_EQ(d.vt, base.vt);
    }
  }
}

// Matrices of subnormal entries (float32 near 1e-40, float64 near 1e-320): each is scaled up by
// a power of two first, far enough that the rotations see normal numbers. With float32's
// scale-up capped at 2^100 such matrices kept entries below the kernels' range, the sweeps
// stopped early and U was orthogonal to 2e-3 only (found by an adversarial test).
template <class T>
void subnormal_matrices_keep_orthogonal_factors() {
  const long double eps = std::numeric_limits<T>::epsilon();
  for (Isa isa : isas()) {
    for (int n : {8, 32}) {
      SCOPED_TRACE(std::string(name(isa)) + " n = " + std::to_string(n));
      const int count = lanes<T>(isa);
      auto a = random_matrices<T>(n, n, count, 77 + n);
      jacobi_test::make_subnormal(a);
      const Svd<T> d = jacobi(isa, n, n, count, a);
      ASSERT_TRUE(d.ok);  // random matrices: no numerically zero singular value
      for (int b = 0; b < count; ++b) {
        EXPECT_LE(jacobi_test::orthogonality_error(d.u.data() + b * n * n, n, n, n), 8 * n * eps)
            << "U of matrix " << b;
        for (int i = 0; i + 1 < n; ++i) EXPECT_GE(d.s[b * n + i], d.s[b * n + i + 1]);
      }
    }
  }
}

TEST(JacobiSvd, SubnormalMatricesKeepOrthogonalFactors) {
  subnormal_matrices_keep_orthogonal_factors<float>();
  subnormal_matrices_keep_orthogonal_factors<double>();
}

TEST(JacobiSvd, LanesKeepToThemselves) {
  for (Isa isa : isas()) {
    SCOPED_TRACE(name(isa));
    const int m = 6, n = 4, count = lanes<double>(isa);
    auto a = random_matrices<double>(m, n, count, 9);
    for (int b = 0; b < count; ++b)
      for (int e = 0; e < m * n; ++e)
        a[b * m * n + e] = std::ldexp(a[b * m * n + e], 250 * b - 900);
    const Svd<double> group = jacobi(isa, m, n, count, a);
    ASSERT_TRUE(group.ok);
    for (int b = 0; b < count; ++b) {
      const std::vector<double> one(a.begin() + b * m * n, a.begin() + (b + 1) * m * n);
      const Svd<double> alone = jacobi(isa, m, n, 1, one);
      ASSERT_TRUE(alone.ok);
      EXPECT_TRUE(std::equal(alone.s.begin(), alone.s.end(), group.s.begin() + b * 4)) << b;
      EXPECT_TRUE(std::equal(alone.u.begin(), alone.u.end(), group.u.begin() + b * m * 4)) << b;
      EXPECT_TRUE(std::equal(alone.vt.begin(), alone.vt.end(), group.vt.begin() + b * 4 * n)) << b;
      expect_svd(m, n, one.data(), alone.s.data(), alone.u.data(), alone.vt.data(), "scaled lane");
    }
  }
}

// A numerically zero singular value declines, with or without vectors: its u_j is undetermined,
// and the value itself only normwise accurate where LAPACK keeps a diagonal matrix's exact
// (svdvals of diag(1, 1e-170) came out 0, diag(1, 1e-160) 9.99994e-161).
TEST(JacobiSvd, RankDeficiencyDeclinesVectorsAndValues) {
  for (Isa isa : isas()) {
    SCOPED_TRACE(name(isa));
    // Rank 2: column 2 = column 0 + column 1.
    std::vector<double> a = random_matrices<double>(5, 3, 1, 11);
    for (int i = 0; i < 5; ++i) a[i + 2 * 5] = a[i] + a[i + 5];
    EXPECT_FALSE(jacobi(isa, 5, 3, 1, a).ok);
    EXPECT_FALSE(jacobi(isa, 5, 3, 1, a, false).ok);
    EXPECT_FALSE(jacobi(isa, 3, 3, 1, std::vector<double>(9, 0.0)).ok);  // A = 0
    EXPECT_FALSE(jacobi(isa, 3, 3, 1, std::vector<double>(9, 0.0), false).ok);
    for (double tiny : {1e-160, 1e-170}) {
      EXPECT_FALSE(jacobi(isa, 2, 2, 1, std::vector<double>{1.0, 0.0, 0.0, tiny}, false).ok) << tiny;
    }
    // Just above the floor (r eps sigma_max) the kernel keeps its values and vectors.
    const std::vector<double> graded{1.0, 0.0, 0.0, 1e-13};
    const Svd<double> kept = jacobi(isa, 2, 2, 1, graded, false);
    ASSERT_TRUE(kept.ok);
    EXPECT_EQ(kept.s, (std::vector<double>{1.0, 1e-13}));
  }
}

TEST(JacobiSvd, DeclinesNonFiniteEntriesAndDoesNotApplyPastItsSize) {
  for (Isa isa : isas()) {
    SCOPED_TRACE(name(isa));
    for (double bad : {std::numeric_limits<double>::infinity(), std::nan("")}) {
      auto a = random_matrices<double>(3, 2, 2, 4);
      a[6 + 5] = bad;  // the second matrix's last entry
      EXPECT_FALSE(jacobi(isa, 3, 2, 2, a, false).ok);
    }
    EXPECT_TRUE(cpu_blas::jacobi_svd_applies(isa, cpu_blas::kJacobiSvdMax, 1));
    EXPECT_FALSE(cpu_blas::jacobi_svd_applies(isa, cpu_blas::kJacobiSvdMax + 1, 2));
    EXPECT_FALSE(cpu_blas::jacobi_svd_applies(isa, 2, cpu_blas::kJacobiSvdMax + 1));
    EXPECT_FALSE(cpu_blas::jacobi_svd_applies(isa, 0, 3));
  }
  EXPECT_FALSE(cpu_blas::jacobi_svd_applies(Isa::None, 4, 4));
}

}  // namespace
