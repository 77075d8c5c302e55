// QR: A = Q R, Q^H Q = I, R upper triangular, over every dtype, batch shape and size; the
// positive-diagonal gauge makes diag(R) real and non-negative.
#include <cstring>

#include "linalg_test_util.hpp"

namespace {

using namespace linalg_test;
namespace la = tenferro::linalg;

void check_qr(DType dtype, const Shape& batch, std::int64_t m, std::int64_t n,
              const la::QrOptions& options, std::uint32_t seed) {
  SCOPED_TRACE(case_name(dtype, batch, m, n));
  auto rt = tenferro::EagerRuntime::cpu();
  const EagerTensor a = rt->upload(random_tensor(dtype, with_batch({m, n}, batch), seed));
  const auto [q, r] = la::qr(a, options);
  const std::int64_t k = std::min(m, n);
  const bool complete = options.mode == la::QrMode::Complete;
  EXPECT_EQ(q.shape(), with_batch({m, complete ? m : k}, batch));
  EXPECT_EQ(r.shape(), with_batch({complete ? m : k, n}, batch));
  EXPECT_EQ(q.dtype(), dtype);
  EXPECT_EQ(r.dtype(), dtype);
  const Mats am = matrices(a), qm = matrices(q), rm = matrices(r);
  const Mats qhq = multiply(adjoint(qm), qm);
  expect_close(qhq, identity(qm.cols, qm.batch), tol(dtype, m), 0, "Q^H Q = I");
  expect_close(multiply(qm, rm), am, tol(dtype, std::max(m, n)), 0, "A = Q R");
  for (std::int64_t b = 0; b < rm.batch; ++b) {
    for (std::int64_t j = 0; j < rm.cols; ++j) {
      for (std::int64_t i = j + 1; i < rm.rows; ++i)
        EXPECT_EQ(rm.at(b, i, j), cd(0)) << "R lower part";
      if (options.gauge == la::QrGauge::PositiveDiagonal && j < rm.rows && j < k) {
        EXPECT_EQ(rm.at(b, j, j).imag(), 0.0);
        EXPECT_GE(rm.at(b, j, j).real(), 0.0);
      }
    }
  }
}

TEST(LinalgQr, ReducedAllDtypesBatchesAndSizes) {
  std::uint32_t seed = 1;
  for (DType d : tenferro::kAllDTypes)
    for (const Shape& batch : batch_shapes())
      for (const Size& s : matrix_sizes()) check_qr(d, batch, s.m, s.n, {}, seed++);
}

TEST(LinalgQr, CompleteAllDtypesBatchesAndSizes) {
  std::uint32_t seed = 100;
  for (DType d : tenferro::kAllDTypes)
    for (const Shape& batch : batch_shapes())
      for (const Size& s : matrix_sizes())
        check_qr(d, batch, s.m, s.n, {la::QrMode::Complete, la::QrGauge::Raw}, seed++);
}

// Real matrices of up to 64 x 64 run in groups of a vector's lanes (backends/cpu/lane_qr.hpp),
// the rest of a batch and larger matrices through the per-matrix kernels: batches around the
// group sizes of AVX2 and AVX-512 (4, 8 and 16 lanes), tall, wide and square, reduced and
// complete, both gauges.
TEST(LinalgQr, SmallRealMatricesInGroupsAndTheRest) {
  std::uint32_t seed = 300;
  for (DType d : {DType::F32, DType::F64})
    for (std::int64_t batch : {1, 3, 5, 9, 17, 37})
      for (const Size& s : std::vector<Size>{{8, 8}, {64, 64}, {64, 7}, {5, 64}, {65, 65}})
        for (la::QrMode mode : {la::QrMode::Reduced, la::QrMode::Complete})
          check_qr(d, {batch}, s.m, s.n,
                   {mode, batch % 2 ? la::QrGauge::Raw : la::QrGauge::PositiveDiagonal}, seed++);
}

// A group of lanes the batched kernels decline (a column whose squares underflow) goes one matrix
// at a time, and the groups after it still run in the lanes: which path a matrix takes depends
// on its own group, not on where a thread's chunk begins (found by an adversarial test: one
// declining matrix changed the signs of R's rows of the matrices after it at one thread and not
// at two). 16 matrices: entries 8-15 are a group of their own with AVX-512 and two with AVX2.
TEST(LinalgQr, ADecliningMatrixLeavesOtherGroupsAsTheyAre) {
  auto rt = tenferro::EagerRuntime::cpu();
  const Tensor clean = random_tensor(DType::F64, {12, 9, 16}, 41);
  Tensor declining = clean.clone();
  for (std::int64_t i = 1; i < 12; ++i) declining.data<double>()[i] = 1e-170;  // entry 0
  const auto [q_clean, r_clean] = la::qr(rt->upload(clean));
  const auto [q_decl, r_decl] = la::qr(rt->upload(declining));
  const Tensor qc = q_clean.download(), qd = q_decl.download();
  const Tensor rc = r_clean.download(), rd = r_decl.download();
  const std::int64_t q_size = 12 * 9, r_size = 9 * 9;
  EXPECT_EQ(std::memcmp(qc.data<double>() + 8 * q_size, qd.data<double>() + 8 * q_size,
                        sizeof(double) * 8 * q_size),
            0);
  EXPECT_EQ(std::memcmp(rc.data<double>() + 8 * r_size, rd.data<double>() + 8 * r_size,
                        sizeof(double) * 8 * r_size),
            0);
  check_qr(DType::F64, {16}, 12, 9, {}, 41);
}

TEST(LinalgQr, PositiveDiagonalGauge) {
  std::uint32_t seed = 200;
  for (DType d : tenferro::kAllDTypes)
    for (const Size& s : matrix_sizes()) {
      check_qr(d, {3}, s.m, s.n, {la::QrMode::Reduced, la::QrGauge::PositiveDiagonal}, seed++);
      check_qr(d, {2}, s.m, s.n, {la::QrMode::Complete, la::QrGauge::PositiveDiagonal}, seed++);
    }
}

TEST(LinalgQr, StridedInputIsRead) {
  // A transposed view (not compact) must be factorised as the matrix it presents.
  auto rt = tenferro::EagerRuntime::cpu();
  const Tensor host = random_tensor(DType::F64, {3, 5}, 7);
  const EagerTensor at = rt->upload(host).permute(std::vector<std::int64_t>{1, 0});
  const auto [q, r] = tenferro::linalg::qr(at);
  expect_close(multiply(matrices(q), matrices(r)),
               matrices(rt->upload(host.transpose().contiguous())), tol(DType::F64, 5), 0,
               "A^T = Q R");
}

}  // namespace
