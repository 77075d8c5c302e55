// eigh: A V = V diag(w), V^H V = I, w real and ascending, only the lower triangle read; eig:
// A V = V diag(w) with complex w and V, including real input with complex conjugate pairs.
#include "linalg_test_util.hpp"

namespace {

using namespace linalg_test;
namespace la = tenferro::linalg;

// X + X^H, with the strict upper triangle then overwritten by garbage (eigh must not read it).
Tensor hermitian(DType dtype, const Shape& shape, std::uint32_t seed, std::vector<cd>& clean) {
  const std::int64_t n = shape[0];
  Mats x{n, n, product(shape, 2), widen(random_tensor(dtype, shape, seed))};
  Mats h = x;
  for (std::int64_t b = 0; b < x.batch; ++b)
    for (std::int64_t j = 0; j < n; ++j)
      for (std::int64_t i = 0; i < n; ++i) h.at(b, i, j) = x.at(b, i, j) + std::conj(x.at(b, j, i));
  clean = h.data;
  for (std::int64_t b = 0; b < x.batch; ++b)
    for (std::int64_t j = 0; j < n; ++j)
      for (std::int64_t i = 0; i < j; ++i) h.at(b, i, j) = cd(1e3, -7);
  return tensor_from(dtype, shape, h.data);
}

Mats scale_columns(const Mats& v, const Mats& w) {
  Mats out = v;
  for (std::int64_t b = 0; b < v.batch; ++b)
    for (std::int64_t j = 0; j < v.cols; ++j)
      for (std::int64_t i = 0; i < v.rows; ++i) out.at(b, i, j) *= w.at(b, j, 0);
  return out;
}

// V^H V = I, A V = V diag(w) and w ascending for every batch entry of `am`; returns w.
Mats expect_eigh(DType d, const Mats& am, const la::EighResult& r) {
  const std::int64_t n = am.rows;
  const Mats vm = matrices(r.v), wm = vectors(r.w);
  expect_close(multiply(adjoint(vm), vm), identity(n, vm.batch), tol(d, n), 0, "V^H V = I");
  expect_close(multiply(am, vm), scale_columns(vm, wm), tol(d, n), norm(am, 0), "A V = V w");
  for (std::int64_t b = 0; b < wm.batch; ++b)
    for (std::int64_t i = 1; i < n; ++i)
      EXPECT_LE(wm.at(b, i - 1, 0).real(), wm.at(b, i, 0).real());
  return wm;
}

TEST(LinalgEigh, AllDtypesBatchesAndSizes) {
  auto rt = tenferro::EagerRuntime::cpu();
  std::uint32_t seed = 1;
  for (DType d : tenferro::kAllDTypes)
    for (const Shape& batch : batch_shapes())
      for (std::int64_t n : square_sizes()) {
        SCOPED_TRACE(case_name(d, batch, n, n));
        std::vector<cd> clean;
        const Shape shape = with_batch({n, n}, batch);
        const EagerTensor a = rt->upload(hermitian(d, shape, seed++, clean));
        const la::EighResult r = la::eigh(a);
        EXPECT_EQ(r.w.shape(), with_batch({n}, batch));
        EXPECT_EQ(r.w.dtype(), tenferro::real_dtype(d));
        EXPECT_EQ(r.v.shape(), shape);
        const Mats am{n, n, product(shape, 2), clean};
        const Mats wm = expect_eigh(d, am, r);
        la::EighOptions values_only;
        values_only.values_only = true;
        const la::EighResult v = la::eigh(a, values_only);
        EXPECT_FALSE(v.v.defined());
        expect_close(vectors(v.w), wm, tol(d, n), norm(am, 0), "values only");
      }
}

// Real matrices of up to 32 x 32 run in groups of a vector's lanes (backends/cpu/jacobi_eigh.hpp),
// a last group of fewer than half the lanes and larger matrices through LAPACK: batches around
// the group sizes of AVX2 and AVX-512 (4, 8 and 16 lanes), each entry checked.
TEST(LinalgEigh, SmallRealMatricesInGroupsAndTheRest) {
  auto rt = tenferro::EagerRuntime::cpu();
  std::uint32_t seed = 900;
  for (DType d : {DType::F32, DType::F64})
    for (std::int64_t batch : {1, 3, 5, 9, 17, 37})
      for (std::int64_t n : {3, 8, 32, 33}) {
        const Shape shape{n, n, batch};
        SCOPED_TRACE(case_name(d, {batch}, n, n));
        std::vector<cd> clean;
        const EagerTensor a = rt->upload(hermitian(d, shape, seed++, clean));
        const la::EighResult r = la::eigh(a);
        expect_eigh(d, Mats{n, n, batch, clean}, r);
      }
}

TEST(LinalgEig, AllDtypesBatchesAndSizes) {
  auto rt = tenferro::EagerRuntime::cpu();
  std::uint32_t seed = 50;
  for (DType d : tenferro::kAllDTypes)
    for (const Shape& batch : batch_shapes())
      for (std::int64_t n : square_sizes()) {
        SCOPED_TRACE(case_name(d, batch, n, n));
        const EagerTensor a = rt->upload(random_tensor(d, with_batch({n, n}, batch), seed++));
        const la::EigResult r = la::eig(a);
        EXPECT_EQ(r.w.dtype(), tenferro::complex_dtype(d));
        EXPECT_EQ(r.v.dtype(), tenferro::complex_dtype(d));
        EXPECT_EQ(r.w.shape(), with_batch({n}, batch));
        const Mats am = matrices(a), vm = matrices(r.v), wm = vectors(r.w);
        expect_close(multiply(am, vm), scale_columns(vm, wm), tol(d, n), norm(am, 0), "A V = V w");
        for (std::int64_t b = 0; b < vm.batch; ++b)
          for (std::int64_t j = 0; j < n; ++j) {
            double col = 0;
            for (std::int64_t i = 0; i < n; ++i) col += std::norm(vm.at(b, i, j));
            EXPECT_NEAR(col, 1.0, tol(d, n)) << "eigenvectors have unit norm";
          }
      }
}

TEST(LinalgEig, RealInputWithComplexPairs) {
  auto rt = tenferro::EagerRuntime::cpu();
  // Rotation by 90 degrees (eigenvalues +-i) beside a real eigenvalue 2, batched twice.
  const std::vector<double> one{0, 1, 0, -1, 0, 0, 0, 0, 2};
  std::vector<double> data(one);
  data.insert(data.end(), one.begin(), one.end());
  for (DType d : {DType::F32, DType::F64}) {
    const EagerTensor a =
        rt->upload(tensor_from(d, {3, 3, 2}, std::vector<cd>(data.begin(), data.end())));
    const la::EigResult r = la::eig(a);
    const Mats am = matrices(a), vm = matrices(r.v), wm = vectors(r.w);
    expect_close(multiply(am, vm), scale_columns(vm, wm), tol(d, 3), 0, "A V = V w");
    for (std::int64_t b = 0; b < 2; ++b) {
      int imaginary = 0;
      for (std::int64_t i = 0; i < 3; ++i) {
        const cd w = wm.at(b, i, 0);
        if (std::abs(w.imag()) > 0.5) {
          ++imaginary;
          EXPECT_NEAR(std::abs(w.imag()), 1.0, tol(d, 3));
          EXPECT_NEAR(w.real(), 0.0, tol(d, 3));
        } else {
          EXPECT_NEAR(w.real(), 2.0, tol(d, 3));
        }
      }
      EXPECT_EQ(imaginary, 2) << "the pair +-i";
    }
  }
}

}  // namespace
