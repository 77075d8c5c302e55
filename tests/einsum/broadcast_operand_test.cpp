// Operands that are broadcast views (stride 0, extent above 1): the plan leaves out each such
// axis whose label another operand axis carries (src/ops/einsum/broadcast_axes.hpp), and the
// executor reads the operand's distinct elements instead of copying the repeated ones. Checked
// against the naive reference on the operands' downloaded (materialised) values, and by a call
// whose materialised operand would not fit in any machine's memory.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "support/einsum_reference.hpp"
#include "support/random_einsum.hpp"
#include "support/random_tensor.hpp"
#include "tenferro/einsum.hpp"
#include "tenferro/prims.hpp"
#include "tenferro/runtime/runtime.hpp"

namespace tenferro {
namespace {

// `shape` as a broadcast view: each axis of extent above 1 is, with probability 1/2, a stride-0
// axis over a base of extent 1 there.
EagerTensor random_broadcast(const std::shared_ptr<EagerRuntime>& rt, std::mt19937_64& rng,
                             DType dtype, const Shape& shape) {
  Shape base = shape;
  for (auto& e : base)
    if (e > 1 && rng() % 2 == 0) e = 1;
  return prims::broadcast_to(rt->upload(testing::random_tensor(rng, dtype, base)), shape);
}

TEST(EinsumBroadcastOperands, MatchTheReferenceOnRandomExpressions) {
  auto rt = EagerRuntime::cpu();
  std::mt19937_64 rng(20261208);
  testing::RandomEinsumLimits limits;
  limits.max_operands = 5;
  limits.max_rank = 4;
  limits.max_extent = 4;
  int broadcast_calls = 0;
  for (int i = 0; i < 400; ++i) {
    const testing::RandomEinsumCase c = testing::random_einsum_case(rng, limits);
    const DType dtype = kAllDTypes[static_cast<std::size_t>(i) % 4];
    std::vector<EagerTensor> operands;
    std::vector<Tensor> hosts;
    bool any_broadcast = false;
    for (const Shape& shape : c.shapes) {
      operands.push_back(random_broadcast(rt, rng, dtype, shape));
      hosts.push_back(operands.back().download());
      for (std::size_t a = 0; a < shape.size(); ++a)
        any_broadcast = any_broadcast || (operands.back().strides()[a] == 0 && shape[a] > 1);
    }
    broadcast_calls += any_broadcast ? 1 : 0;
    // Twice: the plan's first call (layout search) and its cached play-back.
    for (int call = 0; call < 2; ++call) {
      const EagerTensor got = einsum(c.subscripts, operands);
      const auto agreement = testing::compare_with_reference(
          got.download(), testing::reference_einsum(c.subscripts, hosts));
      EXPECT_TRUE(agreement.ok) << c.describe() << " " << dtype_name(dtype) << " call " << call
                                << ": " << agreement.detail;
    }
  }
  EXPECT_GT(broadcast_calls, 250);  // the cases do have broadcast axes
}

// The axes a plan leaves out, as einsum_path reports the contraction it runs: a label another
// operand carries goes (j of the first operand, one of its two i axes), one no other operand
// carries stays (k, summed; l, kept).
TEST(EinsumBroadcastOperands, ThePlanLeavesOutOnlyAxesAnotherOperandCarries) {
  auto rt = EagerRuntime::cpu();
  const EagerTensor base = rt->upload(testing::random_tensor(DType::F64, Shape{3, 1, 1, 1}, 3));
  const EagerTensor a = prims::broadcast_to(base, Shape{3, 4, 5, 6});
  const EagerTensor b = rt->upload(testing::random_tensor(DType::F64, Shape{4, 3}, 4));
  const EagerTensor c = prims::broadcast_to(base, Shape{3, 3, 1, 1});
  EXPECT_EQ(einsum_path("ijkl,ji->il", std::vector<EagerTensor>{a, b}).expression, "ikl,ji->il");
  // c's first i axis has stride 1 (the base's), its second stride 0: the second goes.
  EXPECT_EQ(einsum_path("iixy,ji->j", std::vector<EagerTensor>{c, b}).expression, "ixy,ji->j");
  // Both operands broadcast along j: the first leaves it out, the second then carries it. The
  // second's i (stride 0 too) goes, as the first carries it.
  const EagerTensor row = rt->upload(testing::random_tensor(DType::F64, Shape{4, 1}, 5));
  const EagerTensor b0 = prims::broadcast_to(row, Shape{4, 3});
  const EagerTensor a0 = prims::broadcast_to(base, Shape{3, 4, 1, 1});
  EXPECT_EQ(einsum_path("ijxy,ji->", std::vector<EagerTensor>{a0, b0}).expression, "ixy,j->");
  // An axis of extent 1 that broadcasts against j is no carrier of j: a's j stays.
  const EagerTensor b1 = rt->upload(testing::random_tensor(DType::F64, Shape{1, 3}, 6));
  EXPECT_EQ(einsum_path("ijxy,ji->i", std::vector<EagerTensor>{a0, b1}).expression, "ijxy,ji->i");
}

// A label only broadcast axes carry keeps one, in the operand that reads the fewest elements:
// ij,ij-> of a number and a column, both broadcast to N x N, reads j,i-> (2N elements) where
// keeping the column's j read ,ij-> (N^2; an adversarial sweep's finding), and ij,jk,ki-> of
// three broadcast numbers reads one label per operand.
TEST(EinsumBroadcastOperands, ALabelOnlyBroadcastAxesCarryKeepsTheCheapestCarrier) {
  auto rt = EagerRuntime::cpu();
  constexpr std::int64_t n = std::int64_t{1} << 20;
  const Tensor number = testing::random_tensor(DType::F64, Shape{1, 1}, 21);
  const Tensor column = testing::random_tensor(DType::F64, Shape{n, 1}, 22);
  const EagerTensor s = prims::broadcast_to(rt->upload(number), Shape{n, n});
  const EagerTensor c = prims::broadcast_to(rt->upload(column), Shape{n, n});
  // Asserted: a plan that reads N^2 elements would run for hours.
  ASSERT_EQ(einsum_path("ij,ij->", std::vector<EagerTensor>{s, c}).expression, "j,i->");
  ASSERT_EQ(einsum_path("ij,jk,ki->", std::vector<EagerTensor>{s, s, s}).expression, "i,j,k->");
  long double column_sum = 0, column_abs = 0;
  for (std::int64_t i = 0; i < n; ++i) {
    column_sum += column.data<double>()[i];
    column_abs += std::fabs(column.data<double>()[i]);
  }
  const long double v = number.data<double>()[0];
  const double got = einsum("ij,ij->", std::vector<EagerTensor>{s, c}).download().data<double>()[0];
  // sum_ij v c_i = N v sum(c), within the sums' worst-case rounding.
  EXPECT_LE(std::fabs(got - n * v * column_sum),
            4.0L * n * 1.2e-16L * n * std::fabs(v) * column_abs);
  const double cube =
      einsum("ij,jk,ki->", std::vector<EagerTensor>{s, s, s}).download().data<double>()[0];
  const long double want = static_cast<long double>(n) * n * n * v * v * v;
  EXPECT_LE(std::fabs(cube - want), 1e-12L * std::fabs(want));
}

// einsum("ijk,j,k->i") of a (3, 2^20, 2^20) view of three numbers: materialised it is 24 TiB
// (a ResourceError before the plan left the axes out); read once, it is s_i sum(x) sum(y).
TEST(EinsumBroadcastOperands, AViewLargerThanMemoryReadsItsDistinctElementsOnly) {
  auto rt = EagerRuntime::cpu();
  constexpr std::int64_t n = std::int64_t{1} << 20;
  const Tensor s = testing::random_tensor(DType::F64, Shape{3, 1, 1}, 11);
  const Tensor x = testing::random_tensor(DType::F64, Shape{n}, 12);
  const Tensor y = testing::random_tensor(DType::F64, Shape{n}, 13);
  const EagerTensor view = prims::broadcast_to(rt->upload(s), Shape{3, n, n});
  const Tensor got =
      einsum("ijk,j,k->i", std::vector<EagerTensor>{view, rt->upload(x), rt->upload(y)}).download();
  long double sum_x = 0, sum_y = 0, abs_x = 0, abs_y = 0;
  for (std::int64_t k = 0; k < n; ++k) {
    sum_x += x.data<double>()[k];
    sum_y += y.data<double>()[k];
    abs_x += std::fabs(x.data<double>()[k]);
    abs_y += std::fabs(y.data<double>()[k]);
  }
  ASSERT_EQ(got.shape(), (Shape{3}));
  for (int i = 0; i < 3; ++i) {
    const long double want = s.data<double>()[i] * sum_x * sum_y;
    // Each sum's rounding: n eps relative to the sum of magnitudes, a bound that can fail.
    const long double bound = 4.0L * n * 1.2e-16L * std::fabs(s.data<double>()[i]) * abs_x * abs_y;
    EXPECT_LE(std::fabs(static_cast<long double>(got.data<double>()[i]) - want), bound)
        << "i = " << i;
  }
}

}  // namespace
}  // namespace tenferro
