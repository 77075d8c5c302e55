// Arguments outside their range at the public entry points: sizes that overflow int64, steps
// near INT64_MAX, integers cast to a dtype or an option enum. Each was accepted and gave a
// heap overflow, a trap, a wrong shape or a silently default behaviour (an adversarial review,
// 2026-12-06); each is a Validation error now, and the runtime stays usable after it.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "tenferro/einsum.hpp"
#include "tenferro/fft.hpp"
#include "tenferro/krylov.hpp"
#include "tenferro/linalg.hpp"
#include "tenferro/prims.hpp"
#include "tenferro/tenferro.hpp"

namespace tenferro {
namespace {

template <class F>
void expect_validation(F&& f, const char* what) {
  try {
    f();
    ADD_FAILURE() << what << ": accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Validation) << what << ": " << e.what();
  }
}

constexpr auto kBadDType = static_cast<DType>(9);

TEST(ArgumentRange, ConcatenatedExtentsThatOverflowAreRefused) {
  auto rt = EagerRuntime::cpu();
  const EagerTensor one = prims::full(rt, DType::F64, {1}, 1.0);
  // 31 * 2^59 + (2^59 + 5) wraps to 5: the output was sized for 5 elements and the copies
  // wrote past it; 32 * 2^59 wrapped to 0 and gave an empty tensor.
  std::vector<EagerTensor> xs(31, prims::broadcast_to(one, {std::int64_t{1} << 59}));
  xs.push_back(prims::broadcast_to(one, {(std::int64_t{1} << 59) + 5}));
  expect_validation([&] { (void)prims::concatenate(xs, 0); }, "wraps to 5");
  const std::vector<EagerTensor> zero(32, prims::broadcast_to(one, {std::int64_t{1} << 59}));
  expect_validation([&] { (void)prims::concatenate(zero, 0); }, "wraps to 0");
  const std::vector<EagerTensor> fine(3, one);
  EXPECT_EQ(prims::concatenate(fine, 0).shape(), (Shape{3}));
}

TEST(ArgumentRange, SliceStepsNearTheLargestIntegerKeepNumPysLength) {
  auto rt = EagerRuntime::cpu();
  const EagerTensor x = prims::arange(rt, DType::F64, 0, 4);
  const std::int64_t big = std::numeric_limits<std::int64_t>::max();
  // NumPy: x[0:4:2**63-1] is [0.], x[1:4:2**63-2] is [1.].
  const EagerTensor a = prims::slice(x, std::vector<prims::Slice>{{0, 4, big}});
  ASSERT_EQ(a.shape(), (Shape{1}));
  EXPECT_EQ(a.download().to_vector<double>(), (std::vector<double>{0.0}));
  const EagerTensor b = prims::slice(x, std::vector<prims::Slice>{{1, 4, big - 1}});
  ASSERT_EQ(b.shape(), (Shape{1}));
  EXPECT_EQ(b.download().to_vector<double>(), (std::vector<double>{1.0}));
  // Two elements still step as asked.
  const EagerTensor c = prims::slice(x, std::vector<prims::Slice>{{0, 4, 3}});
  EXPECT_EQ(c.download().to_vector<double>(), (std::vector<double>{0.0, 3.0}));
}

TEST(ArgumentRange, AnIntegerCastToDTypeIsRefusedWherever) {
  auto rt = EagerRuntime::cpu();
  expect_validation([] { (void)Tensor::zeros(kBadDType, {10}); }, "Tensor::zeros");
  expect_validation([&] { (void)rt->empty(kBadDType, {10}); }, "EagerRuntime::empty");
  const Tensor host = Tensor::zeros(DType::F64, {4});
  expect_validation(
      [&] {
        (void)Tensor::view_of(host.storage(), TensorLayout{kBadDType, {2}, {1}, 0});
      },
      "Tensor::view_of");
  const EagerTensor t = prims::full(rt, DType::F64, {4}, 1.0);
  expect_validation(
      [&] {
        (void)EagerTensor(rt, t.buffer(), TensorLayout{kBadDType, {2}, {1}, 0});
      },
      "EagerTensor");
  EXPECT_EQ(prims::sum(t).download().to_vector<double>(), (std::vector<double>{4.0}));
}

TEST(ArgumentRange, OptionEnumsOutsideTheirEnumeratorsAreRefused) {
  auto rt = EagerRuntime::cpu();
  const EagerTensor x = prims::full(rt, DType::F64, {4}, 1.0);
  // fft::Norm(9) scaled as no norm at all: ifft of ones was [4, 0, 0, 0].
  expect_validation([&] { (void)fft::ifft(x, std::nullopt, -1, static_cast<fft::Norm>(9)); },
                    "fft norm");
  EXPECT_EQ(fft::norm_name(static_cast<fft::Norm>(9)), "?");

  const EagerTensor a = prims::eye(rt, DType::F64, 3);
  const EagerTensor b = prims::full(rt, DType::F64, {3, 2}, 1.0);
  linalg::TriangularSolveOptions tri;
  tri.transpose = static_cast<linalg::TriangularOp>(9);
  expect_validation([&] { (void)linalg::triangular_solve(a, b, tri); }, "triangular transpose");
  linalg::QrOptions qr;
  qr.mode = static_cast<linalg::QrMode>(9);
  expect_validation([&] { (void)linalg::qr(a, qr); }, "qr mode");
  qr = {};
  qr.gauge = static_cast<linalg::QrGauge>(9);
  expect_validation([&] { (void)linalg::qr(a, qr); }, "qr gauge");
  linalg::SvdOptions svd;
  svd.gauge = static_cast<linalg::SvdGauge>(9);
  expect_validation([&] { (void)linalg::svd(a, svd); }, "svd gauge");
  svd = {};
  svd.truncation.cutoff_kind = static_cast<linalg::CutoffKind>(9);
  expect_validation([&] { (void)linalg::svd(a, svd); }, "svd cutoff kind");

  EinsumOptions strategy;
  strategy.strategy = static_cast<PathStrategy>(9);
  expect_validation([&] { (void)einsum("ij,jk->ik", {a, a}, strategy); }, "einsum strategy");
  EinsumOptions objective;
  objective.objective = static_cast<PathObjective>(9);
  expect_validation([&] { (void)einsum("ij,jk->ik", {a, a}, objective); }, "einsum objective");

  const krylov::LinearOperator identity = [](const EagerTensor& v) { return v; };
  const EagerTensor v0 = prims::full(rt, DType::F64, {8}, 1.0);
  krylov::EigOptions eig;
  eig.k = 1;
  eig.which = static_cast<krylov::Which>(9);
  expect_validation([&] { (void)krylov::eigsh(identity, v0, eig); }, "eigsh which");
  // The valid calls still run on the same runtime.
  EXPECT_EQ(linalg::qr(a).q.shape(), (Shape{3, 3}));
}

TEST(ArgumentRange, KrylovTolerancesAndBasesOutsideTheirRangeAreRefused) {
  auto rt = EagerRuntime::cpu();
  const EagerTensor m = prims::eye(rt, DType::F64, 6);
  expect_validation([&] { (void)krylov::svds(m, 2, std::nan("")); }, "svds tol NaN");
  const krylov::LinearOperator identity = [](const EagerTensor& v) { return v; };
  const EagerTensor v0 = prims::full(rt, DType::F64, {8}, 1.0);
  krylov::EigOptions eig;
  eig.k = 1;
  eig.tol = std::nan("");
  expect_validation([&] { (void)krylov::eigsh(identity, v0, eig); }, "eigsh tol NaN");
  krylov::ExpmOptions expm;
  expm.tol = std::nan("");
  expect_validation([&] { (void)krylov::expm_multiply(identity, v0, 1.0, expm); },
                    "expm_multiply tol NaN");
  // ncv = 1 ran all 10000 substeps before failing NotConverged.
  expm = {};
  expm.ncv = 1;
  expect_validation([&] { (void)krylov::expm_multiply(identity, v0, 1.0, expm); },
                    "expm_multiply ncv 1");
}

}  // namespace
}  // namespace tenferro
