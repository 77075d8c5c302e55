// svds against a matrix with singular values known by construction: A = Q1 diag(s) Q2^H.
#include <gtest/gtest.h>

#include <array>
#include <string>
#include <utility>
#include <vector>

#include "krylov/krylov_matrices.hpp"

namespace tenferro::krylov_test {
namespace {

struct SvdsCase {
  DType dtype;
  std::int64_t m, n, k;
};

class SvdsKnown : public ::testing::TestWithParam<SvdsCase> {};

TEST_P(SvdsKnown, LargestTripletsOfAKnownMatrix) {
  const SvdsCase c = GetParam();
  auto rt = EagerRuntime::cpu();
  const std::int64_t r = std::min(c.m, c.n);
  std::vector<cplx> s;
  for (std::int64_t i = 0; i < r; ++i) s.emplace_back(std::pow(0.7, double(i)) * 3.0);
  const EagerTensor q1 =
      linalg::qr(rt->upload(testing::random_tensor(c.dtype, Shape{c.m, c.m}, 71))).q;
  const EagerTensor q2 =
      linalg::qr(rt->upload(testing::random_tensor(c.dtype, Shape{c.n, c.n}, 72))).q;
  const std::array<prims::Slice, 2> first_r{prims::Slice{}, prims::Slice{0, r, 1}};
  const EagerTensor a =
      einsum("ik,k,jk->ij", {prims::slice(q1, first_r), rt->upload(host_vector(c.dtype, s)),
                             prims::conj(prims::slice(q2, first_r))});
  const auto res = krylov::svds(a, c.k, 1e-12);
  ASSERT_EQ(res.singular_values.size(), static_cast<std::size_t>(c.k));
  EXPECT_EQ(res.u.shape(), (Shape{c.m, c.k}));
  EXPECT_EQ(res.vh.shape(), (Shape{c.k, c.n}));
  EXPECT_EQ(res.s.dtype(), real_dtype(c.dtype));
  const Tensor s_dev = prims::cast(res.s, DType::F64).download();
  for (std::int64_t i = 0; i < c.k; ++i) {
    EXPECT_NEAR(res.singular_values[static_cast<std::size_t>(i)],
                s[static_cast<std::size_t>(i)].real(), 1e-10)
        << i;
    EXPECT_NEAR(s_dev.data<double>()[i], s[static_cast<std::size_t>(i)].real(), 1e-10) << i;
  }
  // U^H U = I and A - U S Vh has exactly the discarded singular values' weight.
  const EagerTensor utu = einsum("ik,il->kl", {prims::conj(res.u), res.u});
  const EagerTensor eye = prims::eye(rt, c.dtype, c.k);
  EXPECT_LT(prims::cast(prims::norm(utu - eye), DType::F64).download().data<double>()[0], 1e-10);
  const EagerTensor vvh = einsum("ki,li->kl", {res.vh, prims::conj(res.vh)});
  EXPECT_LT(prims::cast(prims::norm(vvh - eye), DType::F64).download().data<double>()[0], 1e-10);
  const EagerTensor approx = einsum("ik,k,kj->ij", {res.u, prims::cast(res.s, c.dtype), res.vh});
  double discarded = 0;
  for (std::int64_t i = c.k; i < r; ++i) discarded += std::norm(s[static_cast<std::size_t>(i)]);
  EXPECT_NEAR(prims::cast(prims::norm(a - approx), DType::F64).download().data<double>()[0],
              std::sqrt(discarded), 1e-9);
}

INSTANTIATE_TEST_SUITE_P(Shapes, SvdsKnown,
                         ::testing::Values(SvdsCase{DType::F64, 40, 25, 6},
                                           SvdsCase{DType::F64, 20, 50, 8},
                                           SvdsCase{DType::C64, 30, 30, 5},
                                           SvdsCase{DType::C64, 18, 36, 4},
                                           SvdsCase{DType::F64, 12, 7, 7},  // all of them
                                           SvdsCase{DType::C64, 5, 9, 5}));

TEST(Svds, RefusesWhatItCannotDo) {
  auto rt = EagerRuntime::cpu();
  const EagerTensor a = rt->upload(testing::random_tensor(DType::F64, Shape{6, 4}, 1));
  EXPECT_THROW(krylov::svds(a, 5), Error);  // k > min(m, n)
  EXPECT_THROW(krylov::svds(a, 0), Error);
  EXPECT_THROW(krylov::svds(prims::reshape(a, Shape{24}), 2), Error);
  // Rank 1 but k = 3: the numerically zero singular values still come with orthonormal
  // vectors, and U S Vh is A.
  const EagerTensor u = rt->upload(testing::random_tensor(DType::F64, Shape{6}, 2));
  const EagerTensor v = rt->upload(testing::random_tensor(DType::F64, Shape{5}, 3));
  const EagerTensor rank1 = einsum("i,j->ij", {u, v});
  const auto res = krylov::svds(rank1, 3);
  EXPECT_LT(res.singular_values[1], 1e-6 * res.singular_values[0]);
  const EagerTensor utu = einsum("ik,il->kl", {res.u, res.u});
  EXPECT_LT(prims::norm(utu - prims::eye(rt, DType::F64, 3)).download().data<double>()[0], 1e-12);
  const EagerTensor approx = einsum("ik,k,kj->ij", {res.u, res.s, res.vh});
  EXPECT_LT(prims::norm(rank1 - approx).download().data<double>()[0], 1e-6);
}

// A matrix of a scale whose square under- or overflows (the Gram matrix's): 1e-200 B gave
// singular values 0, reported as a result (a review against SciPy found it); 1e160 B overflowed.
// Largest entries near the dtype's largest value: a scale rounded up to a power of two was
// infinite there (singular values NaN for float64, 0 for float32; the review of the scaling).
TEST(Svds, EntriesNearTheLargestValueKeepTheirSingularValues) {
  auto rt = EagerRuntime::cpu();
  for (const auto& [dtype, c] : {std::pair{DType::F64, 1.3e308}, std::pair{DType::F64, 1.7e308},
                                 std::pair{DType::F32, 2.5e38}, std::pair{DType::F32, 3.3e38}}) {
    SCOPED_TRACE(std::string(dtype_name(dtype)) + " " + std::to_string(c));
    Tensor host = Tensor::zeros(dtype, Shape{4, 3});
    for (std::int64_t i = 0; i < 3; ++i) {
      const double v = c / double(1 << i);
      if (dtype == DType::F64) host.at<double>({i, i}) = v;
      if (dtype == DType::F32) host.at<float>({i, i}) = static_cast<float>(v);
    }
    const auto res = krylov::svds(rt->upload(host), 2);
    ASSERT_EQ(res.singular_values.size(), 2u);
    EXPECT_NEAR(res.singular_values[0] / c, 1.0, 1e-6);
    EXPECT_NEAR(res.singular_values[1] / (c / 2), 1.0, 1e-6);
  }
}

TEST(Svds, MatricesOfExtremeScaleKeepTheirSingularValues) {
  auto rt = EagerRuntime::cpu();
  for (const auto& [dtype, scales] :
       {std::pair{DType::F64, std::vector<double>{1e-200, 1e-160, 1e160, 1e200, 1e307}},
        std::pair{DType::F32, std::vector<double>{1e-25, 1e25, 1e37}}}) {
    const EagerTensor b = rt->upload(testing::random_tensor(dtype, Shape{7, 5}, 81));
    const auto base = krylov::svds(b, 3);
    for (const double scale : scales) {
      SCOPED_TRACE(std::string(dtype_name(dtype)) + " " + std::to_string(scale));
      const auto res = krylov::svds(prims::scale(b, scale), 3);
      ASSERT_EQ(res.singular_values.size(), 3u);
      const Tensor s = prims::cast(res.s, DType::F64).download();
      for (std::size_t i = 0; i < 3; ++i) {
        const double want = base.singular_values[i] * scale;
        EXPECT_NEAR(res.singular_values[i] / want, 1.0, dtype == DType::F64 ? 1e-10 : 1e-4);
        EXPECT_NEAR(s.data<double>()[i] / want, 1.0, dtype == DType::F64 ? 1e-10 : 1e-4);
      }
    }
  }
}

// Singular values between sqrt(eps) and 10 sqrt(eps) times the largest (float32 0.003 of 1) had
// their vectors replaced by a random direction orthogonal to the others: a flipped sign in 2-D
// (U S Vh missed A by 2 s_i on three seeds of four), a random direction in 5-D, a random phase
// in complex64 (a review on WebGPU found it). Below that, and for an exact zero, U S Vh must
// still stay within the small values of A: each column turned to the phase of A v_i.
TEST(Svds, SmallSingularValuesKeepTheirVectorsSigns) {
  auto rt = EagerRuntime::cpu();
  for (const DType dtype : {DType::F32, DType::C32, DType::F64}) {
    for (const double small : {3e-3, 1e-3, 1e-5, 0.0}) {
      for (const auto& [m, n] : {std::pair{2, 2}, std::pair{5, 2}, std::pair{2, 5}}) {
        Tensor host = Tensor::zeros(dtype, Shape{m, n});
        for (std::int64_t i = 0; i < 2; ++i) {
          const double v = i == 0 ? 1.0 : small;
          if (dtype == DType::F32) host.at<float>({i, i}) = static_cast<float>(v);
          if (dtype == DType::F64) host.at<double>({i, i}) = v;
          if (dtype == DType::C32) host.at<std::complex<float>>({i, i}) = static_cast<float>(v);
        }
        const EagerTensor a = rt->upload(host);
        for (std::uint64_t seed = 0; seed < 4; ++seed) {
          SCOPED_TRACE(std::string(dtype_name(dtype)) + " s2 " + std::to_string(small) + " " +
                       std::to_string(m) + "x" + std::to_string(n) + " seed " +
                       std::to_string(seed));
          const auto res = krylov::svds(a, 2, 0, seed);
          const EagerTensor approx =
              einsum("ik,k,kj->ij", {res.u, prims::cast(res.s, dtype), res.vh});
          const double miss =
              prims::cast(prims::norm(a - approx), DType::F64).download().data<double>()[0];
          // The Gram matrix resolves s_i to about eps / s_i (its eigenvalue to eps): within
          // that of A, and never beyond 2 sqrt(eps) (the flipped sign missed by 2 s_i = 6e-3).
          const double eps = dtype == DType::F64 ? 2.2e-16 : 1.2e-7;
          const double allowed = small > 0
                                     ? std::min(2 * std::sqrt(eps), 8 * eps / small + 64 * eps)
                                     : 2 * std::sqrt(eps);
          EXPECT_LT(miss, allowed);
        }
      }
    }
  }
}

}  // namespace
}  // namespace tenferro::krylov_test
