// The CPU backend's small-QR kernels (backends/cpu/householder_qr.hpp) against LAPACK's geqrf and
// orgqr on the same matrices, entry by entry, and against the definition (A = Q R, Q^T Q = I,
// computed in long double); where the kernels decline (column norms their plain sum of squares
// cannot carry), linalg::qr still returns the factorisation, through LAPACK.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <random>
#include <type_traits>
#include <vector>

#include "backends/cpu/cpu_isa.hpp"
#include "backends/cpu/householder_qr.hpp"
#include "linalg_test_util.hpp"
#include "ops/linalg/cpu/lapack.hpp"

namespace {

using tenferro::cpu_isa::Isa;
namespace cpu_blas = tenferro::cpu_blas;
namespace lapack = tenferro::linalg_cpu::lapack;

struct Size {
  std::int64_t m, n;
};

// Square, tall and wide; vector multiples, their neighbours and the kernels' 128 limit.
const std::vector<Size>& sizes() {
  static const std::vector<Size> s{{1, 1},   {2, 1},  {1, 2},   {3, 3},    {4, 4},    {8, 8},
                                   {5, 9},   {9, 5},  {16, 16}, {17, 15},  {31, 17},  {17, 31},
                                   {32, 32}, {33, 7}, {64, 64}, {100, 37}, {37, 100}, {128, 128}};
  return s;
}

Isa available_isa() {
  const Isa isa = tenferro::cpu_isa::best_isa();
  return cpu_blas::householder_qr_applies(isa, 1, 1, false) ? isa : Isa::None;
}

template <class T>
constexpr bool kComplex = !std::is_floating_point_v<T>;
template <class T>
using RealOf = decltype(std::abs(T{}));

// Entries uniform in [-scale, scale], complex ones with an imaginary part of that range too.
template <class T>
std::vector<T> random_matrix(std::int64_t m, std::int64_t n, std::uint64_t seed, double scale) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::vector<T> a(static_cast<std::size_t>(m * n));
  for (T& x : a) {
    if constexpr (kComplex<T>) {
      const double re = u(rng) * scale;
      x = T(static_cast<RealOf<T>>(re), static_cast<RealOf<T>>(u(rng) * scale));
    } else {
      x = static_cast<T>(u(rng) * scale);
    }
  }
  return a;
}

// An entry in long double complex, for the residuals.
template <class T>
std::complex<long double> wide(T x) {
  if constexpr (kComplex<T>)
    return {static_cast<long double>(x.real()), static_cast<long double>(x.imag())};
  else
    return {static_cast<long double>(x), 0.0L};
}

// What linalg::qr's CPU executor hands on: R (upper part of the factored matrix) and Q's
// first q_cols columns, through the kernels or through LAPACK.
template <class T>
struct Factors {
  std::vector<T> r, q;   // r: min(m, q_cols-rows) x n as stored (ld m), q: m x q_cols
  bool factored = true;  // false: the kernels declined
};

// A factored by factor(buffer, tau) (false: declined, nothing else filled in), then Q formed by
// form_q(buffer, tau); the buffer has max(n, q_cols) columns: A, the reflectors, then Q.
template <class T, class Factor, class FormQ>
Factors<T> factored(const std::vector<T>& a, std::int64_t m, std::int64_t n, std::int64_t q_cols,
                    Factor factor, FormQ form_q) {
  std::vector<T> buf(static_cast<std::size_t>(m * std::max(n, q_cols)));
  std::copy(a.begin(), a.end(), buf.begin());
  std::vector<T> tau(static_cast<std::size_t>(std::min(m, n)));
  Factors<T> f;
  f.factored = factor(buf.data(), tau.data());
  if (!f.factored) return f;
  f.r.assign(buf.begin(), buf.begin() + m * n);
  form_q(buf.data(), tau.data());
  f.q.assign(buf.begin(), buf.begin() + m * q_cols);
  return f;
}

