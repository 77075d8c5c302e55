// Element-wise prims on a CUDA runtime (skipped without a device): every unary and binary op,
// scalar forms, complex from parts and casts for every dtype each allows, on strided and
// broadcast inputs, against the CPU runtime's result for the same host data (run_both checks
// residency, no transfer, no CPU kernel). NumPy's branch cuts and NaN propagation are also
// written out here as independent references.
#include <gtest/gtest.h>

#include "tenferro/config.hpp"

#if TENFERRO_HAS_CUDA

#include <limits>
#include <numbers>

#include "prims_cuda_fixture.hpp"

namespace tenferro {
namespace {

using cuda_test::agree;
using cuda_test::bit_identical;
using cuda_test::C;
using cuda_test::label;
using cuda_test::PrimsCudaTest;
using cuda_test::random_tensor;
using cuda_test::tolerance_of;
using cuda_test::values_of;

TEST_F(PrimsCudaTest, UnaryOpsMatchTheCpuForEveryDtypeOnStridedInputs) {
  using Unary = EagerTensor (*)(const EagerTensor&);
  const std::vector<std::pair<std::string, Unary>> ops = {
      {"neg", prims::neg},       {"conj", prims::conj}, {"abs", prims::abs},
      {"real", prims::real},     {"imag", prims::imag}, {"sqrt", prims::sqrt},
      {"exp", prims::exp},       {"log", prims::log},   {"sin", prims::sin},
      {"cos", prims::cos},       {"tanh", prims::tanh}, {"reciprocal", prims::reciprocal},
      {"square", prims::square}, {"sign", prims::sign}};
  unsigned seed = 1;
  for (DType d : kAllDTypes) {
    // Values in [-3, 3] (both parts): negative reals for sqrt/log's NaN, large enough for tanh.
    const Tensor scaled =
        prims::scale(cpu_->upload(random_tensor(d, {6, 5, 3}, seed++)), 3.0).download();
    for (const auto& [name, f] : ops) {
      expect_matches_cpu(
          label(name, d), {scaled},
          [f = f](const std::vector<EagerTensor>& in) { return f(in[0]); }, tolerance_of(d));
    }
  }
}

TEST_F(PrimsCudaTest, ComplexBranchCutsAndSignedZerosAreNumPys) {
  const double pi = std::numbers::pi;
  // (input, sqrt, log) with NumPy's results: the sign of a zero imaginary part picks the side
  // of the cut on the negative real axis.
  struct Case {
    C z, sqrt, log;
  };
  const std::vector<Case> cases = {
      {C(-4.0, 0.0), C(0.0, 2.0), C(std::log(4.0), pi)},
      {C(-4.0, -0.0), C(0.0, -2.0), C(std::log(4.0), -pi)},
      {C(-1.0, 0.0), C(0.0, 1.0), C(0.0, pi)},
      {C(-1.0, -0.0), C(0.0, -1.0), C(0.0, -pi)},
      {C(4.0, 0.0), C(2.0, 0.0), C(std::log(4.0), 0.0)},
      {C(0.0, 2.0), C(1.0, 1.0), C(std::log(2.0), pi / 2)},
  };
  for (DType d : {DType::C32, DType::C64}) {
    SCOPED_TRACE(dtype_name(d));
    std::vector<C> zs;
    for (const Case& c : cases) zs.push_back(c.z);
    Tensor host = Tensor::from_col_major<C>({static_cast<std::int64_t>(zs.size())}, zs);
    if (d == DType::C32) host = prims::cast(cpu_->upload(host), DType::C32).download();
    const EagerTensor x = runtime_->upload(host);
    const std::vector<C> s = values_of(prims::sqrt(x).download());
    const std::vector<C> l = values_of(prims::log(x).download());
    const double tol = tolerance_of(d);
    for (std::size_t i = 0; i < cases.size(); ++i) {
      SCOPED_TRACE("z = " + std::to_string(cases[i].z.real()) +
                   (std::signbit(cases[i].z.imag()) ? " - " : " + ") +
                   std::to_string(std::abs(cases[i].z.imag())) + "i");
      EXPECT_NEAR(s[i].real(), cases[i].sqrt.real(), tol);
      EXPECT_NEAR(s[i].imag(), cases[i].sqrt.imag(), tol * 2);
      EXPECT_EQ(std::signbit(s[i].imag()), std::signbit(cases[i].sqrt.imag()));
      EXPECT_NEAR(l[i].real(), cases[i].log.real(), tol * 4);
      EXPECT_NEAR(l[i].imag(), cases[i].log.imag(), tol * 4);
    }
    // And the rest of the special values agree with the CPU's C99 functions.
    const std::vector<C> specials = {C(0.0, 0.0),       C(-0.0, -0.0),     C(1e300, 1e300),
                                     C(1e-310, 1e-310), C(-1e300, 1e-300), C(0.0, -3.0),
                                     C(-2.5, 0.0),      C(2.5, -0.0)};
    if (d == DType::C32) continue;  // 1e300 does not fit C32; the table above covers C32
    const Tensor sp =
        Tensor::from_col_major<C>({static_cast<std::int64_t>(specials.size())}, specials);
    for (auto f : {prims::sqrt, prims::log, prims::exp, prims::sign, prims::abs, prims::tanh}) {
      expect_matches_cpu(
          "specials", {sp}, [f](const std::vector<EagerTensor>& in) { return f(in[0]); }, 1e-12,
          /*strided=*/false);
    }
  }
}

TEST_F(PrimsCudaTest, BinaryOpsBroadcastAndMatchTheCpu) {
  using Binary = EagerTensor (*)(const EagerTensor&, const EagerTensor&);
  const std::vector<std::pair<std::string, Binary>> all = {
      {"add", prims::add}, {"sub", prims::sub}, {"mul", prims::mul}, {"div", prims::div}};
  const std::vector<std::pair<std::string, Binary>> real_only = {
      {"maximum", prims::maximum}, {"minimum", prims::minimum}, {"pow", prims::pow}};
  // (a shape, b shape): stretched size-1 axes on both sides, a 0-d operand, a missing axis.
  const std::vector<std::pair<Shape, Shape>> shapes = {
      {{4, 1, 3}, {1, 5, 3}}, {{6, 7}, {}}, {{5, 4}, {4}}, {{1}, {3, 2}}, {{3, 0}, {1, 0}}};
  unsigned seed = 100;
  for (DType d : kAllDTypes) {
    for (const auto& [sa, sb] : shapes) {
      const Tensor a = random_tensor(d, sa, seed++), b = random_tensor(d, sb, seed++);
      for (const auto& [name, f] : all) {
        expect_matches_cpu(
            label(name, d) + " " + shape_to_string(sa) + shape_to_string(sb), {a, b},
            [f = f](const std::vector<EagerTensor>& in) { return f(in[0], in[1]); },
            tolerance_of(d));
      }
      if (is_complex(d)) continue;
      // pow of a positive base (a negative one with a fractional exponent is NaN on both).
      const Tensor pos = prims::shift(prims::abs(cpu_->upload(a)), 0.5).download();
      for (const auto& [name, f] : real_only) {
        expect_matches_cpu(
            label(name, d), {pos, b},
            [f = f](const std::vector<EagerTensor>& in) { return f(in[0], in[1]); },
            tolerance_of(d));
      }
    }
  }
}

TEST_F(PrimsCudaTest, MaximumAndMinimumPropagateNaN) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  for (DType d : {DType::F32, DType::F64}) {
    Tensor a = Tensor::from_col_major<double>({4}, {nan, 1.0, 2.0, nan});
    Tensor b = Tensor::from_col_major<double>({4}, {0.0, nan, 3.0, nan});
    if (d == DType::F32) {
      a = prims::cast(cpu_->upload(a), d).download();
      b = prims::cast(cpu_->upload(b), d).download();
    }
    const auto mx = values_of(prims::maximum(runtime_->upload(a), runtime_->upload(b)).download());
    const auto mn = values_of(prims::minimum(runtime_->upload(a), runtime_->upload(b)).download());
    EXPECT_TRUE(std::isnan(mx[0].real()) && std::isnan(mx[1].real()) && std::isnan(mx[3].real()));
    EXPECT_TRUE(std::isnan(mn[0].real()) && std::isnan(mn[1].real()) && std::isnan(mn[3].real()));
    EXPECT_EQ(mx[2].real(), 3.0);
    EXPECT_EQ(mn[2].real(), 2.0);
    const auto rmax = values_of(prims::max(runtime_->upload(a)).download());
    EXPECT_TRUE(std::isnan(rmax[0].real())) << "max over a NaN is NaN";
  }
}

TEST_F(PrimsCudaTest, ComplexFromPartsAndScalarFormsMatchTheCpu) {
  unsigned seed = 200;
  for (DType d : {DType::F32, DType::F64}) {
    const Tensor re = random_tensor(d, {5, 3}, seed++), im = random_tensor(d, {5, 1}, seed++);
    expect_matches_cpu(
        label("complex", d), {re, im},
        [](const std::vector<EagerTensor>& in) { return prims::complex(in[0], in[1]); }, 0.0);
  }
  for (DType d : kAllDTypes) {
    const Tensor x = random_tensor(d, {7, 4}, seed++), y = random_tensor(d, {1, 4}, seed++);
    const double tol = tolerance_of(d);
    for (prims::Scalar alpha : {prims::Scalar(2.5), prims::Scalar(-0.5, 1.25)}) {
      expect_matches_cpu(
          label("scale", d), {x},
          [alpha](const std::vector<EagerTensor>& in) { return prims::scale(in[0], alpha); }, tol);
      expect_matches_cpu(
          label("shift", d), {x},
          [alpha](const std::vector<EagerTensor>& in) { return prims::shift(in[0], alpha); }, tol);
      expect_matches_cpu(
          label("axpby", d), {x, y},
          [alpha](const std::vector<EagerTensor>& in) {
            return prims::axpby(alpha, in[0], prims::Scalar(-1.5), in[1]);
          },
          tol);
    }
  }
}

TEST_F(PrimsCudaTest, CastsBetweenEveryAllowedPairAreExactAndConcatenateJoinsOnTheDevice) {
  unsigned seed = 300;
  for (DType from : kAllDTypes) {
    const Tensor x = random_tensor(from, {4, 6}, seed++);
    for (DType to : kAllDTypes) {
      if (is_complex(from) && !is_complex(to)) continue;  // refused: real()/abs() say which
      SCOPED_TRACE(std::string(dtype_name(from)) + " -> " + std::string(dtype_name(to)));
      const auto [got, want] = run_both(
          {x}, [to](const std::vector<EagerTensor>& in) { return prims::cast(in[0], to); });
      EXPECT_TRUE(bit_identical(got, want)) << "a cast rounds once, to nearest, on both";
    }
  }
  const Tensor a = random_tensor(DType::F32, {3, 2}, seed++);
  const Tensor b = random_tensor(DType::C64, {3, 4}, seed++);
  const auto [got, want] = run_both(
      {a, b}, [](const std::vector<EagerTensor>& in) { return prims::concatenate(in, 1); });
  EXPECT_EQ(got.dtype(), DType::C64);
  EXPECT_TRUE(bit_identical(got, want));
  const auto [c_got, c_want] =
      run_both({a}, [](const std::vector<EagerTensor>& in) { return prims::contiguous(in[0]); });
  EXPECT_TRUE(bit_identical(c_got, c_want));
}

TEST_F(PrimsCudaTest, ElementwiseRunsOnViewsOfMoreThanTwentyFourAxes) {
  // 2^25 elements as 25 axes of extent 2, read through the reversing permutation: no two axes
  // of the view merge, so the kernel walks all 25 (einsum's strided index stops at 24).
  const Shape shape(25, 2);
  const Tensor x = random_tensor(DType::F32, shape, 7);
  std::vector<std::int64_t> reverse(25);
  for (std::int64_t a = 0; a < 25; ++a) reverse[static_cast<std::size_t>(a)] = 24 - a;
  expect_matches_cpu(
      "neg of a 25-axis view", {x},
      [&](const std::vector<EagerTensor>& in) {
        return prims::neg(prims::permute(in[0], reverse));
      },
      0.0, /*strided=*/false);
}

TEST_F(PrimsCudaTest, F64RunsOnCudaAndStaysF64) {
  const Tensor a = random_tensor(DType::F64, {3, 4}, 9), b = random_tensor(DType::F64, {3, 4}, 10);
  const EagerTensor r = prims::add(runtime_->upload(a), runtime_->upload(b));
  EXPECT_EQ(r.dtype(), DType::F64);
  EXPECT_EQ(r.runtime(), runtime_);
  const std::vector<C> got = values_of(r.download()), va = values_of(a), vb = values_of(b);
  for (std::size_t i = 0; i < got.size(); ++i)
    EXPECT_EQ(got[i].real(), va[i].real() + vb[i].real());
}

}  // namespace
}  // namespace tenferro

#endif  // TENFERRO_HAS_CUDA
