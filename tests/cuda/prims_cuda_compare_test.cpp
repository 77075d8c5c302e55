// Comparison, selection and scalar-division prims on a CUDA runtime (skipped without a device):
// IEEE special values (+-0, +-inf, NaN, subnormals, the extremes) on strided, broadcast
// operands, bit for bit equal to the CPU runtime (whose results tests/prims/
// prims_special_values_test.cpp checks against std:: operators), plus a few results written
// out here as independent references.
#include <gtest/gtest.h>

#include "tenferro/config.hpp"

#if TENFERRO_HAS_CUDA

#include <limits>
#include <string>

#include "core/real_type.hpp"
#include "prims_cuda_fixture.hpp"

namespace tenferro {
namespace {

using cuda_test::agree;
using cuda_test::bit_identical;
using cuda_test::C;
using cuda_test::label;
using cuda_test::PrimsCudaTest;
using cuda_test::tolerance_of;
using cuda_test::values_of;

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

template <class R>
std::vector<R> specials() {
  using L = std::numeric_limits<R>;
  return {R(0),     R(-0.0),  R(1),    R(-1),           R(0.5),           R(3),
          R(kInf),  R(-kInf), R(kNaN), L::denorm_min(), -L::denorm_min(), L::min(),
          L::max(), -L::max()};
}

// The specials of `d` as a host tensor of `shape` (numel must divide into repeats of them).
Tensor special_tensor(DType d, Shape shape, int rotate = 0) {
  return visit_dtype(d, [&](auto tag) {
    using T = decltype(tag);
    using R = RealType<T>;
    const std::vector<R> s = specials<R>();
    std::int64_t n = 1;
    for (std::int64_t e : shape) n *= e;
    std::vector<T> v;
    for (std::int64_t k = 0; k < n; ++k) {
      const R re = s[static_cast<std::size_t>(k + rotate) % s.size()];
      if constexpr (kIsComplexType<T>) {
        v.emplace_back(re, s[static_cast<std::size_t>(3 * k + 5 + rotate) % s.size()]);
      } else {
        v.push_back(re);
      }
    }
    return Tensor::from_col_major<T>(std::move(shape), v);
  });
}

TEST_F(PrimsCudaTest, ComparisonsOfSpecialValuesAreBitIdenticalToTheCpu) {
  using Binary = EagerTensor (*)(const EagerTensor&, const EagerTensor&);
  const std::vector<std::pair<std::string, Binary>> ordering = {
      {"greater", prims::greater},
      {"greater_equal", prims::greater_equal},
      {"less", prims::less},
      {"less_equal", prims::less_equal}};
  const std::vector<std::pair<std::string, Binary>> equality = {{"equal", prims::equal},
                                                                {"not_equal", prims::not_equal}};
  for (DType d : kAllDTypes) {
    // Every pair: a [14, 1] against b [1, 14].
    const Tensor a = special_tensor(d, {14, 1}), b = special_tensor(d, {1, 14});
    auto rows = equality;
    if (!is_complex(d)) rows.insert(rows.end(), ordering.begin(), ordering.end());
    for (const auto& [name, f] : rows) {
      SCOPED_TRACE(label(name, d));
      const auto [got, want] =
          run_both({a, b}, [f = f](const std::vector<EagerTensor>& in) { return f(in[0], in[1]); });
      EXPECT_EQ(got.dtype(), real_dtype(d));
      EXPECT_TRUE(bit_identical(got, want));
    }
  }
  // Written out: NaN is unequal to itself, inf equals inf, -0 equals +0.
  const Tensor x = Tensor::from_col_major<double>({3}, {kNaN, kInf, -0.0});
  const Tensor y = Tensor::from_col_major<double>({3}, {kNaN, kInf, 0.0});
  const auto [eq, unused] = run_both(
      {x, y}, [](const std::vector<EagerTensor>& in) { return prims::equal(in[0], in[1]); });
  EXPECT_EQ(values_of(eq), (std::vector<C>{C(0, 0), C(1, 0), C(1, 0)}));
}

TEST_F(PrimsCudaTest, WhereSelectsSpecialValuesBitForBit) {
  for (DType d : kAllDTypes) {
    SCOPED_TRACE(label("where", d));
    const Tensor c = special_tensor(d, {14, 1}), x = special_tensor(d, {1, 14}, 4),
                 y = special_tensor(d, {14, 14}, 9);
    const auto [got, want] = run_both({c, x, y}, [](const std::vector<EagerTensor>& in) {
      return prims::where(in[0], in[1], in[2]);
    });
    EXPECT_TRUE(bit_identical(got, want));
  }
  // Written out: 0 and -0 pick y; NaN and a subnormal pick x; y's inf/NaN never leak.
  const Tensor c =
      Tensor::from_col_major<float>({4}, {0.0f, -0.0f, std::numeric_limits<float>::quiet_NaN(),
                                          std::numeric_limits<float>::denorm_min()});
  const Tensor x = Tensor::from_col_major<float>({4}, {1.0f, 2.0f, 3.0f, 4.0f});
  const Tensor y =
      Tensor::from_col_major<float>({4}, {5.0f, 6.0f, std::numeric_limits<float>::infinity(),
                                          std::numeric_limits<float>::quiet_NaN()});
  const auto [got, unused] = run_both({c, x, y}, [](const std::vector<EagerTensor>& in) {
    return prims::where(in[0], in[1], in[2]);
  });
  EXPECT_EQ(values_of(got), (std::vector<C>{C(5, 0), C(6, 0), C(3, 0), C(4, 0)}));
}

TEST_F(PrimsCudaTest, DivisionByAScalarIsIeeeAndStaysReal) {
  for (DType d : {DType::F32, DType::F64}) {
    const Tensor x = special_tensor(d, {14});
    for (double v : {0.0, -0.0, kInf, kNaN, 3.0, 1e-310}) {
      SCOPED_TRACE(label("div", d) + " by " + std::to_string(v));
      const auto [q, q_cpu] =
          run_both({x}, [v](const std::vector<EagerTensor>& in) { return prims::div(in[0], v); });
      EXPECT_EQ(q.dtype(), d);
      EXPECT_TRUE(agree(q, q_cpu, tolerance_of(d)));
      const auto [r, r_cpu] =
          run_both({x}, [v](const std::vector<EagerTensor>& in) { return prims::div(v, in[0]); });
      EXPECT_TRUE(agree(r, r_cpu, tolerance_of(d)));
    }
  }
  const auto [tiny, unused] =
      run_both({Tensor::from_col_major<double>({1}, {1e-300})},
               [](const std::vector<EagerTensor>& in) { return prims::div(in[0], 1e-310); });
  EXPECT_NEAR(values_of(tiny).at(0).real(), 1e10, 1e-3);
}

}  // namespace
}  // namespace tenferro

#endif  // TENFERRO_HAS_CUDA
