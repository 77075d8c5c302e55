// Cholesky: L lower with a real positive diagonal, L L^H = A, only the lower triangle read.
#include "linalg_test_util.hpp"

namespace {

using namespace linalg_test;
namespace la = tenferro::linalg;

// X X^H + n I (positive definite); `garbage_upper` overwrites the strict upper triangle.
Mats positive_definite(DType d, const Shape& shape, std::uint32_t seed) {
  const std::int64_t n = shape[0];
  const Mats x{n, n, product(shape, 2), widen(random_tensor(d, shape, seed))};
  Mats a = multiply(x, adjoint(x));
  for (std::int64_t b = 0; b < a.batch; ++b)
    for (std::int64_t i = 0; i < n; ++i) a.at(b, i, i) += static_cast<double>(n);
  return a;
}

TEST(LinalgCholesky, AllDtypesBatchesAndSizes) {
  auto rt = tenferro::EagerRuntime::cpu();
  std::uint32_t seed = 1;
  for (DType d : tenferro::kAllDTypes)
    for (const Shape& batch : batch_shapes())
      for (std::int64_t n : square_sizes()) {
        SCOPED_TRACE(case_name(d, batch, n, n));
        const Shape shape = with_batch({n, n}, batch);
        const Mats want = positive_definite(d, shape, seed++);
        Mats stored = want;
        for (std::int64_t b = 0; b < stored.batch; ++b)
          for (std::int64_t j = 0; j < n; ++j)
            for (std::int64_t i = 0; i < j; ++i) stored.at(b, i, j) = cd(99, 5);  // never read
        const EagerTensor l = la::cholesky(rt->upload(tensor_from(d, shape, stored.data)));
        EXPECT_EQ(l.shape(), shape);
        const Mats lm = matrices(l);
        // The widened X X^H + n I matches what the dtype stores up to one rounding.
        const Mats rounded{n, n, want.batch, widen(tensor_from(d, shape, want.data))};
        expect_close(multiply(lm, adjoint(lm)), rounded, tol(d, n), norm(rounded, 0), "L L^H = A");
        for (std::int64_t b = 0; b < lm.batch; ++b)
          for (std::int64_t j = 0; j < n; ++j) {
            EXPECT_GT(lm.at(b, j, j).real(), 0.0);
            EXPECT_EQ(lm.at(b, j, j).imag(), 0.0);
            for (std::int64_t i = 0; i < j; ++i) EXPECT_EQ(lm.at(b, i, j), cd(0)) << "L is lower";
          }
      }
}

TEST(LinalgCholesky, NotPositiveDefiniteNamesTheBatchEntry) {
  auto rt = tenferro::EagerRuntime::cpu();
  // Entries 0 and 2 are the identity, entry 1 is diag(1, -1).
  const EagerTensor a =
      rt->upload(Tensor::from_col_major<double>({2, 2, 3}, {1, 0, 0, 1, 1, 0, 0, -1, 1, 0, 0, 1}));
  const tenferro::Error e = expect_error([&] { la::cholesky(a); }, tenferro::ErrorKind::Numerical);
  EXPECT_EQ(e.phase(), tenferro::ErrorPhase::Execute);
  EXPECT_EQ(e.op(), "linalg.cholesky");
  EXPECT_NE(std::string(e.what()).find("batch entry 1"), std::string::npos) << e.what();
  EXPECT_NE(std::string(e.what()).find("not positive definite"), std::string::npos) << e.what();
}

}  // namespace
