// ad::div by a scalar: an IEEE division by a 0-d constant (x / 0 is +-inf or NaN and stays
// real), with the gradient of div.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "ad/gradcheck.hpp"

namespace tenferro::ad_test {
namespace {

using V = ad::Variable;
using ad::Scalar;

TEST(AdScalarDiv, ByZeroStaysRealAndIeee) {
  auto rt = cpu();
  ad::GradientTape tape(rt);
  V x = tape.watch(rt->upload(Tensor::from_col_major<double>({3}, {2.0, -1.0, 0.0})));
  V q = ad::div(x, Scalar(0.0));
  EXPECT_EQ(q.dtype(), DType::F64);
  const std::vector<double> v = q.value().download().to_vector<double>();
  EXPECT_EQ(v[0], std::numeric_limits<double>::infinity());
  EXPECT_EQ(v[1], -std::numeric_limits<double>::infinity());
  EXPECT_TRUE(std::isnan(v[2]));
  V r = ad::div(Scalar(1e-300), x);
  EXPECT_EQ(r.value().download().to_vector<double>()[0], 1e-300 / 2.0);
}

TEST(AdScalarDiv, MatchesFiniteDifferences) {
  const EagerTensor x = prims::shift(prims::abs(randn(DType::F64, {4}, 5)), 0.5);
  check_unary(
      "x / 3", [](const V& v) { return ad::div(v, Scalar(3.0)); }, x);
  check_unary(
      "3 / x", [](const V& v) { return ad::div(Scalar(3.0), v); }, x);
  const EagerTensor z = prims::cast(x, DType::C64);
  check_unary(
      "z / (1+2i)", [](const V& v) { return ad::div(v, Scalar(1.0, 2.0)); }, z);
}

}  // namespace
}  // namespace tenferro::ad_test
