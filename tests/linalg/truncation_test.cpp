// Truncated SVD: every cutoff kind, min_rank, max_rank priority, the common batch rank and
// the discarded weight, on matrices with known singular values.
#include "ops/linalg/truncation.hpp"
#include "linalg_test_util.hpp"

namespace {

using namespace linalg_test;
namespace la = tenferro::linalg;
using tenferro::linalg_internal::common_rank;
using tenferro::linalg_internal::entry_rank;

const std::vector<double> kSpectrum{4, 2, 1, 0.5, 0.1};  // discarded tails: 1.26, 0.26, 0.01

la::SvdTruncation cut(la::CutoffKind kind, double cutoff) {
  la::SvdTruncation t;
  t.cutoff_kind = kind;
  t.cutoff = cutoff;
  return t;
}

TEST(LinalgTruncationRule, CutoffKinds) {
  EXPECT_EQ(entry_rank(kSpectrum, {}), 5);
  EXPECT_EQ(entry_rank(kSpectrum, cut(la::CutoffKind::RelativeSingularValue, 0.2)), 3);  // s > 0.8
  EXPECT_EQ(entry_rank(kSpectrum, cut(la::CutoffKind::AbsoluteSingularValue, 0.3)), 4);  // s > 0.3
  EXPECT_EQ(entry_rank(kSpectrum, cut(la::CutoffKind::AbsoluteDiscardedWeight, 0.3)), 3);   // 0.26
  EXPECT_EQ(entry_rank(kSpectrum, cut(la::CutoffKind::AbsoluteDiscardedWeight, 0.25)), 4);  // 0.01
  // Total weight 21.26: 0.06 of it is 1.2756 >= 1.26 (three dropped); 0.05 of it is not.
  EXPECT_EQ(entry_rank(kSpectrum, cut(la::CutoffKind::RelativeDiscardedWeight, 0.06)), 2);
  EXPECT_EQ(entry_rank(kSpectrum, cut(la::CutoffKind::RelativeDiscardedWeight, 0.05)), 3);
}

TEST(LinalgTruncationRule, MaxRankWinsAndMinRankFloors) {
  la::SvdTruncation t = cut(la::CutoffKind::AbsoluteSingularValue, 0.3);
  t.max_rank = 1;
  EXPECT_EQ(entry_rank(kSpectrum, t), 1);
  la::SvdTruncation floor = cut(la::CutoffKind::RelativeSingularValue, 0.5);  // keeps s > 2: 1
  EXPECT_EQ(entry_rank(kSpectrum, floor), 1);
  floor.min_rank = 4;
  EXPECT_EQ(entry_rank(kSpectrum, floor), 4);
  floor.min_rank = 9;  // never above min(m, n)
  EXPECT_EQ(entry_rank(kSpectrum, floor), 5);
  floor.max_rank = 2;  // max_rank also wins over min_rank
  EXPECT_EQ(entry_rank(kSpectrum, floor), 2);
}

TEST(LinalgTruncationRule, CommonRankIsTheLargestEntryRank) {
  const std::vector<double> values{4, 2,   1,   0.5, 0.1,   // rank 4 at s > 0.3
                                   1, 0.1, 0.1, 0.1, 0.0};  // rank 1 at s > 0.3
  EXPECT_EQ(common_rank(values, 5, 2, cut(la::CutoffKind::AbsoluteSingularValue, 0.3)), 4);
  la::SvdTruncation capped = cut(la::CutoffKind::AbsoluteSingularValue, 0.3);
  capped.max_rank = 3;
  EXPECT_EQ(common_rank(values, 5, 2, capped), 3);
  EXPECT_EQ(common_rank({}, 5, 0, capped), 3);
}

// The CUDA rank kernel evaluates the same rule on float singular values (F32 and C32 results):
// it must keep the same ranks as the double evaluation the CPU executor uses.
TEST(LinalgTruncationRule, SinglePrecisionValuesKeepTheSameRanks) {
  using tenferro::linalg_internal::rule_of;
  using tenferro::linalg_internal::truncated_rank;
  const std::vector<float> single(kSpectrum.begin(), kSpectrum.end());
  const auto k = static_cast<std::int64_t>(single.size());
  std::vector<la::SvdTruncation> rules{{},
                                       cut(la::CutoffKind::RelativeSingularValue, 0.2),
                                       cut(la::CutoffKind::AbsoluteSingularValue, 0.3),
                                       cut(la::CutoffKind::AbsoluteDiscardedWeight, 0.3),
                                       cut(la::CutoffKind::RelativeDiscardedWeight, 0.06),
                                       cut(la::CutoffKind::RelativeDiscardedWeight, 0.05)};
  rules.push_back(rules[2]);
  rules.back().max_rank = 1;
  rules.push_back(rules[1]);
  rules.back().min_rank = 4;
  for (const la::SvdTruncation& t : rules) {
    EXPECT_EQ(truncated_rank(single.data(), k, rule_of(t)), entry_rank(kSpectrum, t))
        << "cutoff kind " << int(t.cutoff_kind) << ", cutoff " << t.cutoff;
  }
  EXPECT_EQ(truncated_rank(single.data(), 0, rule_of(rules[1])), 0) << "no values, no rank";
}

// A = U0 diag(s) V0^H with random orthonormal U0 (m x k) and V0 (n x k), one spectrum per
// batch entry.
EagerTensor with_spectrum(const std::shared_ptr<tenferro::EagerRuntime>& rt, DType dtype,
                          std::int64_t m, std::int64_t n,
                          const std::vector<std::vector<double>>& spectra) {
  const std::int64_t k = static_cast<std::int64_t>(spectra[0].size());
  const std::int64_t batch = static_cast<std::int64_t>(spectra.size());
  const DType wide = tenferro::is_complex(dtype) ? DType::C64 : DType::F64;  // real A stays real
  const Mats u0 = matrices(la::qr(rt->upload(random_tensor(wide, {m, k, batch}, 11))).q);
  const Mats v0 = matrices(la::qr(rt->upload(random_tensor(wide, {n, k, batch}, 12))).q);
  Mats a{m, n, batch, std::vector<cd>(static_cast<std::size_t>(m * n * batch))};
  for (std::int64_t b = 0; b < batch; ++b)
    for (std::int64_t j = 0; j < n; ++j)
      for (std::int64_t l = 0; l < k; ++l)
        for (std::int64_t i = 0; i < m; ++i)
          a.at(b, i, j) += u0.at(b, i, l) * spectra[b][l] * std::conj(v0.at(b, j, l));
  return rt->upload(tensor_from(dtype, {m, n, batch}, a.data));
}

TEST(LinalgSvdTruncation, RankDiscardedWeightAndReconstruction) {
  auto rt = tenferro::EagerRuntime::cpu();
  const std::vector<std::vector<double>> spectra{{4, 2, 1, 0.5, 0.1}, {3, 0.2, 0.1, 0.05, 0.01}};
  for (DType d : {DType::F64, DType::C64, DType::F32, DType::C32}) {
    SCOPED_TRACE(std::string(tenferro::dtype_name(d)));
    const EagerTensor a = with_spectrum(rt, d, 7, 5, spectra);
    la::SvdOptions o;
    o.truncation = cut(la::CutoffKind::AbsoluteSingularValue, 0.3);  // ranks 4 and 1 -> common 4
    const la::SvdResult r = la::svd(a, o);
    ASSERT_EQ(r.s.shape(), (Shape{4, 2}));
    ASSERT_EQ(r.u.shape(), (Shape{7, 4, 2}));
    ASSERT_EQ(r.vh.shape(), (Shape{4, 5, 2}));
    const std::vector<cd> weight = scalars(r.discarded_weight);
    const double t = tol(d, 7) * 16;  // weights are squares of O(4) values
    EXPECT_NEAR(weight[0].real(), 0.01, t);
    EXPECT_NEAR(weight[1].real(), 0.0001, t);
    // ||A - U S Vh||_F^2 is the discarded weight of each entry.
    const Mats am = matrices(a), um = matrices(r.u), sm = vectors(r.s), vm = matrices(r.vh);
    for (std::int64_t b = 0; b < 2; ++b) {
      Mats approx{7, 5, 1, std::vector<cd>(35)};
      for (std::int64_t j = 0; j < 5; ++j)
        for (std::int64_t l = 0; l < 4; ++l)
          for (std::int64_t i = 0; i < 7; ++i)
            approx.at(0, i, j) += um.at(b, i, l) * sm.at(b, l, 0) * vm.at(b, l, j);
      double residual = 0;
      for (std::int64_t j = 0; j < 5; ++j)
        for (std::int64_t i = 0; i < 7; ++i)
          residual += std::norm(am.at(b, i, j) - approx.at(0, i, j));
      EXPECT_NEAR(residual, weight[b].real(), t);
    }
  }
}

TEST(LinalgSvdTruncation, MaxRankWinsOverCutoffInTheCall) {
  auto rt = tenferro::EagerRuntime::cpu();
  const EagerTensor a = with_spectrum(rt, DType::F64, 6, 5, {{4, 2, 1, 0.5, 0.1}});
  la::SvdOptions o;
  o.truncation = cut(la::CutoffKind::AbsoluteDiscardedWeight, 0.3);  // rank 3 by the cutoff
  EXPECT_EQ(la::svd(a, o).s.shape(), (Shape{3, 1}));
  o.truncation.max_rank = 2;
  const la::SvdResult r = la::svd(a, o);
  EXPECT_EQ(r.s.shape(), (Shape{2, 1}));
  EXPECT_NEAR(scalars(r.discarded_weight)[0].real(), 1.26, 1e-12 * 16);
  o.compute_uv = false;  // values only truncates the same way
  EXPECT_EQ(la::svd(a, o).s.shape(), (Shape{2, 1}));
}

TEST(LinalgSvdTruncation, InvalidOptionsAreValidationErrors) {
  auto rt = tenferro::EagerRuntime::cpu();
  const EagerTensor a = rt->upload(random_tensor(DType::F64, {4, 3}, 1));
  la::SvdOptions full;
  full.full_matrices = true;
  full.truncation.max_rank = 2;
  expect_error([&] { la::svd(a, full); }, tenferro::ErrorKind::Validation);
  la::SvdOptions negative;
  negative.truncation = cut(la::CutoffKind::AbsoluteSingularValue, -1);
  expect_error([&] { la::svd(a, negative); }, tenferro::ErrorKind::Validation);
  la::SvdOptions no_kind;
  no_kind.truncation.cutoff = 0.5;
  expect_error([&] { la::svd(a, no_kind); }, tenferro::ErrorKind::Validation);
  la::SvdOptions bad_rank;
  bad_rank.truncation.max_rank = -1;
  expect_error([&] { la::svd(a, bad_rank); }, tenferro::ErrorKind::Validation);
}

}  // namespace