template <class T>
Factors<T> through_kernels(const std::vector<T>& a, std::int64_t m, std::int64_t n,
                           std::int64_t q_cols) {
  return factored(
      a, m, n, q_cols,
      [&](T* buf, T* tau) { return cpu_blas::householder_qr(available_isa(), m, n, buf, tau); },
      [&](T* buf, T* tau) {
        cpu_blas::householder_q(available_isa(), m, q_cols, std::min(m, n), buf, tau);
      });
}

template <class T>
Factors<T> through_lapack(const std::vector<T>& a, std::int64_t m, std::int64_t n,
                          std::int64_t q_cols) {
  std::vector<T> work(static_cast<std::size_t>(64 * (m + n)));
  const auto lw = static_cast<lapack::lint>(work.size());
  return factored(
      a, m, n, q_cols,
      [&](T* buf, T* tau) { return lapack::geqrf(m, n, buf, m, tau, work.data(), lw) == 0; },
      [&](T* buf, T* tau) {
        EXPECT_EQ(lapack::orgqr(m, q_cols, std::min(m, n), buf, m, tau, work.data(), lw), 0);
      });
}

// |x - y| over the largest |y| entry, R compared on and above the diagonal only.
template <class T>
double upper_difference(const std::vector<T>& x, const std::vector<T>& y, std::int64_t m,
                        std::int64_t n) {
  double diff = 0, norm = 0;
  for (std::int64_t j = 0; j < n; ++j)
    for (std::int64_t i = 0; i <= std::min(j, m - 1); ++i) {
      const auto at = static_cast<std::size_t>(i + j * m);
      diff = std::max(diff, double(std::abs(wide(x[at]) - wide(y[at]))));
      norm = std::max(norm, double(std::abs(wide(y[at]))));
    }
  return norm == 0 ? diff : diff / norm;
}

template <class T>
double difference(const std::vector<T>& x, const std::vector<T>& y) {
  double diff = 0;
  for (std::size_t i = 0; i < x.size(); ++i)
    diff = std::max(diff, double(std::abs(wide(x[i]) - wide(y[i]))));
  return diff;
}

// max |A - Q R| / max |A| and max |Q^H Q - I|, in long double.
template <class T>
std::pair<double, double> residuals(const std::vector<T>& a, const Factors<T>& f, std::int64_t m,
                                    std::int64_t n, std::int64_t q_cols) {
  const std::int64_t k = std::min(m, n);
  double recon = 0, amax = 0, orth = 0;
  const auto q = [&](std::int64_t i, std::int64_t j) {
    return wide(f.q[static_cast<std::size_t>(i + j * m)]);
  };
  for (std::int64_t j = 0; j < n; ++j)
    for (std::int64_t i = 0; i < m; ++i) {
      std::complex<long double> s = 0;
      for (std::int64_t l = 0; l <= std::min(j, k - 1); ++l)
        s += q(i, l) * wide(f.r[static_cast<std::size_t>(l + j * m)]);
      const std::complex<long double> aij = wide(a[static_cast<std::size_t>(i + j * m)]);
      recon = std::max(recon, double(std::abs(s - aij)));
      amax = std::max(amax, double(std::abs(aij)));
    }
  for (std::int64_t c = 0; c < q_cols; ++c)
    for (std::int64_t d = 0; d < q_cols; ++d) {
      std::complex<long double> s = 0;
      for (std::int64_t i = 0; i < m; ++i) s += std::conj(q(i, c)) * q(i, d);
      orth = std::max(orth, double(std::abs(s - std::complex<long double>(c == d ? 1 : 0))));
    }
  return {amax == 0 ? recon : recon / amax, orth};
}

