// Distributed LU and the SVD's options against the single-node library on the root: LU's
// permutation, L and U by reconstruction, the partial-pivoting bound and the single-node
// pivots; the SVD's rank rule, discarded weight and canonical gauge entry by entry against
// linalg::svd with the same options; values only; bad options and blocks as Validation errors
// on every rank.
#include <gtest/gtest.h>

#include <mpi.h>

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
using testing::cd;
using testing::Config;
using testing::configs;
using testing::context;
using testing::Dense;
using testing::dense;
using testing::kDtypes;
using testing::product;
using testing::rel_diff;
using testing::spread;
using Sizes = std::vector<std::pair<std::int64_t, std::int64_t>>;

const Sizes kSizes{{12, 5}, {5, 9}, {7, 7}};

// A[perm, :] as a dense matrix.
Dense permuted_rows(const Dense& a, const std::vector<std::int64_t>& perm) {
  Dense p = a;
  for (std::int64_t i = 0; i < a.rows; ++i)
    for (std::int64_t j = 0; j < a.cols; ++j) p(i, j) = a(perm[static_cast<std::size_t>(i)], j);
  return p;
}

TEST(DistLu, ReconstructsWithPartialPivotingAndTheSingleNodePivots) {
  const auto& ctx = context();
  auto rt = EagerRuntime::cpu();
  for (DType dtype : kDtypes)
    for (const Config& s : configs(ctx->size()))
      for (auto [m, n] : kSizes) {
        const Tensor a = testing::random_matrix(dtype, m, n, 21);
        LuResult r = lu(spread(a, s));
        const Tensor l = gather(r.l), u = gather(r.u);
        const std::int64_t k = std::min(m, n);
        ASSERT_EQ(r.perm.size(), static_cast<std::size_t>(m));
        // The same permutation on every rank.
        std::vector<std::int64_t> root_perm = r.perm;
        MPI_Bcast(root_perm.data(), static_cast<int>(m), MPI_INT64_T, 0, MPI_COMM_WORLD);
        EXPECT_TRUE(testing::on_every_rank(root_perm == r.perm));
        if (!ctx->is_root()) continue;
        ASSERT_EQ(l.shape(), (Shape{m, k}));
        ASSERT_EQ(u.shape(), (Shape{k, n}));
        const Dense ld = dense(l), ud = dense(u);
        for (std::int64_t j = 0; j < k; ++j) {
          EXPECT_EQ(ld(j, j), cd(1));
          for (std::int64_t i = 0; i < j; ++i) EXPECT_EQ(ld(i, j), cd(0));
          // Partial pivoting: every multiplier is at most 1 in modulus for real entries;
          // complex pivots are chosen by |re| + |im| (i?amax), which bounds it by sqrt(2).
          const double bound = is_complex(dtype) ? std::sqrt(2.0) : 1.0;
          for (std::int64_t i = j + 1; i < m; ++i) EXPECT_LE(std::abs(ld(i, j)), bound + 1e-6);
        }
        for (std::int64_t j = 0; j < n; ++j)
          for (std::int64_t i = j + 1; i < k; ++i) EXPECT_EQ(ud(i, j), cd(0));
        EXPECT_LT(rel_diff(product(ld, ud), permuted_rows(dense(a), r.perm)),
                  testing::tolerance(dtype))
            << dtype_name(dtype) << " " << m << "x" << n << " block " << s.block;
        // Same pivot rule as LAPACK: P(perm[i], i) = 1 in the single-node P.
        const Tensor p1 = linalg::lu(rt->upload(a)).p.download();
        for (std::int64_t i = 0; i < m; ++i) {
          EXPECT_EQ(at(p1, r.perm[static_cast<std::size_t>(i)], i), cd(1))
              << dtype_name(dtype) << " " << m << "x" << n << " row " << i;
        }
      }
}

TEST(DistLu, ASingularMatrixIsNotAnError) {
  const auto& ctx = context();
  for (DType dtype : kDtypes) {
    // Rank 1: every column is a multiple of the first.
    const Tensor col = testing::random_matrix(dtype, 6, 1, 22);
    Tensor a = Tensor::zeros(dtype, {6, 6});
    for (std::int64_t j = 0; j < 6; ++j)
      std::memcpy(a.raw_data() + j * 6 * dtype_size(dtype), col.raw_data(), col.nbytes());
    LuResult r = lu(spread(a, {2, {}}));
    const Tensor l = gather(r.l), u = gather(r.u);
    if (!ctx->is_root()) continue;
    EXPECT_LT(rel_diff(product(dense(l), dense(u)), permuted_rows(dense(a), r.perm)),
              testing::tolerance(dtype))
        << dtype_name(dtype);
    EXPECT_LT(std::abs(dense(u)(5, 5)), testing::tolerance(dtype)) << dtype_name(dtype);
  }
}

linalg::SvdOptions single_node(const SvdOptions& o) {
  linalg::SvdOptions s;
  s.compute_uv = o.compute_uv;
  s.truncation = o.truncation;
  s.gauge = o.gauge;
  return s;
}

