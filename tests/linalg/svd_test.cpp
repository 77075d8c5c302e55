// SVD: A = U diag(S) Vh, orthonormal U and V, S real, >= 0 and descending; full matrices,
// values only and the canonical gauge.
#include "linalg_test_util.hpp"

namespace {

using namespace linalg_test;
namespace la = tenferro::linalg;

// diag(S) Vh as a [rows, n] matrix: row i is s_i Vh[i, :] for i < len(S), zero beyond (the
// extra columns of a full U meet zero rows).
Mats diag_times(const Mats& s, const Mats& vh, std::int64_t rows) {
  Mats out{rows, vh.cols, vh.batch,
           std::vector<cd>(static_cast<std::size_t>(rows * vh.cols * vh.batch))};
  for (std::int64_t b = 0; b < vh.batch; ++b)
    for (std::int64_t j = 0; j < vh.cols; ++j)
      for (std::int64_t i = 0; i < std::min(rows, s.rows); ++i)
        out.at(b, i, j) = s.at(b, i, 0) * vh.at(b, i, j);
  return out;
}

void check_svd(DType dtype, const Shape& batch, std::int64_t m, std::int64_t n,
               const la::SvdOptions& options, std::uint32_t seed) {
  SCOPED_TRACE(case_name(dtype, batch, m, n) + (options.full_matrices ? " full" : ""));
  auto rt = tenferro::EagerRuntime::cpu();
  const EagerTensor a = rt->upload(random_tensor(dtype, with_batch({m, n}, batch), seed));
  const la::SvdResult r = la::svd(a, options);
  const std::int64_t k = std::min(m, n);
  const bool full = options.full_matrices;
  EXPECT_EQ(r.s.shape(), with_batch({k}, batch));
  EXPECT_EQ(r.s.dtype(), tenferro::real_dtype(dtype));
  EXPECT_EQ(r.discarded_weight.shape(), batch);
  EXPECT_EQ(r.u.shape(), with_batch({m, full ? m : k}, batch));
  EXPECT_EQ(r.vh.shape(), with_batch({full ? n : k, n}, batch));
  const Mats am = matrices(a), um = matrices(r.u), sm = vectors(r.s), vm = matrices(r.vh);
  for (std::int64_t b = 0; b < sm.batch; ++b) {
    for (std::int64_t i = 0; i < k; ++i) {
      EXPECT_GE(sm.at(b, i, 0).real(), 0.0);
      if (i > 0) {
        EXPECT_LE(sm.at(b, i, 0).real(), sm.at(b, i - 1, 0).real());
      }
    }
  }
  for (cd w : scalars(r.discarded_weight)) EXPECT_EQ(w, cd(0));
  expect_close(multiply(adjoint(um), um), identity(um.cols, um.batch), tol(dtype, m), 0,
               "U^H U = I");
  expect_close(multiply(vm, adjoint(vm)), identity(vm.rows, vm.batch), tol(dtype, n), 0,
               "Vh Vh^H = I");
  expect_close(multiply(um, diag_times(sm, vm, um.cols)), am, tol(dtype, std::max(m, n)), 0,
               "A = U S Vh");

  if (options.gauge == la::SvdGauge::Canonical) {
    for (std::int64_t b = 0; b < um.batch; ++b)
      for (std::int64_t j = 0; j < k; ++j) {
        std::int64_t best = 0;
        for (std::int64_t i = 1; i < m; ++i)
          if (std::abs(um.at(b, i, j)) > std::abs(um.at(b, best, j))) best = i;
        // Ties between equal magnitudes may pick either; the chosen entry is real positive, so
        // the largest magnitude equals a real positive entry of the column.
        bool found = false;
        for (std::int64_t i = 0; i < m; ++i) {
          const cd v = um.at(b, i, j);
          if (v.imag() == 0 && v.real() > 0 &&
              std::abs(std::abs(v) - std::abs(um.at(b, best, j))) <= tol(dtype, m))
            found = true;
        }
        EXPECT_TRUE(found) << "column " << j << " has no real positive largest entry";
      }
  }
}

TEST(LinalgSvd, ThinAllDtypesBatchesAndSizes) {
  std::uint32_t seed = 1;
  for (DType d : tenferro::kAllDTypes)
    for (const Shape& batch : batch_shapes())
      for (const Size& s : matrix_sizes()) check_svd(d, batch, s.m, s.n, {}, seed++);
}

TEST(LinalgSvd, FullMatrices) {
  std::uint32_t seed = 300;
  la::SvdOptions o;
  o.full_matrices = true;
  for (DType d : tenferro::kAllDTypes)
    for (const Shape& batch : batch_shapes())
      for (const Size& s : matrix_sizes()) check_svd(d, batch, s.m, s.n, o, seed++);
}

// Real matrices of up to 32 x 32 run in groups of a vector's lanes (backends/cpu/jacobi_svd.hpp;
// full U and V^T only when square), a last group of fewer than half the lanes, larger and
// full non-square ones through LAPACK: batches around the group sizes of AVX2 and AVX-512
// (4, 8 and 16 lanes), tall, wide and square, thin and full, each entry checked.
TEST(LinalgSvd, SmallRealMatricesInGroupsAndTheRest) {
  std::uint32_t seed = 900;
  for (DType d : {DType::F32, DType::F64})
    for (std::int64_t batch : {3, 9, 17, 37})
      for (const Size& s : std::vector<Size>{{8, 8}, {32, 32}, {32, 7}, {5, 32}, {33, 33}})
        for (bool full : {false, true}) {
          la::SvdOptions o;
          o.full_matrices = full;
          check_svd(d, {batch}, s.m, s.n, o, seed++);
        }
}

TEST(LinalgSvd, CanonicalGauge) {
  std::uint32_t seed = 500;
  la::SvdOptions o;
  o.gauge = la::SvdGauge::Canonical;
  for (DType d : tenferro::kAllDTypes)
    for (const Size& s : matrix_sizes()) check_svd(d, {2, 3}, s.m, s.n, o, seed++);
}

TEST(LinalgSvd, ValuesOnlyMatchesFullDecomposition) {
  auto rt = tenferro::EagerRuntime::cpu();
  std::uint32_t seed = 700;
  for (DType d : tenferro::kAllDTypes)
    for (const Size& s : matrix_sizes()) {
      const EagerTensor a = rt->upload(random_tensor(d, {s.m, s.n, 3}, seed++));
      la::SvdOptions values_only;
      values_only.compute_uv = false;
      const la::SvdResult v = la::svd(a, values_only);
      const la::SvdResult f = la::svd(a);
      EXPECT_FALSE(v.u.defined());
      EXPECT_FALSE(v.vh.defined());
      expect_close(vectors(v.s), vectors(f.s), tol(d, std::max(s.m, s.n)), norm(matrices(a), 0),
                   "S");
    }
}

}  // namespace
