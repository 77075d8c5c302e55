// Collective safety: ranks that call different things fail together with a Validation error
// naming each rank's call (no hang: the suite's ctest timeout bounds it), and an error found
// on one rank only is the same typed error on every rank.
#include <gtest/gtest.h>

#include <string>

#include "dist_context.hpp"

namespace tenferro::dist {
namespace {

using testing::context;

TEST(DistSafety, DifferentCallsOnDifferentRanksFailEverywhere) {
  const auto& ctx = context();
  if (ctx->size() < 2) GTEST_SKIP() << "needs two ranks (runs under mpirun -np 2 and 4)";
  const Tensor x = testing::random_matrix(DType::F64, 6, 6, 1);
  const Matrix a = scatter(ctx, x, {2, 2, {}});
  std::string message;
  bool validation = false;
  try {
    if (ctx->is_root()) {
      (void)cholesky(a);
    } else {
      (void)matmul(a, a);
    }
  } catch (const Error& e) {
    validation = e.kind() == ErrorKind::Validation;
    message = e.what();
  }
  EXPECT_TRUE(testing::on_every_rank(validation)) << message;
  EXPECT_NE(message.find("rank 0: cholesky"), std::string::npos) << message;
  EXPECT_NE(message.find("rank 1: matmul"), std::string::npos) << message;

  // Same op, different shapes on one rank.
  validation = false;
  try {
    const Tensor mine = testing::random_matrix(DType::F64, ctx->is_root() ? 3 : 4, 2, 2);
    (void)einsum(ctx, "ab->a", std::span<const Tensor>(&mine, 1));
  } catch (const Error& e) {
    validation = e.kind() == ErrorKind::Validation;
  }
  EXPECT_TRUE(testing::on_every_rank(validation));
  // The context still works.
  EXPECT_EQ(gather(matmul(a, a)).numel(), ctx->is_root() ? 36 : 0);
}

TEST(DistSafety, AnErrorOnOneRankIsTheSameErrorOnEveryRank) {
  const auto& ctx = context();
  // The same call on every rank, but the root's input is not a matrix: only the root can see
  // it, and every rank throws the root's error.
  std::string message;
  ErrorKind kind = ErrorKind::RuntimeState;
  try {
    (void)scatter(ctx, ctx->is_root() ? Tensor::zeros(DType::F32, {3}) : Tensor(), {});
  } catch (const Error& e) {
    kind = e.kind();
    message = e.what();
  }
  EXPECT_TRUE(testing::on_every_rank(kind == ErrorKind::Validation)) << message;
  EXPECT_NE(message.find("rank 0:"), std::string::npos) << message;
}

}  // namespace
}  // namespace tenferro::dist
