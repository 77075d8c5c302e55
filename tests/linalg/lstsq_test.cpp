// lstsq: tall systems satisfy the normal equations A^H (A X - B) = 0, wide systems give the
// minimum-norm (pseudo-inverse) solution; rank deficiency is a Numerical error.
#include "linalg_test_util.hpp"

namespace {

using namespace linalg_test;
namespace la = tenferro::linalg;

Mats subtract(Mats a, const Mats& b) {
  for (std::size_t i = 0; i < a.data.size(); ++i) a.data[i] -= b.data[i];
  return a;
}

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
          const EagerTensor x = la::lstsq(a, b);
          EXPECT_EQ(x.shape(), k < 0 ? with_batch({s.n}, batch) : with_batch({s.n, k}, batch));
          const Mats am = matrices(a), xm = k < 0 ? vectors(x) : matrices(x),
                     bm = k < 0 ? vectors(b) : matrices(b);
          const double t = tol(d, std::max(s.m, s.n));
          for (std::int64_t bb = 0; bb < am.batch; ++bb) {
            // Backward-stable bound: |A^H (A X - B)| <~ eps |A| (|A| |X| + |B|).
            const double scale = norm(am, bb) * (norm(am, bb) * norm(xm, bb) + norm(bm, bb));
            const Mats normal = multiply(adjoint(am), subtract(multiply(am, xm), bm));
            EXPECT_LE(norm(normal, bb), t * (scale + 1)) << "A^H (A X - B) = 0, batch entry " << bb;
          }
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

TEST(LinalgLstsq, RankDeficientIsNumerical) {
  auto rt = tenferro::EagerRuntime::cpu();
  // 3x2 with a zero second column in batch entry 1.
  const EagerTensor a =
      rt->upload(Tensor::from_col_major<double>({3, 2, 2}, {1, 2, 3, 0, 1, 1, 1, 2, 3, 0, 0, 0}));
  const EagerTensor b = rt->upload(random_tensor(DType::F64, {3, 2}, 5));
  const tenferro::Error e = expect_error([&] { la::lstsq(a, b); }, tenferro::ErrorKind::Numerical);
  EXPECT_NE(std::string(e.what()).find("batch entry 1"), std::string::npos) << e.what();
  EXPECT_NE(std::string(e.what()).find("full rank"), std::string::npos) << e.what();
}

}  // namespace
