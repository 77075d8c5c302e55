// Distributed linear algebra against independent checks on the root: products against a naive
// product, factorisations by reconstruction and orthogonality, eigenvalues against the
// single-node eigh; every dtype, non-square and non-divisible sizes, several blocks and
// grids. Singular and non-positive-definite inputs are the same Numerical error everywhere.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "dist_context.hpp"
#include "linalg_checks.hpp"
#include "tenferro/linalg.hpp"

namespace tenferro::dist {
namespace {

using testing::at;
using testing::Config;
using testing::configs;
using testing::context;
using testing::Dense;
using testing::dense;
using testing::identity;
using testing::kDtypes;
using testing::product;
using testing::rel_diff;
using testing::spread;
using cd = std::complex<double>;

// Hermitian positive definite: M^H M + n I, in `dtype`.
Tensor hpd(DType dtype, std::int64_t n, std::uint64_t seed) {
  const Dense m = dense(testing::random_matrix(dtype, n, n, seed));
  Dense a = product(m, m, /*conj_a=*/true);
  for (std::int64_t i = 0; i < n; ++i) a(i, i) += static_cast<double>(n);
  Tensor t = testing::random_matrix(dtype, n, n, 0);
  for (std::int64_t j = 0; j < n; ++j)
    for (std::int64_t i = 0; i < n; ++i) {
      const std::int64_t k = j * n + i;
      switch (dtype) {
        case DType::F32:
          t.data<float>()[k] = static_cast<float>(a(i, j).real());
          break;
        case DType::F64:
          t.data<double>()[k] = a(i, j).real();
          break;
        case DType::C32:
          t.data<std::complex<float>>()[k] = std::complex<float>(a(i, j));
          break;
        case DType::C64:
          t.data<cd>()[k] = a(i, j);
          break;
      }
    }
  return t;
}

TEST(DistLinalg, MatmulMatchesTheNaiveProduct) {
  const auto& ctx = context();
  for (DType dtype : kDtypes)
    for (const Config& s : configs(ctx->size())) {
      const Tensor a = testing::random_matrix(dtype, 9, 7, 1),
                   b = testing::random_matrix(dtype, 7, 11, 2);
      const Tensor c = gather(matmul(spread(a, s), spread(b, s)));
      if (ctx->is_root()) {
        EXPECT_LT(rel_diff(dense(c), product(dense(a), dense(b))), testing::tolerance(dtype))
            << dtype_name(dtype) << " block " << s.block;
      }
    }
}

TEST(DistLinalg, CholeskyReconstructsAndIsLower) {
  const auto& ctx = context();
  for (DType dtype : kDtypes)
    for (const Config& s : configs(ctx->size())) {
      const std::int64_t n = 11;
      const Tensor a = hpd(dtype, n, 3);
      const Tensor l = gather(cholesky(spread(a, s)));
      if (!ctx->is_root()) continue;
      const Dense ld = dense(l);
      for (std::int64_t j = 0; j < n; ++j)
        for (std::int64_t i = 0; i < j; ++i) EXPECT_EQ(ld(i, j), cd(0)) << i << "," << j;
      // L L^H = A, i.e. (L^H)^H L^H
      Dense lh{n, n, std::vector<cd>(static_cast<std::size_t>(n * n))};
      for (std::int64_t j = 0; j < n; ++j)
        for (std::int64_t i = 0; i < n; ++i) lh(i, j) = std::conj(ld(j, i));
      EXPECT_LT(rel_diff(product(lh, lh, true), dense(a)), testing::tolerance(dtype))
          << dtype_name(dtype) << " block " << s.block;
    }
}

TEST(DistLinalg, SolveSatisfiesTheSystem) {
  const auto& ctx = context();
  for (DType dtype : kDtypes)
    for (const Config& s : configs(ctx->size())) {
      const Tensor a = hpd(dtype, 10, 4), b = testing::random_matrix(dtype, 10, 3, 5);
      const Tensor x = gather(solve(spread(a, s), spread(b, s)));
      if (ctx->is_root()) {
        EXPECT_LT(rel_diff(product(dense(a), dense(x)), dense(b)), testing::tolerance(dtype))
            << dtype_name(dtype) << " block " << s.block;
      }
    }
}

// The solvers this build has: ScaLAPACK always, ELPA with TENFERRO_WITH_ELPA.
std::vector<EighOptions> eigh_solvers() {
  std::vector<EighOptions> s{{EighSolver::ScaLapack}};
  if (elpa_available()) s.push_back({EighSolver::Elpa});
  return s;
}

// A with its strict upper triangle overwritten: eigh reads only the lower one.
Tensor garbage_above(Tensor a) {
  const std::int64_t n = a.shape()[0];
  const Tensor noise = testing::random_matrix(a.dtype(), n, n, 99);
  const std::size_t es = dtype_size(a.dtype());
  for (std::int64_t j = 0; j < n; ++j)
    for (std::int64_t i = 0; i < j; ++i) {
      const auto k = static_cast<std::size_t>(j * n + i) * es;
      std::memcpy(a.raw_data() + k, noise.raw_data() + k, es);
    }
  return a;
}

TEST(DistLinalg, EighMatchesTheSingleNodeEigenvaluesAndReconstructs) {
  const auto& ctx = context();
  auto rt = EagerRuntime::cpu();
  for (const EighOptions& solver : eigh_solvers())
    for (DType dtype : kDtypes)
      for (const Config& s : configs(ctx->size())) {
        // ELPA's limits (single precision, a block on every process) are tested below.
        const std::int64_t blocks = (13 + s.block - 1) / s.block;
        const int grid_side = s.grid.rows > 0 ? std::max(s.grid.rows, s.grid.cols) : ctx->size();
        if (solver.solver == EighSolver::Elpa && (!is_double(dtype) || blocks < grid_side)) {
          continue;
        }
        const std::int64_t n = 13;
        const Tensor a = hpd(dtype, n, 6);
        auto [w, z] = eigh(spread(garbage_above(a.clone()), s), solver);
        const Tensor zg = gather(z);
        ASSERT_EQ(w.shape(), (Shape{n}));
        const Tensor w1 = linalg::eigh(rt->upload(a)).w.download();
        const std::string what = std::string(dtype_name(dtype)) + " block " +
                                 std::to_string(s.block) +
                                 (solver.solver == EighSolver::Elpa ? " ELPA" : " ScaLAPACK");
        for (std::int64_t i = 0; i < n; ++i) {
          EXPECT_NEAR(at(w.reshape({n, 1}), i, 0).real(), at(w1.reshape({n, 1}), i, 0).real(),
                      testing::tolerance(dtype) * 4 * static_cast<double>(n))
              << what << " eigenvalue " << i;
        }
        if (!ctx->is_root()) continue;
        const Dense zd = dense(zg);
        EXPECT_LT(rel_diff(product(zd, zd, true), identity(n)), testing::tolerance(dtype)) << what;
        Dense zw = zd;
        for (std::int64_t j = 0; j < n; ++j)
          for (std::int64_t i = 0; i < n; ++i) zw(i, j) *= at(w.reshape({n, 1}), j, 0).real();
        EXPECT_LT(rel_diff(product(dense(a), zd), zw), testing::tolerance(dtype)) << what;
      }
}

template <typename F>
bool unsupported_everywhere(F&& call) {
  bool unsupported = false;
  try {
    call();
  } catch (const Error& e) {
    unsupported = e.kind() == ErrorKind::Unsupported;
  }
  return testing::on_every_rank(unsupported);
}

TEST(DistLinalg, ElpaTakesDoublePrecisionWhenBuiltAndIsRefusedOtherwise) {
  const Matrix m = spread(hpd(DType::F64, 6, 7), {2, {}});
  const Matrix single = spread(hpd(DType::F32, 6, 7), {2, {}});
  if (elpa_available()) {
    // Auto picks ELPA: its eigenvalues agree with ScaLAPACK's to rounding.
    const Tensor w_auto = eigh(m).first, w_scalapack = eigh(m, {EighSolver::ScaLapack}).first;
    for (std::int64_t i = 0; i < 6; ++i)
      EXPECT_NEAR(w_auto.data<double>()[i], w_scalapack.data<double>()[i], 1e-10);
    // Single precision, or a process without a block: Auto takes ScaLAPACK by rule, an
    // explicit ELPA is refused before any work.
    EXPECT_EQ(eigh(single).first.shape(), (Shape{6}));
    EXPECT_TRUE(unsupported_everywhere([&] { (void)eigh(single, {EighSolver::Elpa}); }));
    if (context()->size() > 1) {
      const Matrix one_block = spread(hpd(DType::F64, 6, 7), {64, {}});
      EXPECT_EQ(eigh(one_block).first.shape(), (Shape{6}));
      EXPECT_TRUE(unsupported_everywhere([&] { (void)eigh(one_block, {EighSolver::Elpa}); }));
    }
    return;
  }
  EXPECT_TRUE(unsupported_everywhere([&] { (void)eigh(m, {EighSolver::Elpa}); }));
}

TEST(DistLinalg, QrReconstructsWithOrthonormalQAndUpperR) {
  const auto& ctx = context();
  for (DType dtype : kDtypes)
    for (const Config& s : configs(ctx->size()))
      for (auto [m, n] :
           std::vector<std::pair<std::int64_t, std::int64_t>>{{12, 5}, {5, 9}, {7, 7}}) {
        const Tensor a = testing::random_matrix(dtype, m, n, 7);
        auto [q, r] = qr(spread(a, s));
        const Tensor qg = gather(q), rg = gather(r);
        if (!ctx->is_root()) continue;
        const std::int64_t k = std::min(m, n);
        ASSERT_EQ(qg.shape(), (Shape{m, k}));
        ASSERT_EQ(rg.shape(), (Shape{k, n}));
        const Dense qd = dense(qg), rd = dense(rg);
        for (std::int64_t j = 0; j < n; ++j)
          for (std::int64_t i = j + 1; i < k; ++i) EXPECT_EQ(rd(i, j), cd(0));
        EXPECT_LT(rel_diff(product(qd, qd, true), identity(k)), testing::tolerance(dtype));
        EXPECT_LT(rel_diff(product(qd, rd), dense(a)), testing::tolerance(dtype))
            << dtype_name(dtype) << " " << m << "x" << n << " block " << s.block;
      }
}

TEST(DistLinalg, SvdReconstructsAndMatchesTheSingleNodeValues) {
  const auto& ctx = context();
  auto rt = EagerRuntime::cpu();
  for (DType dtype : kDtypes)
    for (const Config& s : configs(ctx->size()))
      for (auto [m, n] :
           std::vector<std::pair<std::int64_t, std::int64_t>>{{12, 5}, {5, 9}, {7, 7}}) {
        const Tensor a = testing::random_matrix(dtype, m, n, 17);
        SvdResult r = svd(spread(a, s));
        const Tensor ug = gather(r.u), vg = gather(r.vh);
        const std::int64_t k = std::min(m, n);
        ASSERT_EQ(r.s.shape(), (Shape{k}));
        const Tensor s1 = linalg::svd(rt->upload(a)).s.download();
        for (std::int64_t i = 0; i < k; ++i) {
          EXPECT_NEAR(at(r.s.reshape({k, 1}), i, 0).real(), at(s1.reshape({k, 1}), i, 0).real(),
                      testing::tolerance(dtype) * 10)
              << dtype_name(dtype) << " singular value " << i;
        }
        if (!ctx->is_root()) continue;
        ASSERT_EQ(ug.shape(), (Shape{m, k}));
        ASSERT_EQ(vg.shape(), (Shape{k, n}));
        const Dense ud = dense(ug);
        Dense us = ud;
        for (std::int64_t j = 0; j < k; ++j)
          for (std::int64_t i = 0; i < m; ++i) us(i, j) *= at(r.s.reshape({k, 1}), j, 0).real();
        EXPECT_LT(rel_diff(product(ud, ud, true), identity(k)), testing::tolerance(dtype));
        EXPECT_LT(rel_diff(product(us, dense(vg)), dense(a)), testing::tolerance(dtype))
            << dtype_name(dtype) << " " << m << "x" << n << " block " << s.block;
      }
}

template <typename F>
bool numerical_everywhere(F&& call) {
  bool numerical = false;
  try {
    call();
  } catch (const Error& e) {
    numerical = e.kind() == ErrorKind::Numerical;
  }
  return testing::on_every_rank(numerical);
}

TEST(DistLinalg, FailuresAreTheSameNumericalErrorOnEveryRank) {
  const auto& ctx = context();
  for (DType dtype : kDtypes) {
    const Config s{2, {}};
    Tensor indefinite = hpd(dtype, 6, 8);
    // A negative pivot half way: not positive definite.
    Tensor neg = Tensor::zeros(dtype, {6, 6});
    for (std::int64_t i = 0; i < 6; ++i) {
      const double v = i == 3 ? -1.0 : 1.0;
      switch (dtype) {
        case DType::F32:
          neg.data<float>()[i * 7] = static_cast<float>(v);
          break;
        case DType::F64:
          neg.data<double>()[i * 7] = v;
          break;
        case DType::C32:
          neg.data<std::complex<float>>()[i * 7] = static_cast<float>(v);
          break;
        case DType::C64:
          neg.data<cd>()[i * 7] = v;
          break;
      }
    }
    EXPECT_TRUE(numerical_everywhere([&] { (void)cholesky(spread(neg, s)); })) << dtype_name(dtype);
    const Tensor singular = Tensor::zeros(dtype, {6, 6});
    const Tensor b = testing::random_matrix(dtype, 6, 2, 9);
    EXPECT_TRUE(numerical_everywhere([&] { (void)solve(spread(singular, s), spread(b, s)); }))
        << dtype_name(dtype);
    // Still usable afterwards.
    EXPECT_EQ(gather(cholesky(spread(indefinite, s))).shape(),
              ctx->is_root() ? (Shape{6, 6}) : (Shape{0, 0}));
  }
}

}  // namespace
}  // namespace tenferro::dist
