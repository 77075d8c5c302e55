// Linalg on a CUDA runtime (cuSOLVER): QR and SVD (every driver, truncation and gauge)
// reconstruct their inputs, keep every factor in device memory, make no transfer and run no
// CPU kernel inside the call, and agree with the CPU runtime; lstsq (SVD-based) gives the exact
// pseudo-inverse solution of matrices built from known factors and the CPU runtime's x, rank
// and s; ops without a CUDA implementation (eig) are refused by the admission table before
// anything runs. Skipped without a device.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "tenferro/config.hpp"

#if TENFERRO_HAS_CUDA

#include "cuda_fixture.hpp"
#include "linalg/constructed_matrices.hpp"
#include "linalg/linalg_test_util.hpp"
#include "ops/linalg/cuda/svd_solvers.hpp"
#include "tenferro/runtime/stats.hpp"

namespace {

using namespace linalg_test;
namespace la = tenferro::linalg;
using tenferro::EagerRuntime;
using tenferro::RuntimeStats;

constexpr const char* kLinalgOnCuda = "tenferro.linalg.v1@cuda";

// Matrices of a host tensor (linalg_test::matrices takes an eager value).
Mats matrices_of(const Tensor& host) {
  return Mats{host.shape().at(0), host.shape().at(1), product(host.shape(), 2), widen(host)};
}
// Vectors [rows, batch...] of a host tensor, as one-column matrices.
Mats widen_vector(const Tensor& host) {
  return Mats{host.shape().at(0), 1, product(host.shape(), 1), widen(host)};
}

class LinalgCudaTest : public tenferro::cuda_test::CudaTest {
 protected:
  // Snapshot before an eager call; expect_device_only() checks the call moved nothing.
  void begin() {
    before_ = runtime_->stats();
    cpu_kernels_ = tenferro::process_cpu_kernel_launches();
  }
  void expect_device_only(std::initializer_list<const EagerTensor*> outputs) {
    EXPECT_EQ(tenferro::process_cpu_kernel_launches(), cpu_kernels_) << "a CPU kernel ran";
    const RuntimeStats after = runtime_->stats();
    EXPECT_EQ(after.uploads, before_.uploads) << "no transfer inside the eager call";
    EXPECT_EQ(after.downloads, before_.downloads);
    EXPECT_LE(after.status_reads - before_.status_reads, 1u) << "one status read-back per call";
    EXPECT_EQ(after.kernel_launches_for(kLinalgOnCuda) - before_.kernel_launches_for(kLinalgOnCuda),
              1u);
    for (const EagerTensor* t : outputs) {
      EXPECT_EQ(t->runtime(), runtime_);
      EXPECT_EQ(t->placement(), runtime_->backend().placement());
      if (t->numel() > 0) {
        const tenferro::Error e =
            expect_error([&] { (void)t->host_view(); }, tenferro::ErrorKind::HostAccess);
        (void)e;
      }
    }
  }
  // One eager SVD of `host` on the device, checked for residency and against the CPU runtime.
  void expect_device_svd(const Tensor& host, const la::SvdOptions& options);
  la::LstsqResult device_lstsq(const Tensor& a_host, const Tensor& b_host,
                               const la::LstsqOptions& options);
  RuntimeStats before_;
  std::uint64_t cpu_kernels_ = 0;
};

TEST_F(LinalgCudaTest, QrReconstructsOnTheDeviceForEveryDtypeModeAndGauge) {
  std::uint32_t seed = 1;
  const std::vector<Size> sizes{{0, 0}, {1, 1}, {4, 4}, {6, 3}, {3, 6}, {3, 0}, {40, 17}};
  for (DType dtype : tenferro::kAllDTypes)
    for (const Shape& batch : batch_shapes())
      for (const Size& s : sizes)
        for (la::QrMode mode : {la::QrMode::Reduced, la::QrMode::Complete})
          for (la::QrGauge gauge : {la::QrGauge::Raw, la::QrGauge::PositiveDiagonal}) {
            SCOPED_TRACE(case_name(dtype, batch, s.m, s.n) +
                         (mode == la::QrMode::Complete ? " complete" : " reduced") +
                         (gauge == la::QrGauge::Raw ? "" : " positive"));
            const Tensor host = random_tensor(dtype, with_batch({s.m, s.n}, batch), seed++);
            const EagerTensor a = runtime_->upload(host);
            begin();
            const auto [q, r] = la::qr(a, {mode, gauge});
            expect_device_only({&q, &r});
            const std::int64_t k = std::min(s.m, s.n);
            const bool complete = mode == la::QrMode::Complete;
            EXPECT_EQ(q.shape(), with_batch({s.m, complete ? s.m : k}, batch));
            EXPECT_EQ(r.shape(), with_batch({complete ? s.m : k, s.n}, batch));
            const Mats am = matrices(a), qm = matrices(q), rm = matrices(r);
            expect_close(multiply(adjoint(qm), qm), identity(qm.cols, qm.batch), tol(dtype, s.m), 0,
                         "Q^H Q = I");
            expect_close(multiply(qm, rm), am, tol(dtype, std::max(s.m, s.n)), 0, "A = Q R");
            for (std::int64_t b = 0; b < rm.batch; ++b)
              for (std::int64_t j = 0; j < rm.cols; ++j) {
                for (std::int64_t i = j + 1; i < rm.rows; ++i)
                  EXPECT_EQ(rm.at(b, i, j), cd(0)) << "R lower part";
                if (gauge == la::QrGauge::PositiveDiagonal && j < k) {
                  EXPECT_EQ(rm.at(b, j, j).imag(), 0.0);
                  EXPECT_GE(rm.at(b, j, j).real(), 0.0);
                }
              }
          }
}

TEST_F(LinalgCudaTest, QrOfAStridedInputMatchesTheCompactOne) {
  const Tensor host = random_tensor(DType::C64, {5, 7}, 3);
  const EagerTensor transposed =
      runtime_->upload(host.permute({1, 0}).clone()).permute(std::vector<std::int64_t>{1, 0});
  ASSERT_FALSE(transposed.layout().is_compact());
  const auto [q, r] = la::qr(transposed);
  expect_close(multiply(matrices(q), matrices(r)), matrices(runtime_->upload(host)),
               tol(DType::C64, 7), 0, "A = Q R");
}

void check_svd(const std::shared_ptr<EagerRuntime>& rt, const EagerTensor& a,
               const la::SvdResult& res, DType dtype, std::int64_t m, std::int64_t n, bool full) {
  const std::int64_t k = std::min(m, n);
  const Mats am = matrices(a), um = matrices(res.u), vhm = matrices(res.vh), sm = vectors(res.s);
  ASSERT_EQ(um.cols, full ? m : k);
  ASSERT_EQ(vhm.rows, full ? n : k);
  expect_close(multiply(adjoint(um), um), identity(um.cols, um.batch), tol(dtype, m), 0, "U^H U");
  expect_close(multiply(vhm, adjoint(vhm)), identity(vhm.rows, vhm.batch), tol(dtype, n), 0,
               "Vh Vh^H");
  // A = U[:, :k] diag(S) Vh[:k, :]
  Mats us{m, k, am.batch, std::vector<cd>(static_cast<std::size_t>(m * k * am.batch))};
  Mats vk{k, n, am.batch, std::vector<cd>(static_cast<std::size_t>(k * n * am.batch))};
  for (std::int64_t b = 0; b < am.batch; ++b) {
    for (std::int64_t j = 0; j < k; ++j) {
      const double sj = sm.at(b, j, 0).real();
      EXPECT_EQ(sm.at(b, j, 0).imag(), 0.0);
      EXPECT_GE(sj, 0.0);
      if (j > 0) {
        EXPECT_LE(sj, sm.at(b, j - 1, 0).real() * (1 + tol(dtype, k))) << "descending";
      }
      for (std::int64_t i = 0; i < m; ++i) us.at(b, i, j) = um.at(b, i, j) * sj;
      for (std::int64_t c = 0; c < n; ++c) vk.at(b, j, c) = vhm.at(b, j, c);
    }
  }
  double scale = 0;
  for (std::int64_t b = 0; b < am.batch; ++b) scale = std::max(scale, norm(am, b));
  expect_close(multiply(us, vk), am, tol(dtype, std::max(m, n)), scale, "A = U S Vh");
  // Singular values agree with the CPU runtime's.
  auto cpu = EagerRuntime::cpu();
  const la::SvdResult want = la::svd(cpu->upload(a.download()));
  expect_close(sm, vectors(want.s), tol(dtype, std::max(m, n)), scale, "S vs the CPU runtime");
  for (const cd& w : scalars(res.discarded_weight)) EXPECT_EQ(w, cd(0));
  (void)rt;
}

TEST_F(LinalgCudaTest, SvdReconstructsOnTheDeviceForEveryDtype) {
  std::uint32_t seed = 500;
  // Up to 32 x 32 with a batch: the batched Jacobi path; larger: gesvdj per entry.
  const std::vector<Size> sizes{{1, 1}, {4, 4}, {6, 3}, {3, 6}, {32, 20}, {45, 33}, {20, 50}};
  for (DType dtype : tenferro::kAllDTypes)
    for (const Shape& batch : {Shape{}, Shape{3}, Shape{2, 2}})
      for (const Size& s : sizes)
        for (bool full : {false, true}) {
          SCOPED_TRACE(case_name(dtype, batch, s.m, s.n) + (full ? " full" : " thin"));
          const EagerTensor a =
              runtime_->upload(random_tensor(dtype, with_batch({s.m, s.n}, batch), seed++));
          la::SvdOptions options;
          options.full_matrices = full;
          begin();
          const la::SvdResult res = la::svd(a, options);
          expect_device_only({&res.u, &res.s, &res.vh, &res.discarded_weight});
          EXPECT_EQ(res.s.dtype(), tenferro::real_dtype(dtype));
          check_svd(runtime_, a, res, dtype, s.m, s.n, full);
        }
}

TEST_F(LinalgCudaTest, SvdValuesOnlyAndEmptyShapes) {
  const EagerTensor a = runtime_->upload(random_tensor(DType::F64, {7, 5, 2}, 9));
  la::SvdOptions options;
  options.compute_uv = false;
  begin();
  const la::SvdResult res = la::svd(a, options);
  expect_device_only({&res.s, &res.discarded_weight});
  EXPECT_FALSE(res.u.defined());
  const la::SvdResult with_uv = la::svd(a);
  expect_close(vectors(res.s), vectors(with_uv.s), tol(DType::F64, 7), 1, "S without U, V");
  // Full SVD of a 3x0 matrix: no singular values, identity bases.
  la::SvdOptions full;
  full.full_matrices = true;
  const la::SvdResult empty = la::svd(runtime_->upload(Tensor::zeros(DType::C32, {3, 0})), full);
  EXPECT_EQ(empty.s.numel(), 0);
  expect_close(matrices(empty.u), identity(3, 1), 0, 0, "U of an empty matrix");
}

// [m, n, batch...] matrices with singular values decay^j, the decay cycling 0.7, 0.5, 0.8 over
// the batch entries (so a batch's common rank is not its first entry's), and random singular
// vectors: cutoffs have known ranks, and once the gauge is fixed the factors of two backends can
// be compared vector by vector within each vector's conditioning (expect_singular_vectors_close).
Tensor with_spectrum(DType dtype, std::int64_t m, std::int64_t n, const Shape& batch,
                     std::uint32_t seed) {
  auto cpu = EagerRuntime::cpu();
  const std::int64_t k = std::min(m, n);
  auto basis = [&](std::int64_t rows, std::uint32_t s) {
    return matrices(la::qr(cpu->upload(random_tensor(dtype, with_batch({rows, k}, batch), s))).q);
  };
  Mats left = basis(m, seed);
  const Mats right = basis(n, seed + 1);
  constexpr double kDecay[] = {0.7, 0.5, 0.8};
  for (std::int64_t b = 0; b < left.batch; ++b)
    for (std::int64_t j = 0; j < k; ++j)
      for (std::int64_t i = 0; i < m; ++i) left.at(b, i, j) *= std::pow(kDecay[b % 3], double(j));
  return tensor_from(dtype, with_batch({m, n}, batch), multiply(left, adjoint(right)).data);
}

// The leading rows x cols block of every matrix.
Mats leading(const Mats& a, std::int64_t rows, std::int64_t cols) {
  Mats out{rows, cols, a.batch, std::vector<cd>(static_cast<std::size_t>(rows * cols * a.batch))};
  for (std::int64_t b = 0; b < a.batch; ++b)
    for (std::int64_t j = 0; j < cols; ++j)
      for (std::int64_t i = 0; i < rows; ++i) out.at(b, i, j) = a.at(b, i, j);
  return out;
}

// U[:, :r] diag(S) Vh[:r, :] of a result with r singular values (thin, full or truncated):
// independent of the singular vectors' gauge and of a full basis's extra columns.
Mats product_of(const la::SvdResult& res) {
  const Mats s = vectors(res.s);
  const Mats u = matrices(res.u), vh = matrices(res.vh);
  Mats us = leading(u, u.rows, s.rows);
  for (std::int64_t b = 0; b < us.batch; ++b)
    for (std::int64_t j = 0; j < us.cols; ++j)
      for (std::int64_t i = 0; i < us.rows; ++i) us.at(b, i, j) *= s.at(b, j, 0);
  return multiply(us, leading(vh, s.rows, vh.cols));
}

la::SvdOptions truncation(std::optional<std::int64_t> max_rank, la::CutoffKind kind = {},
                          double cutoff = 0, std::int64_t min_rank = 0) {
  la::SvdOptions o;
  o.truncation.max_rank = max_rank;
  o.truncation.cutoff_kind = kind;
  o.truncation.cutoff = cutoff;
  o.truncation.min_rank = min_rank;
  return o;
}

// The canonical gauge on the device's own U: the largest-magnitude entry of each kept column is
// real and positive (a check that holds however ill-conditioned the vector is).
void expect_canonical_gauge(const Mats& u, std::int64_t kept, double tolerance) {
  for (std::int64_t b = 0; b < u.batch; ++b)
    for (std::int64_t j = 0; j < kept; ++j) {
      std::int64_t top = 0;
      for (std::int64_t i = 1; i < u.rows; ++i)
        if (std::abs(u.at(b, i, j)) > std::abs(u.at(b, top, j))) top = i;
      EXPECT_GT(u.at(b, top, j).real(), 0.0) << "column " << j << " of batch entry " << b;
      EXPECT_LE(std::abs(u.at(b, top, j).imag()), tolerance)
          << "column " << j << " of batch entry " << b;
    }
}

// The kept singular vectors (columns of U, rows of Vh) against the CPU's, each within the
// perturbation bound of a vector whose singular value lies `gap` from every other one: the
// backward error times s_max / gap (Wedin). Two backends' algorithms agree on a vector only that
// far: relative gaps do not make it well conditioned, absolute ones do (a spectrum decaying by
// 0.5 leaves gaps of 0.5^16 at the tail, and those vectors differ by ~1e-10 in double precision
// between LAPACK and cuSOLVER). Where the bound reaches 1 (two unit vectors are at most 2 apart)
// the comparison says nothing; those vectors are left to expect_canonical_gauge, and the
// product U S Vh covers their contribution.
void expect_singular_vectors_close(const Mats& got, const Mats& want, const Mats& s_all,
                                   bool columns, double tolerance, const std::string& what) {
  const std::int64_t kept = columns ? got.cols : got.rows;
  const std::int64_t length = columns ? got.rows : got.cols;
  for (std::int64_t b = 0; b < got.batch; ++b) {
    const double s_max = s_all.at(b, 0, 0).real();
    for (std::int64_t j = 0; j < kept && j < s_all.rows; ++j) {
      double gap = std::numeric_limits<double>::infinity();
      for (std::int64_t i = 0; i < s_all.rows; ++i) {
        if (i != j)
          gap = std::min(gap, std::abs(s_all.at(b, j, 0).real() - s_all.at(b, i, 0).real()));
      }
      const double bound = tolerance * 2 * s_max / std::max(gap, 1e-300);
      if (bound >= 1) continue;
      double diff = 0;
      for (std::int64_t i = 0; i < length; ++i) {
        diff += std::norm(columns ? got.at(b, i, j) - want.at(b, i, j)
                                  : got.at(b, j, i) - want.at(b, j, i));
      }
      EXPECT_LE(std::sqrt(diff), bound)
          << what << " vector " << j << " of batch entry " << b << " (gap " << gap << ")";
    }
  }
}

// The CUDA result against the CPU runtime's for the same input and options: same rank, S and
// discarded weight; the same U S Vh; with the canonical gauge, the same singular vectors (the
// first r columns of U and rows of Vh: a full basis's remaining ones are not unique).
void expect_svd_matches_cpu(const Tensor& host, const la::SvdResult& got,
                            const la::SvdOptions& options, DType dtype) {
  auto cpu = EagerRuntime::cpu();
  const la::SvdResult want = la::svd(cpu->upload(host), options);
  const std::int64_t extent = std::max(host.shape()[0], host.shape()[1]);
  const double t = tol(dtype, extent);
  ASSERT_EQ(got.s.shape(), want.s.shape()) << "the kept rank";
  expect_close(vectors(got.s), vectors(want.s), t, 1, "S");
  const std::vector<cd> weight = scalars(got.discarded_weight);
  const std::vector<cd> want_weight = scalars(want.discarded_weight);
  ASSERT_EQ(weight.size(), want_weight.size());
  for (std::size_t b = 0; b < weight.size(); ++b) {
    EXPECT_NEAR(weight[b].real(), want_weight[b].real(), t * 4) << "discarded weight " << b;
  }
  if (!options.compute_uv) {
    EXPECT_FALSE(got.u.defined());
    return;
  }
  ASSERT_EQ(got.u.shape(), want.u.shape());
  ASSERT_EQ(got.vh.shape(), want.vh.shape());
  expect_close(product_of(got), product_of(want), t, 1, "U S Vh");
  if (options.gauge == la::SvdGauge::Canonical) {
    la::SvdOptions all_values;
    all_values.compute_uv = false;
    const Mats s_all = vectors(la::svd(cpu->upload(host), all_values).s);
    expect_canonical_gauge(matrices(got.u), got.s.shape()[0], t);
    expect_singular_vectors_close(matrices(got.u), matrices(want.u), s_all, true, 10 * t,
                                  "canonical U");
    expect_singular_vectors_close(matrices(got.vh), matrices(want.vh), s_all, false, 10 * t,
                                  "canonical Vh");
  }
}

void LinalgCudaTest::expect_device_svd(const Tensor& host, const la::SvdOptions& options) {
  const EagerTensor a = runtime_->upload(host);
  begin();
  const la::SvdResult res = la::svd(a, options);
  if (options.compute_uv) {
    expect_device_only({&res.u, &res.s, &res.vh, &res.discarded_weight});
  } else {
    expect_device_only({&res.s, &res.discarded_weight});
  }
  expect_svd_matches_cpu(host, res, options, host.dtype());
}

TEST_F(LinalgCudaTest, TruncationAndCanonicalGaugeRunOnTheDeviceAndMatchTheCpuRuntime) {
  using K = la::CutoffKind;
  la::SvdOptions canonical;
  canonical.gauge = la::SvdGauge::Canonical;
  la::SvdOptions canonical_full = canonical;
  canonical_full.full_matrices = true;
  la::SvdOptions canonical_cut = truncation(3);
  canonical_cut.gauge = la::SvdGauge::Canonical;
  la::SvdOptions values_only = truncation(2);
  values_only.compute_uv = false;
  // With decays 0.7, 0.5, 0.8 the relative cutoff 0.5 keeps ranks 2, 1 and 4: the batch keeps 4.
  const std::vector<std::pair<const char*, la::SvdOptions>> cases{
      {"max_rank 3", truncation(3)},
      {"max_rank 0", truncation(0)},
      {"relative singular value 0.5", truncation({}, K::RelativeSingularValue, 0.5)},
      {"absolute singular value 0.1, max_rank 5", truncation(5, K::AbsoluteSingularValue, 0.1)},
      {"relative weight 0.05, min_rank 4", truncation({}, K::RelativeDiscardedWeight, 0.05, 4)},
      {"absolute weight 0.01", truncation({}, K::AbsoluteDiscardedWeight, 0.01)},
      {"max_rank above min(m, n)", truncation(1000)},
      {"canonical gauge", canonical},
      {"canonical gauge, full matrices", canonical_full},
      {"canonical gauge, max_rank 3", canonical_cut},
      {"values only, max_rank 2", values_only},
  };
  std::uint32_t seed = 900;
  // Batched Jacobi (<= 32), per-entry Jacobi, and a wide matrix.
  const std::vector<Size> sizes{{6, 4}, {40, 17}, {17, 40}};
  for (DType dtype : tenferro::kAllDTypes)
    for (const Shape& batch : {Shape{}, Shape{3}})
      for (const Size& s : sizes)
        for (const auto& [name, options] : cases) {
          SCOPED_TRACE(case_name(dtype, batch, s.m, s.n) + " " + name);
          expect_device_svd(with_spectrum(dtype, s.m, s.n, batch, seed), options);
          seed += 2;
        }
  // An empty batch keeps min(k, max_rank) and computes nothing.
  const EagerTensor empty = runtime_->upload(Tensor::zeros(DType::C64, {5, 4, 0}));
  const la::SvdResult none = la::svd(empty, truncation(2));
  EXPECT_EQ(none.s.shape(), (Shape{2, 0}));
  EXPECT_EQ(none.u.shape(), (Shape{5, 2, 0}));
  EXPECT_EQ(none.vh.shape(), (Shape{2, 4, 0}));
  EXPECT_EQ(none.discarded_weight.shape(), (Shape{0}));
}

// Hardware-independent: which cuSOLVER driver each shape gets (the tests above pick their
// sizes from these constants so each driver keeps its coverage).
TEST(CudaSvdDrivers, ChosenByShape) {
  using namespace tenferro::linalg_cuda;
  auto driver = [](std::int64_t m, std::int64_t n) {
    SvdDims dims;
    dims.m = m;
    dims.n = n;
    dims.k = std::min(m, n);
    return svd_driver(dims);
  };
  EXPECT_EQ(driver(kBatchedJacobiMaxExtent, kBatchedJacobiMaxExtent), SvdDriver::JacobiBatched);
  EXPECT_EQ(driver(1, kBatchedJacobiMaxExtent), SvdDriver::JacobiBatched);
  EXPECT_EQ(driver(kBatchedJacobiMaxExtent + 1, 4), SvdDriver::Jacobi);
  EXPECT_EQ(driver(4, kGesvdMinExtent * 4), SvdDriver::Jacobi) << "gesvd only when both are large";
  EXPECT_EQ(driver(kGesvdMinExtent - 1, kGesvdMinExtent * 2), SvdDriver::Jacobi);
  EXPECT_EQ(driver(kGesvdMinExtent, kGesvdMinExtent), SvdDriver::Gesvd);
  EXPECT_EQ(driver(kGesvdMinExtent, kGesvdMinExtent + 24), SvdDriver::Gesvd);
  EXPECT_STREQ(driver_name(SvdDriver::Gesvd), "gesvd");
  EXPECT_STREQ(driver_name(SvdDriver::Jacobi), "gesvdj");
  EXPECT_STREQ(driver_name(SvdDriver::JacobiBatched), "gesvdjBatched");
}

TEST_F(LinalgCudaTest, LargeMatricesTakeGesvdAndStillMatchTheCpuRuntime) {
  using namespace tenferro::linalg_cuda;
  const std::int64_t big = kGesvdMinExtent, bigger = kGesvdMinExtent + 24;
  la::SvdOptions full;
  full.full_matrices = true;
  la::SvdOptions values_only;
  values_only.compute_uv = false;
  la::SvdOptions cut = truncation(8);
  cut.gauge = la::SvdGauge::Canonical;
  struct Case {
    DType dtype;
    std::int64_t m, n;
    Shape batch;
    la::SvdOptions options;
    const char* name;
  };
  // Tall and wide (solved as A^H), thin, full and values only, batched and not, every dtype;
  // then truncation and the canonical gauge after gesvd.
  const std::vector<Case> cases{
      {DType::F64, bigger, big, {}, {}, "thin"},
      {DType::C32, big, bigger, {}, full, "full"},
      {DType::F32, bigger, big, {2}, full, "full"},
      {DType::C64, big, bigger, {2}, {}, "thin"},
      {DType::F64, big, bigger, {2}, values_only, "values only"},
      {DType::C64, bigger, big, {}, cut, "max_rank 8, canonical"},
      {DType::C32, big, bigger, {2}, cut, "max_rank 8, canonical"},
  };
  std::uint32_t seed = 1200;
  for (const Case& c : cases) {
    SCOPED_TRACE(case_name(c.dtype, c.batch, c.m, c.n) + " " + c.name);
    SvdDims dims;
    dims.m = c.m;
    dims.n = c.n;
    ASSERT_EQ(svd_driver(dims), SvdDriver::Gesvd);
    expect_device_svd(with_spectrum(c.dtype, c.m, c.n, c.batch, seed), c.options);
    seed += 2;
  }
}

// A Hermitian (eigh) or Hermitian positive-definite (cholesky) batch: A + A^H, or
// A A^H + n I, built on the host from a random A.
Tensor hermitian(DType dtype, std::int64_t n, const Shape& batch, std::uint32_t seed,
                 bool definite) {
  const Mats a = matrices_of(random_tensor(dtype, with_batch({n, n}, batch), seed));
  Mats h = definite ? multiply(a, adjoint(a)) : a;
  const Mats ah = adjoint(a);
  for (std::int64_t b = 0; b < h.batch; ++b)
    for (std::int64_t j = 0; j < n; ++j)
      for (std::int64_t i = 0; i < n; ++i) {
        if (!definite) h.at(b, i, j) += ah.at(b, i, j);
        if (definite && i == j) h.at(b, i, j) += static_cast<double>(n);
      }
  return tensor_from(dtype, with_batch({n, n}, batch), h.data);
}

TEST_F(LinalgCudaTest, EighDecomposesOnTheDevice) {
  std::uint32_t seed = 700;
  for (DType dtype : tenferro::kAllDTypes)
    for (const Shape& batch : {Shape{}, Shape{3}, Shape{0}})
      for (std::int64_t n : {std::int64_t{1}, std::int64_t{5}, std::int64_t{40}})
        for (bool values_only : {false, true}) {
          SCOPED_TRACE(case_name(dtype, batch, n, n) + (values_only ? " values only" : ""));
          const Tensor host = hermitian(dtype, n, batch, seed++, false);
          const EagerTensor a = runtime_->upload(host);
          begin();
          const la::EighResult res = la::eigh(a, {values_only});
          // Checked right after the call: the downloads and the CPU eigh below move counters.
          if (values_only) {
            expect_device_only({&res.w});
          } else {
            expect_device_only({&res.w, &res.v});
          }
          const Mats wm = vectors(res.w);
          const la::EighResult want = la::eigh(EagerRuntime::cpu()->upload(host), {true});
          const Mats am = matrices(a);
          double scale = 0;
          for (std::int64_t b = 0; b < am.batch; ++b) scale = std::max(scale, norm(am, b));
          expect_close(wm, vectors(want.w), tol(dtype, n), scale, "w vs the CPU runtime");
          for (std::int64_t b = 0; b < wm.batch; ++b)
            for (std::int64_t i = 1; i < n; ++i)
              EXPECT_LE(wm.at(b, i - 1, 0).real(), wm.at(b, i, 0).real());
          if (values_only) continue;
          const Mats vm = matrices(res.v);
          expect_close(multiply(adjoint(vm), vm), identity(n, vm.batch), tol(dtype, n), 0, "V^H V");
          Mats vw = vm;
          for (std::int64_t b = 0; b < vm.batch; ++b)
            for (std::int64_t j = 0; j < n; ++j)
              for (std::int64_t i = 0; i < n; ++i) vw.at(b, i, j) *= wm.at(b, j, 0).real();
          expect_close(multiply(am, vm), vw, tol(dtype, n), scale, "A V = V diag(w)");
        }
}

TEST_F(LinalgCudaTest, CholeskyFactorsOnTheDeviceAndRefusesIndefiniteMatrices) {
  std::uint32_t seed = 800;
  for (DType dtype : tenferro::kAllDTypes)
    for (const Shape& batch : {Shape{}, Shape{2, 2}})
      for (std::int64_t n : {std::int64_t{0}, std::int64_t{1}, std::int64_t{6}, std::int64_t{35}}) {
        SCOPED_TRACE(case_name(dtype, batch, n, n));
        const EagerTensor a = runtime_->upload(hermitian(dtype, n, batch, seed++, true));
        begin();
        const EagerTensor l = la::cholesky(a);
        expect_device_only({&l});
        const Mats lm = matrices(l), am = matrices(a);
        for (std::int64_t b = 0; b < lm.batch; ++b)
          for (std::int64_t j = 0; j < n; ++j)
            for (std::int64_t i = 0; i < j; ++i) EXPECT_EQ(lm.at(b, i, j), cd(0)) << "upper part";
        double scale = 0;
        for (std::int64_t b = 0; b < am.batch; ++b) scale = std::max(scale, norm(am, b));
        expect_close(multiply(lm, adjoint(lm)), am, tol(dtype, n), scale, "L L^H = A");
      }
  Tensor indefinite = tensor_from(DType::F64, {2, 2, 2}, {4, 0, 0, 4, 1, 2, 2, 1});
  const tenferro::Error e = expect_error([&] { la::cholesky(runtime_->upload(indefinite)); },
                                         tenferro::ErrorKind::Numerical);
  EXPECT_NE(std::string(e.what()).find("batch entry 1"), std::string::npos) << e.what();
}

TEST_F(LinalgCudaTest, SolveAndInvOnTheDevice) {
  std::uint32_t seed = 900;
  for (DType dtype : tenferro::kAllDTypes)
    for (const Shape& batch : {Shape{}, Shape{3}})
      for (std::int64_t n : {std::int64_t{1}, std::int64_t{4}, std::int64_t{33}}) {
        SCOPED_TRACE(case_name(dtype, batch, n, n));
        const EagerTensor a = runtime_->upload(hermitian(dtype, n, batch, seed++, true));
        const EagerTensor bv =
            runtime_->upload(random_tensor(dtype, with_batch({n}, batch), seed++));
        const EagerTensor bm =
            runtime_->upload(random_tensor(dtype, with_batch({n, 3}, batch), seed++));
        const Mats am = matrices(a);
        double scale = 0;
        for (std::int64_t b = 0; b < am.batch; ++b) scale = std::max(scale, norm(am, b));
        begin();
        const EagerTensor x = la::solve(a, bm);
        expect_device_only({&x});
        expect_close(multiply(am, matrices(x)), matrices(bm), tol(dtype, n), scale, "A X = B");
        const EagerTensor xv = la::solve(a, bv);
        expect_close(multiply(am, vectors(xv)), vectors(bv), tol(dtype, n), scale, "A x = b");
        begin();
        const EagerTensor ai = la::inv(a);
        expect_device_only({&ai});
        expect_close(multiply(am, matrices(ai)), identity(n, am.batch), tol(dtype, n), scale,
                     "A A^-1 = I");
      }
  const EagerTensor singular = runtime_->upload(Tensor::zeros(DType::C32, {3, 3, 2}));
  expect_error([&] { la::inv(singular); }, tenferro::ErrorKind::Numerical);
  expect_error(
      [&] {
        la::solve(singular, runtime_->upload(Tensor::zeros(DType::C32, {3, 2})));
      },
      tenferro::ErrorKind::Numerical);
}

TEST_F(LinalgCudaTest, DetAndSlogdetMatchTheCpuRuntime) {
  std::uint32_t seed = 1000;
  auto cpu = EagerRuntime::cpu();
  for (DType dtype : tenferro::kAllDTypes)
    for (const Shape& batch : {Shape{}, Shape{4}})
      for (std::int64_t n : {std::int64_t{0}, std::int64_t{1}, std::int64_t{5}}) {
        SCOPED_TRACE(case_name(dtype, batch, n, n));
        const Tensor host = random_tensor(dtype, with_batch({n, n}, batch), seed++);
        const EagerTensor a = runtime_->upload(host);
        begin();
        const EagerTensor det = la::det(a);
        expect_device_only({&det});
        begin();
        const la::SlogdetResult sl = la::slogdet(a);
        expect_device_only({&sl.sign, &sl.logabsdet});
        const EagerTensor want_det = la::det(cpu->upload(host));
        const la::SlogdetResult want_sl = la::slogdet(cpu->upload(host));
        const std::vector<cd> got = scalars(det), want = scalars(want_det);
        ASSERT_EQ(got.size(), want.size());
        for (std::size_t i = 0; i < got.size(); ++i)
          EXPECT_LE(std::abs(got[i] - want[i]), tol(dtype, n) * (std::abs(want[i]) + 1)) << i;
        const std::vector<cd> gs = scalars(sl.sign), ws = scalars(want_sl.sign);
        const std::vector<cd> gl = scalars(sl.logabsdet), wl = scalars(want_sl.logabsdet);
        for (std::size_t i = 0; i < gs.size(); ++i) {
          EXPECT_LE(std::abs(gs[i] - ws[i]), tol(dtype, n)) << i;
          EXPECT_LE(std::abs(gl[i] - wl[i]), tol(dtype, n) * (std::abs(wl[i]) + 1)) << i;
        }
      }
  const EagerTensor singular = runtime_->upload(Tensor::zeros(DType::F64, {3, 3}));
  EXPECT_EQ(scalars(la::det(singular)).at(0), cd(0));
  const la::SlogdetResult sl = la::slogdet(singular);
  EXPECT_EQ(scalars(sl.sign).at(0), cd(0));
  EXPECT_EQ(scalars(sl.logabsdet).at(0).real(), -std::numeric_limits<double>::infinity());
}

TEST_F(LinalgCudaTest, LuFactorsOnTheDevice) {
  std::uint32_t seed = 1100;
  const std::vector<Size> sizes{{1, 1}, {4, 4}, {6, 3}, {3, 6}, {3, 0}, {37, 37}};
  for (DType dtype : tenferro::kAllDTypes)
    for (const Shape& batch : {Shape{}, Shape{3}})
      for (const Size& s : sizes) {
        SCOPED_TRACE(case_name(dtype, batch, s.m, s.n));
        const EagerTensor a =
            runtime_->upload(random_tensor(dtype, with_batch({s.m, s.n}, batch), seed++));
        begin();
        const la::LuResult f = la::lu(a);
        expect_device_only({&f.p, &f.l, &f.u});
        const std::int64_t k = std::min(s.m, s.n);
        const Mats pm = matrices(f.p), lm = matrices(f.l), um = matrices(f.u), am = matrices(a);
        ASSERT_EQ(lm.cols, k);
        ASSERT_EQ(um.rows, k);
        expect_close(multiply(adjoint(pm), pm), identity(s.m, pm.batch), 0, 0,
                     "P is a permutation");
        for (std::int64_t b = 0; b < lm.batch; ++b) {
          for (std::int64_t j = 0; j < k; ++j) {
            EXPECT_EQ(lm.at(b, j, j), cd(1)) << "unit diagonal";
            for (std::int64_t i = 0; i < j; ++i) EXPECT_EQ(lm.at(b, i, j), cd(0));
          }
          for (std::int64_t j = 0; j < s.n; ++j)
            for (std::int64_t i = j + 1; i < k; ++i) EXPECT_EQ(um.at(b, i, j), cd(0));
        }
        double scale = 0;
        for (std::int64_t b = 0; b < am.batch; ++b) scale = std::max(scale, norm(am, b));
        expect_close(multiply(pm, multiply(lm, um)), am, tol(dtype, std::max(s.m, s.n)), scale,
                     "A = P L U");
      }
}

TEST_F(LinalgCudaTest, TriangularSolveOnEverySideTriangleAndOp) {
  std::uint32_t seed = 1200;
  auto cpu = EagerRuntime::cpu();
  for (DType dtype : tenferro::kAllDTypes)
    for (bool lower : {true, false})
      for (bool left : {true, false})
        for (la::TriangularOp op : {la::TriangularOp::None, la::TriangularOp::Transpose,
                                    la::TriangularOp::ConjugateTranspose})
          for (bool unit : {false, true})
            for (bool vector : {false, true}) {
              const std::int64_t n = 6, k = 4;
              SCOPED_TRACE(std::string(tenferro::dtype_name(dtype)) +
                           (lower ? " lower" : " upper") + (left ? " left" : " right") + " op " +
                           std::to_string(int(op)) + (unit ? " unit" : "") +
                           (vector ? " vector" : ""));
              // A well-conditioned triangle: random entries plus n on the diagonal.
              Mats am = matrices_of(random_tensor(dtype, {n, n, 2}, seed++));
              for (std::int64_t b = 0; b < 2; ++b)
                for (std::int64_t i = 0; i < n; ++i) am.at(b, i, i) += static_cast<double>(n);
              const Tensor a_host = tensor_from(dtype, {n, n, 2}, am.data);
              const Shape b_shape = vector ? Shape{n, 2} : (left ? Shape{n, k, 2} : Shape{k, n, 2});
              const Tensor b_host = random_tensor(dtype, b_shape, seed++);
              const la::TriangularSolveOptions options{lower, left, op, unit};
              const EagerTensor a = runtime_->upload(a_host), b = runtime_->upload(b_host);
              begin();
              const EagerTensor x = la::triangular_solve(a, b, options);
              expect_device_only({&x});
              const EagerTensor want =
                  la::triangular_solve(cpu->upload(a_host), cpu->upload(b_host), options);
              const Tensor got_host = x.download(), want_host = want.download();
              const Mats g{1, got_host.numel(), 1, widen(got_host)},
                  w{1, want_host.numel(), 1, widen(want_host)};
              expect_close(g, w, tol(dtype, n), norm(w, 0), "X vs the CPU runtime");
            }
  Tensor singular = random_tensor(DType::F64, {3, 3}, 5);
  singular.data<double>()[4] = 0;  // A[1, 1]
  const tenferro::Error e = expect_error(
      [&] {
        la::triangular_solve(runtime_->upload(singular),
                             runtime_->upload(random_tensor(DType::F64, {3, 2}, 6)));
      },
      tenferro::ErrorKind::Numerical);
  EXPECT_NE(std::string(e.what()).find("diagonal entry 1"), std::string::npos) << e.what();
}

TEST_F(LinalgCudaTest, NonFiniteInputIsANumericalError) {
  Tensor host = random_tensor(DType::F32, {4, 4, 3}, 2);
  host.data<float>()[16 * 2 + 5] = std::numeric_limits<float>::quiet_NaN();
  const EagerTensor a = runtime_->upload(host);
  const tenferro::Error e = expect_error([&] { la::qr(a); }, tenferro::ErrorKind::Numerical);
  EXPECT_NE(std::string(e.what()).find("batch entry 2"), std::string::npos) << e.what();
  expect_error([&] { la::svd(a); }, tenferro::ErrorKind::Numerical);
  // lstsq checks A and B: a NaN in B's batch entry 1 is reported as such.
  const EagerTensor clean = runtime_->upload(random_tensor(DType::F32, {4, 4, 3}, 3));
  Tensor rhs = random_tensor(DType::F32, {4, 3}, 4);
  rhs.data<float>()[4 * 1 + 2] = std::numeric_limits<float>::infinity();
  const tenferro::Error l = expect_error([&] { la::lstsq(clean, runtime_->upload(rhs)); },
                                         tenferro::ErrorKind::Numerical);
  EXPECT_NE(std::string(l.what()).find("batch entry 1"), std::string::npos) << l.what();
  const tenferro::Error la_ = expect_error(
      [&] {
        la::lstsq(a, runtime_->upload(random_tensor(DType::F32, {4, 3}, 5)));
      },
      tenferro::ErrorKind::Numerical);
  EXPECT_NE(std::string(la_.what()).find("batch entry 2"), std::string::npos) << la_.what();
}

TEST_F(LinalgCudaTest, OpsWithoutACudaImplementationAreRefusedBeforeAnythingRuns) {
  const EagerTensor a = runtime_->upload(random_tensor(DType::F64, {4, 4}, 1));
  const RuntimeStats before = runtime_->stats();
  const tenferro::Error e = expect_error([&] { la::eig(a); }, tenferro::ErrorKind::Unsupported);
  EXPECT_NE(std::string(e.what()).find("eig"), std::string::npos) << e.what();
  EXPECT_EQ(runtime_->stats().kernel_launches_for(kLinalgOnCuda),
            before.kernel_launches_for(kLinalgOnCuda))
      << "refused before the executor recorded a launch";
}

// ---- lstsq --------------------------------------------------------------------------------

// One eager lstsq_with_rank of host A and B on the device, checked for residency (no transfer,
// no CPU kernel, at most one status read-back) and for the result shapes and dtypes.
la::LstsqResult LinalgCudaTest::device_lstsq(const Tensor& a_host, const Tensor& b_host,
                                             const la::LstsqOptions& options) {
  const EagerTensor a = runtime_->upload(a_host), b = runtime_->upload(b_host);
  begin();
  la::LstsqResult r = la::lstsq_with_rank(a, b, options);
  expect_device_only({&r.x, &r.rank, &r.s});
  const Shape& as = a_host.shape();
  const Shape batch(as.begin() + 2, as.end());
  const bool vector = b_host.rank() + 1 == a_host.rank();
  EXPECT_EQ(r.x.shape(),
            vector ? with_batch({as[1]}, batch) : with_batch({as[1], b_host.shape()[1]}, batch));
  EXPECT_EQ(r.x.dtype(), a_host.dtype());
  EXPECT_EQ(r.rank.shape(), batch);
  EXPECT_EQ(r.rank.dtype(), tenferro::real_dtype(a_host.dtype()));
  EXPECT_EQ(r.s.shape(), with_batch({std::min(as[0], as[1])}, batch));
  EXPECT_EQ(r.s.dtype(), tenferro::real_dtype(a_host.dtype()));
  return r;
}

// The device result against the CPU runtime's (gelsd) for the same inputs: the same ranks
// exactly, singular values within tol * s_max, X within `x_tol` (absolute, per batch entry).
void expect_lstsq_matches_cpu(const la::LstsqResult& got, const Tensor& a_host,
                              const Tensor& b_host, const la::LstsqOptions& options, double s_tol,
                              double x_tol) {
  auto cpu = EagerRuntime::cpu();
  const la::LstsqResult want =
      la::lstsq_with_rank(cpu->upload(a_host), cpu->upload(b_host), options);
  const std::vector<cd> got_rank = scalars(got.rank), want_rank = scalars(want.rank);
  ASSERT_EQ(got_rank.size(), want_rank.size());
  for (std::size_t i = 0; i < got_rank.size(); ++i)
    EXPECT_EQ(got_rank[i], want_rank[i]) << "rank vs the CPU runtime, batch entry " << i;
  expect_close(vectors(got.s), vectors(want.s), s_tol, 0, "s vs the CPU runtime");
  const Tensor gx = got.x.download(), wx = want.x.download();
  ASSERT_EQ(gx.shape(), wx.shape());
  const Mats g{1, gx.numel(), 1, widen(gx)}, w{1, wx.numel(), 1, widen(wx)};
  expect_close(g, w, x_tol, 0, "X vs the CPU runtime");
}

// A = U diag(s) V^H built from known orthonormal factors with r = s.size() nonzero singular
// values: X must be the exact pseudo-inverse solution V diag(1/s) U^H B, the rank r, and s
// A's singular values (zeros past r). Tall, wide, square, rank 0, full rank; sizes that take
// the batched Jacobi (<= 32) and the per-entry gesvdj (> 32); batched; every dtype; vector
// and matrix B; and the CPU runtime gives the same X, rank and s.
TEST_F(LinalgCudaTest, LstsqGivesThePseudoInverseSolutionOfMatricesWithKnownFactors) {
  struct Case {
    std::int64_t m, n;
    std::vector<double> s;  // the nonzero singular values, descending; rank = s.size()
    std::optional<double> rcond;
  };
  auto decaying = [](int count) {
    std::vector<double> s;
    for (int i = 0; i < count; ++i) s.push_back(2.0 * std::pow(0.93, i));
    return s;
  };
  // The > 32 cases are cut at rcond 1e-4: their zero singular values come back at the
  // solver's rounding level (~ n eps s_max), which for F32 is too close to the default
  // eps * max(m, n) cutoff for a test that must not be flaky.
  const std::vector<Case> cases{{7, 5, {2.0, 1.0, 0.5}, {}},
                                {5, 7, {3.0, 0.75}, {}},
                                {6, 6, {1.5, 1.0, 0.8, 0.4}, {}},
                                {3, 4, {}, {}},
                                {7, 5, {2.0, 1.5, 1.0, 0.8, 0.5}, {}},
                                {4, 9, {2.0, 1.2, 1.0, 0.6}, {}},
                                {1, 1, {0.7}, {}},
                                {40, 35, decaying(20), 1e-4},
                                {33, 50, decaying(25), 1e-4},
                                {45, 36, decaying(36), 1e-4}};
  std::mt19937 gen(17);
  for (DType d : tenferro::kAllDTypes)
    for (const Shape& batch : {Shape{}, Shape{3}, Shape{2, 2}})
      for (const Case& c : cases)
        for (std::int64_t k : {-1, 2}) {
          SCOPED_TRACE(case_name(d, batch, c.m, c.n) + " rank " + std::to_string(c.s.size()) +
                       " rhs " + std::to_string(k));
          const std::int64_t nb = product(batch, 0), r = static_cast<std::int64_t>(c.s.size());
          const bool complex = tenferro::is_complex(d);
          const Mats u = orthonormal(c.m, r, nb, complex, gen);
          const Mats v = orthonormal(c.n, r, nb, complex, gen);
          const Tensor a_host = tensor_from(d, with_batch({c.m, c.n}, batch),
                                            multiply(scale_columns(u, c.s), adjoint(v)).data);
          const Tensor b_host = random_tensor(
              d, k < 0 ? with_batch({c.m}, batch) : with_batch({c.m, k}, batch), gen());
          const la::LstsqOptions options{c.rcond};
          const la::LstsqResult got = device_lstsq(a_host, b_host, options);

          const EagerTensor b = runtime_->upload(b_host);
          const Mats bm = k < 0 ? vectors(b) : matrices(b);
          std::vector<double> inverse;
          for (double s : c.s) inverse.push_back(1 / s);
          const Mats want = multiply(scale_columns(v, inverse), multiply(adjoint(u), bm));
          const Mats xm = k < 0 ? vectors(got.x) : matrices(got.x);
          // Forward error of the cut pseudo-inverse: ~ eps cond^2 (|X| + |B| / s_min).
          const double s_max = r ? c.s.front() : 1, s_min = r ? c.s.back() : 1;
          const double cond = s_max / s_min, t = tol(d, std::max(c.m, c.n));
          double x_tol = 0;
          for (std::int64_t bb = 0; bb < nb; ++bb) {
            const double bound = t * cond * cond * (norm(want, bb) + norm(bm, bb) / s_min);
            x_tol = std::max(x_tol, bound);
            EXPECT_LE(diff_norm(xm, want, bb), bound)
                << "pseudo-inverse solution, batch entry " << bb;
          }
          for (const cd& rank : scalars(got.rank)) EXPECT_EQ(rank, cd(static_cast<double>(r)));
          const Mats sv = vectors(got.s);
          ASSERT_EQ(sv.rows, std::min(c.m, c.n));
          for (std::int64_t bb = 0; bb < nb; ++bb)
            for (std::int64_t i = 0; i < sv.rows; ++i) {
              const double want_s = i < r ? c.s[static_cast<std::size_t>(i)] : 0.0;
              EXPECT_NEAR(sv.at(bb, i, 0).real(), want_s, t * s_max) << "s_" << i;
            }
          // Both are within x_tol / 2 ... x_tol of the exact X, so of each other within 2 x_tol.
          expect_lstsq_matches_cpu(got, a_host, b_host, options, t * s_max, 2 * x_tol);
        }
}

// NumPy's answer for the rank-deficient example of linalg.hpp (the old QR-based device code
// returned entries of 1e15 here): x = [-0.1, 0, 0.1], rank 2, |A x - b| = sqrt(0.8).
TEST_F(LinalgCudaTest, LstsqOfTheRankDeficientExampleMatchesNumPy) {
  const std::vector<cd> a_values{1, 2, 1, 2, 4,
                                 1, 3, 6, 1};  // columns of [[1,2,3],[2,4,6],[1,1,1]]
  for (DType d : tenferro::kAllDTypes) {
    SCOPED_TRACE(tenferro::dtype_name(d));
    const Tensor a_host = tensor_from(d, {3, 3}, a_values), b_host = tensor_from(d, {3}, {1, 0, 0});
    const la::LstsqResult r = device_lstsq(a_host, b_host, {});
    expect_close(vectors(r.x), Mats{3, 1, 1, {-0.1, 0, 0.1}}, tol(d, 3), 1, "x");
    EXPECT_EQ(scalars(r.rank).at(0), cd(2));
    const Mats residual =
        subtract(multiply(matrices(runtime_->upload(a_host)), vectors(r.x)), widen_vector(b_host));
    EXPECT_NEAR(norm(residual, 0), std::sqrt(0.8), tol(d, 3));
  }
}

// Random (full-rank) tall, wide and square A: rank min(m, n), the normal equations
// A^H (A X - B) = 0 to a backward-stable bound, and the CPU runtime's X, rank and s.
TEST_F(LinalgCudaTest, LstsqOfRandomMatricesSatisfiesTheNormalEquationsAndMatchesTheCpu) {
  const std::vector<Size> sizes{{1, 1},   {6, 3},   {3, 6},   {5, 5},
                                {32, 20}, {20, 32}, {45, 33}, {33, 45}};
  std::uint32_t seed = 1400;
  auto cpu = EagerRuntime::cpu();
  for (DType d : tenferro::kAllDTypes)
    for (const Shape& batch : {Shape{}, Shape{3}})
      for (const Size& s : sizes)
        for (std::int64_t k : {-1, 3}) {
          SCOPED_TRACE(case_name(d, batch, s.m, s.n) + " rhs " + std::to_string(k));
          const Tensor a_host = random_tensor(d, with_batch({s.m, s.n}, batch), seed++);
          const Tensor b_host = random_tensor(
              d, k < 0 ? with_batch({s.m}, batch) : with_batch({s.m, k}, batch), seed++);
          const la::LstsqResult r = device_lstsq(a_host, b_host, {});
          for (const cd& rank : scalars(r.rank))
            EXPECT_EQ(rank, cd(static_cast<double>(std::min(s.m, s.n))));
          const Mats am = matrices(runtime_->upload(a_host));
          const Mats xm = k < 0 ? vectors(r.x) : matrices(r.x);
          const Mats bm =
              k < 0 ? vectors(runtime_->upload(b_host)) : matrices(runtime_->upload(b_host));
          const double t = tol(d, std::max(s.m, s.n));
          const Mats normal = multiply(adjoint(am), subtract(multiply(am, xm), bm));
          const Mats sv = vectors(la::svd(cpu->upload(a_host)).s);
          double x_tol = 0;
          for (std::int64_t bb = 0; bb < am.batch; ++bb) {
            // Backward-stable bound: |A^H (A X - B)| <~ eps |A| (|A| |X| + |B|).
            const double scale = norm(am, bb) * (norm(am, bb) * norm(xm, bb) + norm(bm, bb));
            EXPECT_LE(norm(normal, bb), t * (scale + 1)) << "A^H (A X - B), batch entry " << bb;
            const double s_min = sv.at(bb, sv.rows - 1, 0).real();
            const double cond = sv.at(bb, 0, 0).real() / s_min;
            x_tol = std::max(x_tol, t * cond * cond * (norm(xm, bb) + norm(bm, bb) / s_min));
          }
          double s_max = 0;
          for (std::int64_t bb = 0; bb < sv.batch; ++bb)
            s_max = std::max(s_max, sv.at(bb, 0, 0).real());
          expect_lstsq_matches_cpu(r, a_host, b_host, {}, t * s_max, x_tol);
        }
}

// rcond is relative to s_max and cuts what the default keeps. s = {2, 1, 0.5, 1e-4}: the
// default cutoff (eps * 6) keeps all four; rcond 1e-3 (cutoff 2e-3) drops 1e-4; rcond 0.3
// (cutoff 0.6, not 0.3) drops 0.5 too. X is the pseudo-inverse solution over the kept values,
// and the CPU runtime agrees for each rcond.
TEST_F(LinalgCudaTest, LstsqRcondCutsSmallSingularValuesRelativeToTheLargest) {
  std::mt19937 gen(23);
  const std::vector<double> s{2.0, 1.0, 0.5, 1e-4};
  for (DType d : tenferro::kAllDTypes) {
    SCOPED_TRACE(tenferro::dtype_name(d));
    const bool complex = tenferro::is_complex(d);
    const Mats u = orthonormal(6, 4, 2, complex, gen), v = orthonormal(4, 4, 2, complex, gen);
    const Tensor a_host = tensor_from(d, {6, 4, 2}, multiply(scale_columns(u, s), adjoint(v)).data);
    const Tensor b_host = random_tensor(d, {6, 2}, gen());
    const Mats bm = widen_vector(b_host);
    for (const cd& rank : scalars(device_lstsq(a_host, b_host, {}).rank)) EXPECT_EQ(rank, cd(4));
    struct Cut {
      double rcond;
      double rank;
      std::vector<double> inverse;
    };
    for (const Cut& cut : {Cut{1e-3, 3, {0.5, 1.0, 2.0, 0.0}}, Cut{0.3, 2, {0.5, 1.0, 0.0, 0.0}}}) {
      SCOPED_TRACE("rcond " + std::to_string(cut.rcond));
      const la::LstsqOptions options{cut.rcond};
      const la::LstsqResult r = device_lstsq(a_host, b_host, options);
      for (const cd& rank : scalars(r.rank)) EXPECT_EQ(rank, cd(cut.rank));
      const Mats want = multiply(scale_columns(v, cut.inverse), multiply(adjoint(u), bm));
      // cond of the kept part is at most 4; not cutting 1e-4 would add a term of size ~ 1e4.
      const double x_tol = 100 * tol(d, 6) * (norm(want, 0) + norm(bm, 0) + 1);
      expect_close(vectors(r.x), want, x_tol, 0, "x with the cut");
      expect_lstsq_matches_cpu(r, a_host, b_host, options, tol(d, 6) * 2, 2 * x_tol);
    }
  }
}

// Batches of several entries with different ranks in one call: each entry keeps its own rank
// (a per-entry cut, not a common one), computed on the device.
TEST_F(LinalgCudaTest, LstsqRanksArePerBatchEntry) {
  std::mt19937 gen(29);
  for (DType d : tenferro::kAllDTypes) {
    SCOPED_TRACE(tenferro::dtype_name(d));
    const bool complex = tenferro::is_complex(d);
    const std::vector<std::vector<double>> spectra{
        {1.0, 0.5, 0.0, 0.0}, {3.0, 2.0, 1.0, 0.5}, {0.0, 0.0, 0.0, 0.0}, {4.0, 0.0, 0.0, 0.0}};
    std::vector<cd> a_values;
    Mats want{4, 1, 4, {}};
    const Tensor b_host = random_tensor(d, {8, 4}, gen());
    const Mats bm = widen_vector(b_host);
    for (std::size_t e = 0; e < spectra.size(); ++e) {
      const Mats u = orthonormal(8, 4, 1, complex, gen), v = orthonormal(4, 4, 1, complex, gen);
      const Mats a = multiply(scale_columns(u, spectra[e]), adjoint(v));
      a_values.insert(a_values.end(), a.data.begin(), a.data.end());
      std::vector<double> inverse;
      for (double s : spectra[e]) inverse.push_back(s > 0 ? 1 / s : 0.0);
      const auto first = bm.data.begin() + 8 * static_cast<std::ptrdiff_t>(e);
      const Mats be{8, 1, 1, std::vector<cd>(first, first + 8)};
      const Mats xe = multiply(scale_columns(v, inverse), multiply(adjoint(u), be));
      want.data.insert(want.data.end(), xe.data.begin(), xe.data.end());
    }
    const Tensor a_host = tensor_from(d, {8, 4, 4}, a_values);
    const la::LstsqResult r = device_lstsq(a_host, b_host, {});
    const std::vector<cd> ranks = scalars(r.rank);
    ASSERT_EQ(ranks.size(), 4u);
    EXPECT_EQ(ranks[0], cd(2));
    EXPECT_EQ(ranks[1], cd(4));
    EXPECT_EQ(ranks[2], cd(0));
    EXPECT_EQ(ranks[3], cd(1));
    expect_close(vectors(r.x), want, 100 * tol(d, 8), norm(bm, 0) * 4, "X per entry");
  }
}

// Empty extents: no batch entries, m = 0, n = 0, no right-hand sides, and an all-zero A.
// Shapes as documented, X and rank zero where they have entries, s empty or zero, and all of
// it on the device; the CPU runtime returns the same.
TEST_F(LinalgCudaTest, LstsqOfEmptyAndZeroMatrices) {
  struct Case {
    Shape a, b;
  };
  const std::vector<Case> cases{{{0, 0}, {0}},       {{3, 0}, {3}},          {{0, 3}, {0, 2}},
                                {{4, 2, 0}, {4, 0}}, {{4, 3, 2}, {4, 0, 2}}, {{3, 0, 2}, {3, 5, 2}},
                                {{0, 3, 2}, {0, 2}}};
  std::uint32_t seed = 1500;
  for (DType d : tenferro::kAllDTypes)
    for (const Case& c : cases) {
      SCOPED_TRACE(std::string(tenferro::dtype_name(d)) + " A " + tenferro::shape_to_string(c.a) +
                   " B " + tenferro::shape_to_string(c.b));
      const Tensor a_host = random_tensor(d, c.a, seed++), b_host = random_tensor(d, c.b, seed++);
      const la::LstsqResult r = device_lstsq(a_host, b_host, {});
      if (c.a[0] == 0 || c.a[1] == 0) {
        for (const cd& v : widen(r.x.download())) EXPECT_EQ(v, cd(0));
        for (const cd& v : scalars(r.rank)) EXPECT_EQ(v, cd(0));
      }
      // X is empty or zero on both runtimes; s of the random 4x3 entries within tol * |A|.
      expect_lstsq_matches_cpu(r, a_host, b_host, {}, tol(d, 4) * 4, 0);
    }
  // An all-zero A: every singular value is 0 <= rcond * 0, so rank 0 and X = 0.
  for (DType d : tenferro::kAllDTypes) {
    const la::LstsqResult r =
        device_lstsq(Tensor::zeros(d, {5, 3, 2}), random_tensor(d, {5, 2, 2}, 7), {});
    for (const cd& v : widen(r.x.download())) EXPECT_EQ(v, cd(0));
    for (const cd& v : scalars(r.rank)) EXPECT_EQ(v, cd(0));
    for (const cd& v : widen(r.s.download())) EXPECT_EQ(v, cd(0));
  }
}

// Strided (transposed) A and B give the compact inputs' answer.
TEST_F(LinalgCudaTest, LstsqOfStridedInputsMatchesTheCompactOnes) {
  const Tensor a_host = random_tensor(DType::C64, {7, 5}, 31);
  const Tensor b_host = random_tensor(DType::C64, {7, 3}, 32);
  const EagerTensor a_t =
      runtime_->upload(a_host.permute({1, 0}).clone()).permute(std::vector<std::int64_t>{1, 0});
  const EagerTensor b_t =
      runtime_->upload(b_host.permute({1, 0}).clone()).permute(std::vector<std::int64_t>{1, 0});
  ASSERT_FALSE(a_t.layout().is_compact());
  ASSERT_FALSE(b_t.layout().is_compact());
  const la::LstsqResult strided = la::lstsq_with_rank(a_t, b_t);
  const la::LstsqResult dense = device_lstsq(a_host, b_host, {});
  expect_close(matrices(strided.x), matrices(dense.x), tol(DType::C64, 7), 10, "X");
  EXPECT_EQ(scalars(strided.rank), scalars(dense.rank));
}

// min(m, n) >= kGesvdMinExtent: the SVD inside lstsq is gesvd (on A^H for a wide A);
// rank-deficient with known factors, so X is exact; every dtype.
TEST_F(LinalgCudaTest, LargeLstsqTakesGesvdAndGivesThePseudoInverseSolution) {
  using namespace tenferro::linalg_cuda;
  const std::int64_t big = kGesvdMinExtent, bigger = kGesvdMinExtent + 24, r = 300;
  std::vector<double> s;
  for (std::int64_t i = 0; i < r; ++i) s.push_back(2.0 - 1.5 * double(i) / double(r));
  std::vector<double> inverse;
  for (double v : s) inverse.push_back(1 / v);
  std::mt19937 gen(37);
  const std::vector<std::pair<DType, Size>> cases{{DType::F64, {bigger, big}},
                                                  {DType::C32, {big, bigger}},
                                                  {DType::F32, {bigger, big}},
                                                  {DType::C64, {big, bigger}}};
  for (const auto& [d, size] : cases) {
    SCOPED_TRACE(case_name(d, {}, size.m, size.n));
    SvdDims dims;
    dims.m = size.m;
    dims.n = size.n;
    ASSERT_EQ(svd_driver(dims), SvdDriver::Gesvd);
    const bool complex = tenferro::is_complex(d);
    const Mats u = orthonormal(size.m, r, 1, complex, gen),
               v = orthonormal(size.n, r, 1, complex, gen);
    const Tensor a_host =
        tensor_from(d, {size.m, size.n}, multiply(scale_columns(u, s), adjoint(v)).data);
    const Tensor b_host = random_tensor(d, {size.m, 2}, gen());
    const la::LstsqOptions options{1e-4};  // see the known-factors test on the > 32 cutoff
    const la::LstsqResult got = device_lstsq(a_host, b_host, options);
    const Mats bm = matrices(runtime_->upload(b_host));
    const Mats want = multiply(scale_columns(v, inverse), multiply(adjoint(u), bm));
    const double t = tol(d, bigger), cond = 4;
    const double x_tol = t * cond * cond * (norm(want, 0) + norm(bm, 0) / 0.5);
    expect_close(matrices(got.x), want, x_tol, 0, "pseudo-inverse solution");
    EXPECT_EQ(scalars(got.rank).at(0), cd(static_cast<double>(r)));
    expect_lstsq_matches_cpu(got, a_host, b_host, options, t * 2, 2 * x_tol);
  }
}

}  // namespace

#endif  // TENFERRO_HAS_CUDA