template <class T>
void check_against_lapack(std::int64_t m, std::int64_t n, std::int64_t q_cols,
                          const std::vector<T>& a) {
  SCOPED_TRACE(std::to_string(m) + "x" + std::to_string(n) + " q_cols " + std::to_string(q_cols));
  const Factors<T> ours = through_kernels(a, m, n, q_cols);
  ASSERT_TRUE(ours.factored);
  const Factors<T> ref = through_lapack(a, m, n, q_cols);
  // Same reflectors, same signs: the two differ by rounding (their sums run in other orders).
  const double tol = 30.0 * double(std::max(m, n)) * std::numeric_limits<RealOf<T>>::epsilon();
  EXPECT_LE(upper_difference(ours.r, ref.r, m, n), tol) << "R";
  EXPECT_LE(difference(ours.q, ref.q), tol) << "Q";
  const auto [recon, orth] = residuals(a, ours, m, n, q_cols);
  EXPECT_LE(recon, tol) << "A = Q R";
  EXPECT_LE(orth, tol) << "Q^T Q = I";
}

template <class T>
void check_sizes() {
  std::uint64_t seed = 1;
  for (const Size& s : sizes()) {
    if (!cpu_blas::householder_qr_applies(available_isa(), s.m, s.n, kComplex<T>)) continue;
    const std::int64_t k = std::min(s.m, s.n);
    const std::vector<T> a = random_matrix<T>(s.m, s.n, seed++, 1.0);
    check_against_lapack<T>(s.m, s.n, k, a);    // reduced
    check_against_lapack<T>(s.m, s.n, s.m, a);  // complete
  }
}

TEST(CpuHouseholderQr, AgreesWithLapackAndTheDefinitionAtEverySize) {
  if (available_isa() == Isa::None) GTEST_SKIP() << "no AVX2+FMA on this CPU: no small-QR kernels";
  check_sizes<float>();
  check_sizes<double>();
  check_sizes<std::complex<float>>();
  check_sizes<std::complex<double>>();
}

// Complex columns with nothing below the diagonal still need a reflector when their diagonal
// entry is not real (zlarfg): R's diagonal is real either way.
TEST(CpuHouseholderQr, ComplexTriangularMatricesGetRealDiagonals) {
  if (available_isa() == Isa::None) GTEST_SKIP() << "no AVX2+FMA on this CPU: no small-QR kernels";
  using C = std::complex<double>;
  const std::int64_t m = 7, n = 5;
  std::vector<C> upper = random_matrix<C>(m, n, 31, 1.0);
  for (std::int64_t j = 0; j < n; ++j)
    for (std::int64_t i = j + 1; i < m; ++i) upper[static_cast<std::size_t>(i + j * m)] = 0;
  upper[0] = C(0.0, 2.0);  // purely imaginary: alphr = 0
  check_against_lapack<C>(m, n, m, upper);
  const Factors<C> f = through_kernels(upper, m, n, n);
  for (std::int64_t j = 0; j < n; ++j)
    EXPECT_EQ(f.r[static_cast<std::size_t>(j + j * m)].imag(), 0.0);
}

TEST(CpuHouseholderQr, ZeroColumnsTriangularAndRankDeficientMatrices) {
  if (available_isa() == Isa::None) GTEST_SKIP() << "no AVX2+FMA on this CPU: no small-QR kernels";
  const std::int64_t m = 9, n = 6;
  std::vector<double> zero(m * n, 0.0);
  check_against_lapack<double>(m, n, n, zero);  // every reflector the identity
  std::vector<double> upper = random_matrix<double>(m, n, 7, 1.0);
  for (std::int64_t j = 0; j < n; ++j)
    for (std::int64_t i = j + 1; i < m; ++i) upper[static_cast<std::size_t>(i + j * m)] = 0;
  check_against_lapack<double>(m, n, m, upper);  // nothing below the diagonal
  std::vector<double> gap = random_matrix<double>(m, n, 8, 1.0);
  for (std::int64_t i = 0; i < m; ++i)
    gap[static_cast<std::size_t>(i + 2 * m)] = 0;  // a zero column
  check_against_lapack<double>(m, n, n, gap);
  std::vector<double> rank2 = random_matrix<double>(m, n, 9, 1.0);
  for (std::int64_t j = 2; j < n; ++j)  // columns 2.. are combinations of columns 0 and 1
    for (std::int64_t i = 0; i < m; ++i)
      rank2[static_cast<std::size_t>(i + j * m)] =
          0.5 * double(j) * rank2[static_cast<std::size_t>(i)] -
          rank2[static_cast<std::size_t>(i + m)];
  const Factors<double> f = through_kernels(rank2, m, n, n);
  ASSERT_TRUE(f.factored);
  const auto [recon, orth] = residuals(rank2, f, m, n, n);
  EXPECT_LE(recon, 1e-14);
  EXPECT_LE(orth, 1e-14);
}

