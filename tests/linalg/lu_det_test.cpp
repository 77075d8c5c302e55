// LU (A = P L U, SciPy's convention); det and slogdet against a cofactor expansion (which
// shares nothing with LU) and closed forms.
#include "linalg_test_util.hpp"

namespace {

using namespace linalg_test;
namespace la = tenferro::linalg;

// Sign of a permutation matrix (every row and column holds exactly one 1, checked here).
double permutation_sign(const Mats& p, std::int64_t b) {
  std::vector<std::int64_t> perm(static_cast<std::size_t>(p.rows), -1);
  for (std::int64_t j = 0; j < p.cols; ++j)
    for (std::int64_t i = 0; i < p.rows; ++i) {
      const cd v = p.at(b, i, j);
      EXPECT_TRUE(v == cd(0) || v == cd(1)) << "P holds only 0 and 1";
      if (v == cd(1)) {
        EXPECT_EQ(perm[i], -1) << "row " << i << " of P holds two ones";
        perm[i] = j;
      }
    }
  double sign = 1;
  for (std::int64_t i = 0; i < p.rows; ++i) {
    EXPECT_GE(perm[i], 0) << "row " << i << " of P holds no one";
    if (perm[i] < 0) return 0;
  }
  std::vector<bool> seen(perm.size(), false);
  for (std::size_t i = 0; i < perm.size(); ++i) {  // parity by cycle lengths
    if (seen[i]) continue;
    std::size_t len = 0;
    for (std::size_t j = i; !seen[j]; j = static_cast<std::size_t>(perm[j])) {
      seen[j] = true;
      ++len;
    }
    if (len % 2 == 0) sign = -sign;
  }
  return sign;
}

TEST(LinalgLu, AllDtypesBatchesAndSizes) {
  auto rt = tenferro::EagerRuntime::cpu();
  std::uint32_t seed = 1;
  for (DType d : tenferro::kAllDTypes)
    for (const Shape& batch : batch_shapes())
      for (const Size& s : matrix_sizes()) {
        SCOPED_TRACE(case_name(d, batch, s.m, s.n));
        const EagerTensor a = rt->upload(random_tensor(d, with_batch({s.m, s.n}, batch), seed++));
        const la::LuResult r = la::lu(a);
        const std::int64_t k = std::min(s.m, s.n);
        EXPECT_EQ(r.p.shape(), with_batch({s.m, s.m}, batch));
        EXPECT_EQ(r.l.shape(), with_batch({s.m, k}, batch));
        EXPECT_EQ(r.u.shape(), with_batch({k, s.n}, batch));
        const Mats am = matrices(a), pm = matrices(r.p), lm = matrices(r.l), um = matrices(r.u);
        expect_close(multiply(pm, multiply(lm, um)), am, tol(d, std::max(s.m, s.n)), 0,
                     "A = P L U");
        for (std::int64_t b = 0; b < am.batch; ++b) {
          permutation_sign(pm, b);
          for (std::int64_t j = 0; j < k; ++j) {
            EXPECT_EQ(lm.at(b, j, j), cd(1)) << "L has a unit diagonal";
            for (std::int64_t i = 0; i < j; ++i) EXPECT_EQ(lm.at(b, i, j), cd(0)) << "L is lower";
            // Partial pivoting: |L| <= 1; complex LAPACK picks pivots by |re| + |im|, which
            // bounds the modulus by sqrt(2) instead.
            const double bound = tenferro::is_complex(d) ? std::sqrt(2.0) : 1.0;
            for (std::int64_t i = j + 1; i < s.m; ++i) {
              EXPECT_LE(std::abs(lm.at(b, i, j)), bound * (1 + tol(d, 1))) << "partial pivoting";
            }
          }
          for (std::int64_t j = 0; j < s.n; ++j)
            for (std::int64_t i = j + 1; i < k; ++i)
              EXPECT_EQ(um.at(b, i, j), cd(0)) << "U is upper";
        }
      }
}

TEST(LinalgLu, SingularMatrixIsNotAnError) {
  auto rt = tenferro::EagerRuntime::cpu();
  const EagerTensor a = rt->upload(Tensor::from_col_major<double>({2, 2}, {1, 2, 2, 4}));
  const la::LuResult r = la::lu(a);
  expect_close(multiply(matrices(r.p), multiply(matrices(r.l), matrices(r.u))), matrices(a),
               tol(DType::F64, 2), 0, "A = P L U");
}

// det by cofactor (Laplace) expansion along the first row: exact in exact arithmetic and
// independent of any factorisation, affordable for the small n tested here (n! terms).
cd cofactor_det(const Mats& a, std::int64_t b, const std::vector<std::int64_t>& rows,
                const std::vector<std::int64_t>& cols) {
  if (rows.empty()) return 1;
  if (rows.size() == 1) return a.at(b, rows[0], cols[0]);
  const std::vector<std::int64_t> minor_rows(rows.begin() + 1, rows.end());
  cd sum = 0;
  double sign = 1;
  for (std::size_t k = 0; k < cols.size(); ++k, sign = -sign) {
    std::vector<std::int64_t> minor_cols(cols);
    minor_cols.erase(minor_cols.begin() + static_cast<std::ptrdiff_t>(k));
    sum += sign * a.at(b, rows[0], cols[k]) * cofactor_det(a, b, minor_rows, minor_cols);
  }
  return sum;
}

TEST(LinalgDet, MatchesTheCofactorExpansion) {
  auto rt = tenferro::EagerRuntime::cpu();
  std::uint32_t seed = 70;
  std::vector<std::int64_t> sizes = square_sizes();
  sizes.push_back(7);  // deep enough for pivoting to matter
  for (DType d : tenferro::kAllDTypes)
    for (const Shape& batch : batch_shapes())
      for (std::int64_t n : sizes) {
        SCOPED_TRACE(case_name(d, batch, n, n));
        const EagerTensor a = rt->upload(random_tensor(d, with_batch({n, n}, batch), seed++));
        const EagerTensor det = la::det(a);
        const la::SlogdetResult sl = la::slogdet(a);
        EXPECT_EQ(det.shape(), batch);
        EXPECT_EQ(det.dtype(), d);
        EXPECT_EQ(sl.sign.dtype(), d);
        EXPECT_EQ(sl.logabsdet.dtype(), tenferro::real_dtype(d));
        const Mats am = matrices(a);
        std::vector<std::int64_t> all(static_cast<std::size_t>(n));
        for (std::int64_t i = 0; i < n; ++i) all[static_cast<std::size_t>(i)] = i;
        const std::vector<cd> dv = scalars(det), sv = scalars(sl.sign), lv = scalars(sl.logabsdet);
        for (std::int64_t b = 0; b < am.batch; ++b) {
          const cd want = cofactor_det(am, b, all, all);
          // Rounding scales with the size of the terms, not of their (cancelling) sum.
          double scale = 1;
          for (std::int64_t j = 0; j < n; ++j) {
            double column = 0;
            for (std::int64_t i = 0; i < n; ++i) column += std::norm(am.at(b, i, j));
            scale *= std::max(1.0, std::sqrt(column));
          }
          EXPECT_LE(std::abs(dv[b] - want), tol(d, n) * scale) << "det, batch entry " << b;
          EXPECT_NEAR(std::abs(sv[b]), 1.0, tol(d, n)) << "|sign| = 1";
          EXPECT_LE(std::abs(sv[b] * std::exp(lv[b].real()) - want), tol(d, n) * scale)
              << "slogdet";
        }
      }
}

TEST(LinalgDet, ClosedForms) {
  auto rt = tenferro::EagerRuntime::cpu();
  // A rotation by 30 degrees scaled by 3 (det 9), and a permutation with one swap (det -1).
  const double c = 3 * std::cos(0.5235987755982988), s3 = 3 * std::sin(0.5235987755982988);
  const EagerTensor a =
      rt->upload(Tensor::from_col_major<double>({2, 2, 2}, {c, s3, -s3, c, 0, 1, 1, 0}));
  const std::vector<cd> dv = scalars(la::det(a));
  EXPECT_NEAR(dv[0].real(), 9.0, 1e-14);
  EXPECT_EQ(dv[1], cd(-1));
  // A complex diagonal: the product of its entries.
  const EagerTensor z = rt->upload(
      Tensor::from_col_major<std::complex<double>>({2, 2}, {{1, 2}, {0, 0}, {0, 0}, {3, -1}}));
  const cd dz = scalars(la::det(z))[0];
  EXPECT_NEAR(std::abs(dz - cd(1, 2) * cd(3, -1)), 0.0, 1e-14);
}

TEST(LinalgDet, EmptyAndSingular) {
  auto rt = tenferro::EagerRuntime::cpu();
  EXPECT_EQ(scalars(la::det(rt->upload(Tensor::zeros(DType::F64, {0, 0, 2})))),
            (std::vector<cd>{1, 1}));
  const EagerTensor singular = rt->upload(Tensor::from_col_major<double>({2, 2}, {1, 2, 2, 4}));
  EXPECT_EQ(scalars(la::det(singular))[0], cd(0));
  const la::SlogdetResult sl = la::slogdet(singular);
  EXPECT_EQ(scalars(sl.sign)[0], cd(0));
  EXPECT_EQ(scalars(sl.logabsdet)[0].real(), -std::numeric_limits<double>::infinity());
}

TEST(LinalgSlogdet, HugeDeterminantStaysFinite) {
  auto rt = tenferro::EagerRuntime::cpu();
  // diag(1e30, ..., 1e30) of size 20: det overflows double, logabsdet does not.
  std::vector<cd> values(400, cd(0));
  for (int i = 0; i < 20; ++i) values[i * 21] = (i == 3) ? cd(-1e30) : cd(1e30);
  const la::SlogdetResult r = la::slogdet(rt->upload(tensor_from(DType::F64, {20, 20}, values)));
  EXPECT_EQ(scalars(r.sign)[0], cd(-1));
  EXPECT_NEAR(scalars(r.logabsdet)[0].real(), 20 * std::log(1e30), 1e-10 * 20 * std::log(1e30));
}

}  // namespace
