// Inputs whose defect only one rank can see: a NaN or Inf in one rank's part, a part replaced
// through Matrix::local() by one of the wrong shape. Each is the same typed error on every
// rank, before any collective driver runs (a NaN made eigh hang under ELPA and abort the job
// under ScaLAPACK; a wrong part made pdgemm reject its descriptor on one rank while the others
// waited). Found by an adversarial review. Also the small SVDs p?gesvd reported as
// heterogeneous on ranks holding no part of U or V^T (info = min(m, n) + 1): a result;
// cholesky and solve on oblong blocks, refused before ScaLAPACK; and a driver's workspace that
// one rank alone cannot allocate (its size is that rank's), the same ResourceError everywhere.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "dist/collective.hpp"
#include "dist_context.hpp"

namespace tenferro::dist {
namespace {

using testing::at;
using testing::context;

// The ops that factor their input, each with what it reads.
struct Factorisation {
  const char* name;
  bool lower_only;  // reads the lower triangle alone (cholesky, eigh)
  std::function<void(const Matrix&)> run;
};

std::vector<Factorisation> factorisations() {
  std::vector<Factorisation> all = {
      {"cholesky", true, [](const Matrix& a) { (void)cholesky(a); }},
      {"solve", false, [](const Matrix& a) { (void)solve(a, a); }},
      {"qr", false, [](const Matrix& a) { (void)qr(a); }},
      {"lu", false, [](const Matrix& a) { (void)lu(a); }},
      {"svd", false, [](const Matrix& a) { (void)svd(a); }},
      {"eigh scalapack", true,
       [](const Matrix& a) { (void)eigh(a, {.solver = EighSolver::ScaLapack}); }},
  };
  if (elpa_available()) {
    all.push_back(
        {"eigh elpa", true, [](const Matrix& a) { (void)eigh(a, {.solver = EighSolver::Elpa}); }});
  }
  return all;
}

// What every rank saw: the error's kind and message (kind RuntimeState when nothing threw).
struct Outcome {
  ErrorKind kind = ErrorKind::RuntimeState;
  std::string message;
};
Outcome outcome_of(const std::function<void()>& call) {
  Outcome o;
  try {
    call();
  } catch (const Error& e) {
    o.kind = e.kind();
    o.message = e.what();
  }
  return o;
}

TEST(DistRankLocalInput, NonFiniteValuesAreTheSameNumericalErrorOnEveryRank) {
  const auto& ctx = context();
  const std::int64_t n = 9;
  for (DType dtype : {DType::F64, DType::C32}) {
    // Hermitian positive definite, so every op runs to completion on finite input.
    Tensor clean = testing::random_matrix(dtype, n, n, 7);
    for (std::int64_t i = 0; i < n; ++i) {
      for (std::int64_t j = 0; j < n; ++j) {
        const auto v = (at(clean, i, j) + std::conj(at(clean, j, i))) * 0.5 +
                       std::complex<double>(i == j ? 2.0 * n : 0.0);
        if (dtype == DType::F64) clean.at<double>({i, j}) = v.real();
        if (dtype == DType::C32) clean.at<std::complex<float>>({i, j}) = std::complex<float>(v);
      }
    }
    for (const double bad :
         {std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity()}) {
      // In the lower triangle, on the last block row (its owner is rarely the root).
      Tensor dirty = clean.clone();
      if (dtype == DType::F64) dirty.at<double>({n - 1, 2}) = bad;
      if (dtype == DType::C32) dirty.at<std::complex<float>>({n - 1, 2}) = {0.5f, float(bad)};
      for (const auto& f : factorisations()) {
        if (f.name == std::string("eigh elpa") && dtype == DType::C32) continue;  // no ELPA
        const Matrix a = scatter(ctx, ctx->is_root() ? dirty : Tensor(), {2, 2, {}});
        const Outcome o = outcome_of([&] { f.run(a); });
        EXPECT_TRUE(testing::on_every_rank(o.kind == ErrorKind::Numerical))
            << f.name << " " << dtype_name(dtype) << ": " << o.message;
        EXPECT_NE(o.message.find("non-finite"), std::string::npos) << f.name << ": " << o.message;
        // The context still works, and so does the clean input.
        const Matrix ok = scatter(ctx, ctx->is_root() ? clean : Tensor(), {2, 2, {}});
        EXPECT_TRUE(
            testing::on_every_rank(outcome_of([&] { f.run(ok); }).kind == ErrorKind::RuntimeState))
            << f.name;
      }
    }
    // Above the diagonal, what cholesky and eigh never read is not refused by them.
    Tensor upper = clean.clone();
    if (dtype == DType::F64) upper.at<double>({1, n - 1}) = std::nan("");
    if (dtype == DType::C32) upper.at<std::complex<float>>({1, n - 1}) = {std::nanf(""), 0.f};
    for (const auto& f : factorisations()) {
      if (f.name == std::string("eigh elpa") && dtype == DType::C32) continue;
      const Matrix a = scatter(ctx, ctx->is_root() ? upper : Tensor(), {2, 2, {}});
      const Outcome o = outcome_of([&] { f.run(a); });
      EXPECT_TRUE(testing::on_every_rank(
          o.kind == (f.lower_only ? ErrorKind::RuntimeState : ErrorKind::Numerical)))
          << f.name << " " << dtype_name(dtype) << ": " << o.message;
    }
  }
}

TEST(DistRankLocalInput, APartOfTheWrongShapeIsAValidationErrorOnEveryRank) {
  const auto& ctx = context();
  const Tensor x = testing::random_matrix(DType::F64, 7, 7, 3);
  Matrix a = scatter(ctx, ctx->is_root() ? x : Tensor(), {2, 2, {}});
  const Matrix good = a;
  // The last rank's part replaced by a 1 x 1 (7 x 7 in 2 x 2 blocks gives no rank that).
  if (ctx->rank() == ctx->size() - 1) a.local() = Tensor::zeros(DType::F64, {1, 1});
  const Outcome o = outcome_of([&] { (void)matmul(a, good); });
  EXPECT_TRUE(testing::on_every_rank(o.kind == ErrorKind::Validation)) << o.message;
  EXPECT_NE(o.message.find("this rank's part of A is [1, 1]"), std::string::npos) << o.message;
  EXPECT_TRUE(
      testing::on_every_rank(outcome_of([&] { (void)qr(a); }).kind == ErrorKind::Validation));
  EXPECT_EQ(gather(matmul(good, good)).numel(), ctx->is_root() ? 49 : 0);
}

// p?potrf and p?gesv need square blocks: refused up front as lu, svd and eigh refuse them
// (ScaLAPACK rejected argument 606 and printed its complaint on every rank).
TEST(DistRankLocalInput, CholeskyAndSolveRefuseOblongBlocksUpFront) {
  const auto& ctx = context();
  const Tensor x = testing::random_matrix(DType::F64, 6, 6, 5);
  const Matrix a = scatter(ctx, ctx->is_root() ? x : Tensor(), {2, 3, {}});
  for (const auto& call :
       std::vector<std::function<void()>>{[&] { (void)cholesky(a); }, [&] { (void)solve(a, a); }}) {
    const Outcome o = outcome_of(call);
    EXPECT_TRUE(testing::on_every_rank(o.kind == ErrorKind::Validation)) << o.message;
    EXPECT_NE(o.message.find("needs square blocks, got 2 x 3"), std::string::npos) << o.message;
  }
}

// The last rank's first workspace allocation fails (the hook stands in for an exhausted
// allocator, which no test can make happen on one rank at will): every rank reports the same
// ResourceError naming that rank, none waits in a driver's collective for it (the allocation
// used to happen inside the collective step: the other ranks hung), and the same call then
// succeeds.
TEST(DistRankLocalInput, AWorkspaceOneRankCannotAllocateIsTheSameResourceErrorOnEveryRank) {
  const auto& ctx = context();
  const std::int64_t n = 10;
  const int last = ctx->size() - 1;
  for (DType dtype : {DType::F64, DType::C32}) {
    Tensor x = testing::random_matrix(dtype, n, n, 11);
    for (std::int64_t i = 0; i < n; ++i) {  // diagonally dominant: every op completes
      if (dtype == DType::F64) x.at<double>({i, i}) += 2.0 * n;
      if (dtype == DType::C32) x.at<std::complex<float>>({i, i}) += 2.0f * n;
    }
    for (const auto& f : factorisations()) {
      if (f.name == std::string("cholesky") || f.name == std::string("eigh elpa")) {
        continue;  // no driver workspace of theirs (p?potrf takes none; ELPA allocates its own)
      }
      const Matrix a = scatter(ctx, ctx->is_root() ? x : Tensor(), {2, 2, {}});
      detail::fail_next_workspace_for_testing(last);
      const Outcome o = outcome_of([&] { f.run(a); });
      detail::fail_next_workspace_for_testing(-1);
      EXPECT_TRUE(testing::on_every_rank(o.kind == ErrorKind::Resource))
          << f.name << " " << dtype_name(dtype) << ": " << o.message;
      EXPECT_NE(o.message.find("rank " + std::to_string(last) + ": "), std::string::npos)
          << f.name << ": " << o.message;
      EXPECT_NE(o.message.find("workspace"), std::string::npos) << f.name << ": " << o.message;
      EXPECT_TRUE(
          testing::on_every_rank(outcome_of([&] { f.run(a); }).kind == ErrorKind::RuntimeState))
          << f.name << " " << dtype_name(dtype);
    }
  }
}

TEST(DistRankLocalInput, SmallSvdsOnMoreRanksThanBlocksGiveTheirResult) {
  const auto& ctx = context();
  for (DType dtype : {DType::F32, DType::F64, DType::C32, DType::C64}) {
    for (std::int64_t n : {2, 3, 4, 6}) {
      for (std::int64_t extra = 0; extra < 4; ++extra) {
        const std::int64_t m = n, cols = n + extra;
        const Tensor x = testing::random_matrix(dtype, m, cols, 1000 * n + extra);
        const Outcome o = outcome_of([&] {
          const SvdResult r = svd(scatter(ctx, ctx->is_root() ? x : Tensor(), {}));
          const Tensor u = gather(r.u), vh = gather(r.vh);
          if (!ctx->is_root()) return;
          // U diag(s) V^H against A.
          double worst = 0, scale = 0;
          for (std::int64_t i = 0; i < m; ++i) {
            for (std::int64_t j = 0; j < cols; ++j) {
              std::complex<double> sum = 0;
              for (std::int64_t k = 0; k < std::min(m, cols); ++k) {
                sum += at(u, i, k) * at(r.s, k, 0) * at(vh, k, j);
              }
              worst = std::max(worst, std::abs(sum - at(x, i, j)));
              scale = std::max(scale, std::abs(at(x, i, j)));
            }
          }
          EXPECT_LT(worst, testing::tolerance(dtype) * scale)
              << dtype_name(dtype) << " " << m << " x " << cols;
        });
        EXPECT_TRUE(testing::on_every_rank(o.kind == ErrorKind::RuntimeState))
            << dtype_name(dtype) << " " << m << " x " << cols << ": " << o.message;
      }
    }
  }
}

}  // namespace
}  // namespace tenferro::dist
