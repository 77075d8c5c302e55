// lstsq: tall systems satisfy the normal equations A^H (A X - B) = 0, wide systems give the
// minimum-norm (pseudo-inverse) solution, and rank-deficient A gives NumPy's answer: the
// minimum-norm least-squares solution with singular values <= rcond * s_max cut. The
// rank-deficient references are built from known factors A = U diag(s) V^H, so the
// pseudo-inverse solution V diag(1/s) U^H b is known without any solver.
#include "constructed_matrices.hpp"
#include "linalg_test_util.hpp"

namespace {

using namespace linalg_test;
namespace la = tenferro::linalg;

TEST(LinalgLstsq, TallSquareAndWide) {
  auto rt = tenferro::EagerRuntime::cpu();
  std::uint32_t seed = 1;
  for (DType d : tenferro::kAllDTypes)
    for (const Shape& batch : batch_shapes())
      for (const Size& s : matrix_sizes())
        for (std::int64_t k : {-1, 2}) {
          SCOPED_TRACE(case_name(d, batch, s.m, s.n) + " rhs " + std::to_string(k));
          const EagerTensor a = rt->upload(random_tensor(d, with_batch({s.m, s.n}, batch), seed++));
          const EagerTensor b = rt->upload(random_tensor(
              d, k < 0 ? with_batch({s.m}, batch) : with_batch({s.m, k}, batch), seed++));
          const la::LstsqResult r = la::lstsq_with_rank(a, b);
          const EagerTensor& x = r.x;
          EXPECT_EQ(x.shape(), k < 0 ? with_batch({s.n}, batch) : with_batch({s.n, k}, batch));
          EXPECT_EQ(r.rank.shape(), batch);
          EXPECT_EQ(r.s.shape(), with_batch({std::min(s.m, s.n)}, batch));
          // A random matrix has full rank (with probability 1, and well inside the cutoff).
          for (const cd& rank : scalars(r.rank))
            EXPECT_EQ(rank.real(), static_cast<double>(std::min(s.m, s.n)));
          const Mats am = matrices(a), xm = k < 0 ? vectors(x) : matrices(x),
                     bm = k < 0 ? vectors(b) : matrices(b);
          const double t = tol(d, std::max(s.m, s.n));
          for (std::int64_t bb = 0; bb < am.batch; ++bb) {
            // Backward-stable bound: |A^H (A X - B)| <~ eps |A| (|A| |X| + |B|).
            const double scale = norm(am, bb) * (norm(am, bb) * norm(xm, bb) + norm(bm, bb));
            const Mats normal = multiply(adjoint(am), subtract(multiply(am, xm), bm));
            EXPECT_LE(norm(normal, bb), t * (scale + 1)) << "A^H (A X - B) = 0, batch entry " << bb;
          }
          // The singular values are A's (the SVD's, computed by another driver).
          const Mats sv = vectors(la::svd(a).s), got_sv = vectors(r.s);
          expect_close(got_sv, sv, t, norm(am, 0), "singular values");
          if (s.m < s.n) {
            // Minimum norm: X is the pseudo-inverse solution V S^-1 U^H B, which the SVD gives
            // with a forward error ~ cond(A) eps |X|.
            const la::SvdResult f = la::svd(a);
            const Mats um = matrices(f.u), sm = vectors(f.s), vm = matrices(f.vh);
            Mats uhb = multiply(adjoint(um), bm);
            for (std::int64_t bb = 0; bb < uhb.batch; ++bb) {
              for (std::int64_t i = 0; i < uhb.rows; ++i)
                for (std::int64_t j = 0; j < uhb.cols; ++j) uhb.at(bb, i, j) /= sm.at(bb, i, 0);
            }
            const Mats pinv_x = multiply(adjoint(vm), uhb);
            for (std::int64_t bb = 0; bb < am.batch && sm.rows > 0; ++bb) {
              const double cond = sm.at(bb, 0, 0).real() / sm.at(bb, sm.rows - 1, 0).real();
              EXPECT_LE(diff_norm(xm, pinv_x, bb), t * cond * (norm(xm, bb) + 1))
                  << "minimum norm, batch entry " << bb;
            }
          }
        }
}

// The example: NumPy returns x = [-0.1, 0, 0.1] (rank 2, |A x - b| = sqrt(0.8)); the
// QR-based gels returned entries of 1e15. Worked by hand: range(A) = span{(1,2,0), (0,0,1)},
// so A x is b's projection (1/5, 2/5, 0), and the minimum-norm x lies in A's row space.
TEST(LinalgLstsq, RankDeficientExampleMatchesNumPy) {
  auto rt = tenferro::EagerRuntime::cpu();
  // Columns of A = [[1,2,3],[2,4,6],[1,1,1]].
  const std::vector<cd> a_values{1, 2, 1, 2, 4, 1, 3, 6, 1};
  for (DType d : tenferro::kAllDTypes) {
    SCOPED_TRACE(tenferro::dtype_name(d));
    const EagerTensor a = rt->upload(tensor_from(d, {3, 3}, a_values));
    const EagerTensor b = rt->upload(tensor_from(d, {3}, {1, 0, 0}));
    const la::LstsqResult r = la::lstsq_with_rank(a, b);
    const Mats x = vectors(r.x);
    const Mats want{3, 1, 1, {-0.1, 0, 0.1}};
    expect_close(x, want, tol(d, 3), 1, "x");
    EXPECT_EQ(scalars(r.rank).at(0).real(), 2);
    const Mats residual = subtract(multiply(matrices(a), x), vectors(b));
    EXPECT_NEAR(norm(residual, 0), std::sqrt(0.8), tol(d, 3));
  }
}

// A = U diag(s) V^H with r < min(m, n) nonzero singular values (batched, every dtype, vector
// and matrix right-hand sides): X = V diag(1/s) U^H B, rank r, and A's singular values.
TEST(LinalgLstsq, ConstructedRankDeficientGivesThePseudoInverseSolution) {
  struct Case {
    std::int64_t m, n;
    std::vector<double> s;  // the nonzero singular values; rank = s.size()
  };
  const std::vector<Case> cases{
      {7, 5, {2.0, 1.0, 0.5}}, {5, 7, {3.0, 0.75}}, {6, 6, {1.5, 1.0, 0.8, 0.4}}, {3, 4, {}}};
  auto rt = tenferro::EagerRuntime::cpu();
  std::mt19937 gen(7);
  for (DType d : tenferro::kAllDTypes)
    for (const Shape& batch : {Shape{}, Shape{3}, Shape{2, 2}, Shape{0}})
      for (const Case& c : cases)
        for (std::int64_t k : {-1, 2}) {
          SCOPED_TRACE(case_name(d, batch, c.m, c.n) + " rank " + std::to_string(c.s.size()) +
                       " rhs " + std::to_string(k));
          const std::int64_t nb = product(batch, 0), r = static_cast<std::int64_t>(c.s.size());
          const bool complex = tenferro::is_complex(d);
          const Mats u = orthonormal(c.m, r, nb, complex, gen);
          const Mats v = orthonormal(c.n, r, nb, complex, gen);
          // The exact A, rounded to the dtype; the reference uses the same rounded B.
          const Mats a_exact = multiply(scale_columns(u, c.s), adjoint(v));
          const EagerTensor a =
              rt->upload(tensor_from(d, with_batch({c.m, c.n}, batch), a_exact.data));
          const EagerTensor b = rt->upload(random_tensor(
              d, k < 0 ? with_batch({c.m}, batch) : with_batch({c.m, k}, batch), gen()));
          const Mats bm = k < 0 ? vectors(b) : matrices(b);

          const la::LstsqResult got = la::lstsq_with_rank(a, b);
          ASSERT_EQ(got.x.shape(), k < 0 ? with_batch({c.n}, batch) : with_batch({c.n, k}, batch));
          std::vector<double> inverse;
          for (double s : c.s) inverse.push_back(1 / s);
          const Mats want = multiply(scale_columns(v, inverse), multiply(adjoint(u), bm));
          const Mats xm = k < 0 ? vectors(got.x) : matrices(got.x);
          // Forward error of the cut pseudo-inverse: ~ eps cond^2 (|X| + |B| / s_min).
          const double s_max = r ? c.s.front() : 1, s_min = r ? c.s.back() : 1;
          const double cond = s_max / s_min, t = tol(d, std::max(c.m, c.n));
          for (std::int64_t bb = 0; bb < nb; ++bb) {
            EXPECT_LE(diff_norm(xm, want, bb),
                      t * cond * cond * (norm(want, bb) + norm(bm, bb) / s_min))
                << "pseudo-inverse solution, batch entry " << bb;
          }
          for (const cd& rank : scalars(got.rank)) EXPECT_EQ(rank.real(), static_cast<double>(r));
          const Mats sv = vectors(got.s);
          ASSERT_EQ(sv.rows, std::min(c.m, c.n));
          for (std::int64_t bb = 0; bb < nb; ++bb)
            for (std::int64_t i = 0; i < sv.rows; ++i) {
              const double want_s = i < r ? c.s[static_cast<std::size_t>(i)] : 0.0;
              EXPECT_NEAR(sv.at(bb, i, 0).real(), want_s, t * s_max) << "s_" << i;
            }
        }
}

// rcond cuts a singular value that the default keeps: s = {2, 1, 0.5, 1e-4} is full rank for
// the default cutoff (eps * max(m, n)) but rank 3 for rcond = 1e-3, and X drops the 1e-4 term.
TEST(LinalgLstsq, RcondCutsSmallSingularValues) {
  auto rt = tenferro::EagerRuntime::cpu();
  std::mt19937 gen(11);
  const std::vector<double> s{2.0, 1.0, 0.5, 1e-4};
  for (DType d : tenferro::kAllDTypes) {
    SCOPED_TRACE(tenferro::dtype_name(d));
    const bool complex = tenferro::is_complex(d);
    const Mats u = orthonormal(6, 4, 2, complex, gen), v = orthonormal(4, 4, 2, complex, gen);
    const Mats a_exact = multiply(scale_columns(u, s), adjoint(v));
    const EagerTensor a = rt->upload(tensor_from(d, {6, 4, 2}, a_exact.data));
    const EagerTensor b = rt->upload(random_tensor(d, {6, 2}, gen()));
    for (const cd& rank : scalars(la::lstsq_with_rank(a, b).rank)) EXPECT_EQ(rank.real(), 4);

    const la::LstsqResult cut = la::lstsq_with_rank(a, b, {.rcond = 1e-3});
    for (const cd& rank : scalars(cut.rank)) EXPECT_EQ(rank.real(), 3);
    const Mats want =
        multiply(scale_columns(v, {0.5, 1.0, 2.0, 0.0}), multiply(adjoint(u), vectors(b)));
    // cond of the kept part is 4; not cutting would add a term of size ~ 1e4.
    expect_close(vectors(cut.x), want, 100 * tol(d, 6), norm(want, 0) + norm(vectors(b), 0),
                 "x with rcond 1e-3");
  }
}

TEST(LinalgLstsq, RcondMustLieBetweenZeroAndOne) {
  auto rt = tenferro::EagerRuntime::cpu();
  const EagerTensor a = rt->upload(random_tensor(DType::F64, {3, 2}, 1));
  const EagerTensor b = rt->upload(random_tensor(DType::F64, {3}, 2));
  // gelsd would replace each of these by eps without saying so.
  for (double rcond : {-1.0, 0.0, 1.0, 2.0, std::numeric_limits<double>::quiet_NaN(),
                       std::numeric_limits<double>::infinity()}) {
    const tenferro::Error e =
        expect_error([&] { la::lstsq(a, b, {.rcond = rcond}); }, tenferro::ErrorKind::Validation);
    EXPECT_NE(std::string(e.what()).find("rcond"), std::string::npos) << e.what();
  }
}

}  // namespace
