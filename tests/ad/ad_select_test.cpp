// AD of the comparison and selection prims: comparisons are constants (no gradient flows
// through them), where's cotangent goes to the chosen branch only, and an Inf/NaN in the branch
// not taken never reaches a gradient (a 0/1 mask multiplied in would give 0 * inf = NaN).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "ad/gradcheck.hpp"

namespace tenferro::ad_test {
namespace {

using V = ad::Variable;
constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

std::vector<double> values(const EagerTensor& x) {
  return x.download().to_vector<double>();
}

TEST(AdSelect, WhereMatchesFiniteDifferencesWithBroadcasting) {
  const EagerTensor cond = prims::greater(randn(DType::F64, {4, 1}, 1), randn(DType::F64, {}, 2));
  for (DType d : {DType::F64, DType::C64}) {
    const EagerTensor x = randn(d, {4, 3}, 3), y = randn(d, {3}, 4);
    check_gradients(
        "where " + std::string(dtype_name(d)),
        [cond](std::span<const V> v) { return std::vector<V>{ad::where(cond, v[0], v[1])}; },
        {x, y});
  }
}

TEST(AdSelect, TheBranchNotTakenLeaksNoNaNIntoGradients) {
  auto rt = cpu();
  const EagerTensor x0 = rt->upload(Tensor::from_col_major<double>({3}, {1.0, kInf, 2.0}));
  const EagerTensor y0 = rt->upload(Tensor::from_col_major<double>({3}, {kNaN, 5.0, kInf}));
  const EagerTensor cond = rt->upload(Tensor::from_col_major<double>({3}, {1.0, 0.0, 1.0}));
  ad::GradientTape tape(rt);
  V x = tape.watch(x0), y = tape.watch(y0);
  V loss = ad::sum(ad::where(cond, x, y) * 2.0);
  EXPECT_EQ(values(loss.value()), (std::vector<double>{2.0 * (1.0 + 5.0 + 2.0)}));
  auto g = tape.gradient(loss, {x, y});
  EXPECT_EQ(values(g[0]), (std::vector<double>{2.0, 0.0, 2.0}));
  EXPECT_EQ(values(g[1]), (std::vector<double>{0.0, 2.0, 0.0}));
}

TEST(AdSelect, ComparisonsAreConstants) {
  auto rt = cpu();
  ad::GradientTape tape(rt);
  V x = tape.watch(rt->upload(Tensor::from_col_major<double>({3}, {1.0, kNaN, 3.0})));
  V c = ad::greater(x, V(prims::full(rt, DType::F64, {}, 2.0)));
  EXPECT_EQ(values(c.value()), (std::vector<double>{0.0, 0.0, 1.0}));
  EXPECT_FALSE(c.tracked());
  // The loss depends on x only through the mask times x: d/dx = mask.
  V loss = ad::sum(c * x);
  auto g = tape.gradient(loss, {x});
  EXPECT_EQ(values(g[0]), (std::vector<double>{0.0, 0.0, 1.0}));
  EXPECT_EQ(values(ad::not_equal(x, x).value()), (std::vector<double>{0.0, 1.0, 0.0}));
}

}  // namespace
}  // namespace tenferro::ad_test
