// solve (vector and matrix right-hand sides) and inv, checked by residuals; singular inputs are
// Numerical errors naming the batch entry.
#include "linalg_test_util.hpp"

namespace {

using namespace linalg_test;
namespace la = tenferro::linalg;

// Random A + 2n I: well conditioned, so the residual bound is the backward error.
Tensor well_conditioned(DType d, const Shape& shape, std::uint32_t seed) {
  const std::int64_t n = shape[0];
  Mats a{n, n, product(shape, 2), widen(random_tensor(d, shape, seed))};
  for (std::int64_t b = 0; b < a.batch; ++b)
    for (std::int64_t i = 0; i < n; ++i) a.at(b, i, i) += 2.0 * static_cast<double>(n);
  return tensor_from(d, shape, a.data);
}

TEST(LinalgSolve, MatrixAndVectorRightHandSides) {
  auto rt = tenferro::EagerRuntime::cpu();
  std::uint32_t seed = 1;
  for (DType d : tenferro::kAllDTypes)
    for (const Shape& batch : batch_shapes())
      for (std::int64_t n : square_sizes())
        for (std::int64_t k : {-1, 0, 1, 3}) {  // -1: a vector right-hand side
          SCOPED_TRACE(case_name(d, batch, n, n) + " rhs " + std::to_string(k));
          const EagerTensor a = rt->upload(well_conditioned(d, with_batch({n, n}, batch), seed++));
          const Shape b_shape = k < 0 ? with_batch({n}, batch) : with_batch({n, k}, batch);
          const EagerTensor b = rt->upload(random_tensor(d, b_shape, seed++));
          const EagerTensor x = la::solve(a, b);
          EXPECT_EQ(x.shape(), b_shape);
          const Mats am = matrices(a);
          const Mats xm = k < 0 ? vectors(x) : matrices(x);
          const Mats bm = k < 0 ? vectors(b) : matrices(b);
          expect_close(multiply(am, xm), bm, tol(d, n), norm(am, 0), "A X = B");
        }
}

TEST(LinalgInv, TimesAIsIdentity) {
  auto rt = tenferro::EagerRuntime::cpu();
  std::uint32_t seed = 40;
  for (DType d : tenferro::kAllDTypes)
    for (const Shape& batch : batch_shapes())
      for (std::int64_t n : square_sizes()) {
        SCOPED_TRACE(case_name(d, batch, n, n));
        const EagerTensor a = rt->upload(well_conditioned(d, with_batch({n, n}, batch), seed++));
        const EagerTensor ai = la::inv(a);
        EXPECT_EQ(ai.shape(), a.shape());
        expect_close(multiply(matrices(a), matrices(ai)), identity(n, product(a.shape(), 2)),
                     tol(d, n), 1, "A inv(A) = I");
      }
}

TEST(LinalgSolve, SingularMatrixNamesTheBatchEntry) {
  auto rt = tenferro::EagerRuntime::cpu();
  // Batch [2, 2]: entry 3 (index [1, 1]) is the zero matrix.
  std::vector<double> values(4 * 4, 0);
  for (int b = 0; b < 3; ++b) values[b * 4] = values[b * 4 + 3] = 1;
  const EagerTensor a =
      rt->upload(Tensor::from_col_major<double>({2, 2, 2, 2}, std::span<const double>(values)));
  const EagerTensor b = rt->upload(random_tensor(DType::F64, {2, 2, 2}, 3));
  for (auto call : {std::function<void()>([&] { la::solve(a, b); }),
                    std::function<void()>([&] { la::inv(a); })}) {
    const tenferro::Error e = expect_error(call, tenferro::ErrorKind::Numerical);
    EXPECT_EQ(e.phase(), tenferro::ErrorPhase::Execute);
    EXPECT_NE(std::string(e.what()).find("batch entry 3 (index [1, 1])"), std::string::npos)
        << e.what();
    EXPECT_NE(std::string(e.what()).find("singular"), std::string::npos) << e.what();
  }
}

}  // namespace