// Where the plain sum of squares would underflow or overflow, the kernels decline, and the
// executor's LAPACK path still factors the matrix.
TEST(CpuHouseholderQr, DeclinesColumnNormsOutOfRangeAndLinalgQrStillFactors) {
  if (available_isa() == Isa::None) GTEST_SKIP() << "no AVX2+FMA on this CPU: no small-QR kernels";
  const std::int64_t m = 12, n = 8;
  struct Scaled {
    double scale;
    bool declined;
  };
  for (const Scaled s :
       {Scaled{1e-200, true}, Scaled{1e200, true}, Scaled{1e-100, false}, Scaled{1e100, false}}) {
    SCOPED_TRACE("scale " + std::to_string(s.scale));
    const std::vector<double> a = random_matrix<double>(m, n, 21, s.scale);
    const Factors<double> f = through_kernels(a, m, n, n);
    EXPECT_EQ(!f.factored, s.declined);
    if (f.factored) {
      const auto [recon, orth] = residuals(a, f, m, n, n);
      EXPECT_LE(recon, 1e-14);
      EXPECT_LE(orth, 1e-14);
    }
  }
  // A column of order 1 above the diagonal and 1e-170 below: the squares underflow to zero.
  std::vector<double> tiny_below = random_matrix<double>(m, n, 22, 1.0);
  for (std::int64_t i = 1; i < m; ++i) tiny_below[static_cast<std::size_t>(i)] = 1e-170;
  EXPECT_FALSE(through_kernels(tiny_below, m, n, n).factored);
  EXPECT_FALSE(through_kernels(random_matrix<float>(m, n, 23, 1e-20), m, n, n).factored);

  // linalg::qr on those (reduced: Q m x n, R n x n): A = Q R and Q^T Q = I to double
  // precision, relative to A, in long double (1e200^2 overflows a double).
  auto rt = tenferro::EagerRuntime::cpu();
  const auto check_op = [&](const std::vector<double>& a) {
    const tenferro::Tensor host =
        tenferro::Tensor::from_col_major<double>({m, n}, std::span<const double>(a));
    const auto [q, r] = tenferro::linalg::qr(rt->upload(host));
    const tenferro::Tensor qh = q.download().contiguous(), rh = r.download().contiguous();
    Factors<double> f;
    f.q.assign(qh.data<double>(), qh.data<double>() + m * n);
    f.r.assign(static_cast<std::size_t>(m * n), 0.0);  // R in the kernels' layout (ld m)
    for (std::int64_t j = 0; j < n; ++j)
      for (std::int64_t i = 0; i < n; ++i)
        f.r[static_cast<std::size_t>(i + j * m)] = rh.data<double>()[i + j * n];
    const auto [recon, orth] = residuals(a, f, m, n, n);
    EXPECT_LE(recon, 1e-14);
    EXPECT_LE(orth, 1e-14);
  };
  check_op(random_matrix<double>(m, n, 21, 1e-200));
  check_op(random_matrix<double>(m, n, 21, 1e200));
  check_op(tiny_below);
}

}  // namespace