std::vector<SvdOptions> truncations() {
  std::vector<SvdOptions> all(5);
  all[0].truncation.max_rank = 3;
  all[1].truncation.cutoff_kind = linalg::CutoffKind::RelativeSingularValue;
  all[1].truncation.cutoff = 0.4;
  all[2].truncation.cutoff_kind = linalg::CutoffKind::RelativeDiscardedWeight;
  all[2].truncation.cutoff = 0.05;
  all[2].truncation.min_rank = 1;
  all[3].truncation.cutoff_kind = linalg::CutoffKind::AbsoluteSingularValue;
  all[3].truncation.cutoff = 0.5;
  all[3].truncation.max_rank = 2;
  all[4].truncation.max_rank = 0;
  for (SvdOptions& o : all) o.gauge = linalg::SvdGauge::Canonical;
  return all;
}

TEST(DistSvd, TruncationAndCanonicalGaugeMatchTheSingleNodeSvd) {
  const auto& ctx = context();
  auto rt = EagerRuntime::cpu();
  for (DType dtype : kDtypes)
    for (const Config& s : configs(ctx->size()))
      for (auto [m, n] : kSizes)
        for (const SvdOptions& o : truncations()) {
          const Tensor a = testing::random_matrix(dtype, m, n, 23);
          SvdResult r = svd(spread(a, s), o);
          const Tensor ug = gather(r.u), vg = gather(r.vh);
          const auto one = linalg::svd(rt->upload(a), single_node(o));
          const Tensor s1 = one.s.download();
          const std::int64_t rank = s1.shape()[0];
          const std::string what = std::string(dtype_name(dtype)) + " " + std::to_string(m) + "x" +
                                   std::to_string(n) + " block " + std::to_string(s.block);
          ASSERT_EQ(r.s.shape(), (Shape{rank})) << what;
          const double tol = testing::tolerance(dtype) * 10;
          for (std::int64_t i = 0; i < rank; ++i)
            EXPECT_NEAR(at(r.s.reshape({rank, 1}), i, 0).real(),
                        at(s1.reshape({rank, 1}), i, 0).real(), tol)
                << what;
          const double w1 = at(one.discarded_weight.download().reshape({1, 1}), 0, 0).real();
          EXPECT_NEAR(r.discarded_weight, w1, tol * (1 + w1)) << what;
          if (!ctx->is_root()) continue;
          ASSERT_EQ(ug.shape(), (Shape{m, rank})) << what;
          ASSERT_EQ(vg.shape(), (Shape{rank, n})) << what;
          // The canonical gauge makes the factors unique (distinct singular values).
          EXPECT_LT(rel_diff(dense(ug), dense(one.u.download())), tol) << what;
          EXPECT_LT(rel_diff(dense(vg), dense(one.vh.download())), tol) << what;
        }
}

TEST(DistSvd, ValuesOnlyMatchTheFullDecomposition) {
  const auto& ctx = context();
  for (DType dtype : kDtypes)
    for (const Config& s : configs(ctx->size()))
      for (auto [m, n] : kSizes) {
        const Tensor a = testing::random_matrix(dtype, m, n, 24);
        SvdOptions values;
        values.compute_uv = false;
        const SvdResult v = svd(spread(a, s), values);
        const SvdResult full = svd(spread(a, s));
        EXPECT_EQ(v.u.rows() + v.u.cols() + v.vh.rows() + v.vh.cols(), 0);
        const std::int64_t k = std::min(m, n);
        ASSERT_EQ(v.s.shape(), (Shape{k}));
        for (std::int64_t i = 0; i < k; ++i)
          EXPECT_NEAR(at(v.s.reshape({k, 1}), i, 0).real(), at(full.s.reshape({k, 1}), i, 0).real(),
                      testing::tolerance(dtype) * 10)
              << dtype_name(dtype) << " block " << s.block;
      }
}

template <typename F>
bool validation_everywhere(F&& call) {
  bool validation = false;
  try {
    call();
  } catch (const Error& e) {
    validation = e.kind() == ErrorKind::Validation;
  }
  return testing::on_every_rank(validation);
}

TEST(DistSvd, BadOptionsAndNonSquareBlocksAreValidationErrorsEverywhere) {
  const auto& ctx = context();
  const Tensor a = testing::random_matrix(DType::F64, 6, 4, 25);
  const Matrix m = spread(a, {2, {}});
  SvdOptions negative;
  negative.truncation.cutoff_kind = linalg::CutoffKind::AbsoluteSingularValue;
  negative.truncation.cutoff = -1;
  EXPECT_TRUE(validation_everywhere([&] { (void)svd(m, negative); }));
  SvdOptions cutoff_without_kind;
  cutoff_without_kind.truncation.cutoff = 0.1;
  EXPECT_TRUE(validation_everywhere([&] { (void)svd(m, cutoff_without_kind); }));
  const Matrix oblong = scatter(ctx, ctx->is_root() ? a : Tensor(), {2, 3, GridShape{}});
  EXPECT_TRUE(validation_everywhere([&] { (void)svd(oblong); }));
  EXPECT_TRUE(validation_everywhere([&] { (void)lu(oblong); }));
  // Still usable afterwards.
  EXPECT_EQ(svd(m).s.shape(), (Shape{4}));
}

}  // namespace
}  // namespace tenferro::dist
