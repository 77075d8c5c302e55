// Every prims rule through the gradient checker (VJP and JVP against finite differences, and
// their consistency), in F64 and, where the op takes complex values, C64.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <limits>

#include "ad/gradcheck.hpp"

namespace tenferro::ad_test {
namespace {

using V = ad::Variable;
constexpr DType kReal = DType::F64, kComplex = DType::C64;

TEST(AdPrims, UnaryHolomorphic) {
  for (DType d : {kReal, kComplex}) {
    const std::string tag = std::string(dtype_name(d));
    const EagerTensor x = randn(d, {3, 2}, 1);
    const EagerTensor pos = prims::shift(prims::abs(randn(kReal, {3, 2}, 2)), 0.5);
    const EagerTensor xpos =
        d == kReal ? pos
                   : prims::add(prims::cast(pos, d),
                                prims::scale(prims::cast(randn(kReal, {3, 2}, 3), d), {0.0, 0.3}));
    check_unary(
        "neg " + tag, [](const V& v) { return ad::neg(v); }, x);
    check_unary(
        "conj " + tag, [](const V& v) { return ad::conj(v); }, x);
    check_unary(
        "exp " + tag, [](const V& v) { return ad::exp(v); }, x);
    check_unary(
        "exp2 " + tag, [](const V& v) { return ad::exp2(v); }, x);
    check_unary(
        "sin " + tag, [](const V& v) { return ad::sin(v); }, x);
    check_unary(
        "cos " + tag, [](const V& v) { return ad::cos(v); }, x);
    check_unary(
        "tanh " + tag, [](const V& v) { return ad::tanh(v); }, x);
    check_unary(
        "square " + tag, [](const V& v) { return ad::square(v); }, x);
    check_unary(
        "sqrt " + tag, [](const V& v) { return ad::sqrt(v); }, xpos);
    check_unary(
        "log " + tag, [](const V& v) { return ad::log(v); }, xpos);
    check_unary(
        "expm1 " + tag, [](const V& v) { return ad::expm1(v); }, x);
    check_unary(
        "log1p " + tag, [](const V& v) { return ad::log1p(v); }, xpos);
    check_unary(
        "log2 " + tag, [](const V& v) { return ad::log2(v); }, xpos);
    check_unary(
        "log10 " + tag, [](const V& v) { return ad::log10(v); }, xpos);
    check_unary(
        "reciprocal " + tag, [](const V& v) { return ad::reciprocal(v); }, xpos);
    check_unary(
        "tan " + tag, [](const V& v) { return ad::tan(v); }, prims::scale(x, 0.5));
    check_unary(
        "sinh " + tag, [](const V& v) { return ad::sinh(v); }, x);
    check_unary(
        "cosh " + tag, [](const V& v) { return ad::cosh(v); }, x);
  }
}

// The real-only functions, inside their domains (asin, acos and atanh on (-0.9, 0.9), acosh
// above 1.5); floor, ceil, rint and trunc away from their jumps have gradient zero, which the
// product with x (gradient floor(x)) checks against the finite differences.
TEST(AdPrims, UnaryRealOnly) {
  const EagerTensor x = randn(kReal, {3, 2}, 11);
  const EagerTensor unit = prims::scale(prims::tanh(x), 0.9);
  const EagerTensor above = prims::shift(prims::abs(x), 1.5);
  const EagerTensor wide = prims::scale(x, 3.0);
  check_unary(
      "asin", [](const V& v) { return ad::asin(v); }, unit);
  check_unary(
      "acos", [](const V& v) { return ad::acos(v); }, unit);
  check_unary(
      "atan", [](const V& v) { return ad::atan(v); }, wide);
  check_unary(
      "asinh", [](const V& v) { return ad::asinh(v); }, wide);
  check_unary(
      "acosh", [](const V& v) { return ad::acosh(v); }, above);
  check_unary(
      "atanh", [](const V& v) { return ad::atanh(v); }, unit);
  check_unary(
      "cbrt", [](const V& v) { return ad::cbrt(v); }, wide);
  for (const auto& op : {std::pair{"floor", &ad::floor}, std::pair{"ceil", &ad::ceil},
                         std::pair{"rint", &ad::rint}, std::pair{"trunc", &ad::trunc}}) {
    // (clang 14 captures no structured binding: the function pointer by name)
    const auto f = op.second;
    check_unary(
        std::string(op.first) + " times x", [f](const V& v) { return ad::mul(f(v), v); }, wide);
  }
}

TEST(AdPrims, UnaryNonHolomorphic) {
  for (DType d : {kReal, kComplex}) {
    const std::string tag = std::string(dtype_name(d));
    const EagerTensor x = randn(d, {4}, 5);
    check_unary(
        "abs " + tag, [](const V& v) { return ad::abs(v); }, x);
    check_unary(
        "real " + tag, [](const V& v) { return ad::real(v); }, x);
    check_unary(
        "imag " + tag, [](const V& v) { return ad::imag(v); }, x);
    check_unary(
        "sign " + tag, [](const V& v) { return ad::sign(v); }, x);
    // |z|^2 through conj: the Wirtinger convention's textbook case (gradient 2z).
    check_unary(
        "z conj(z) " + tag, [](const V& v) { return ad::real(ad::mul(v, ad::conj(v))); }, x);
  }
}

TEST(AdPrims, AbsGradientFollowsPyTorchConvention) {
  // L = sum |z|^2 has gradient dL/dx + i dL/dy = 2z.
  const EagerTensor z = randn(kComplex, {3}, 7);
  auto g = ad::grad(
      [](std::span<const V> v) { return std::vector<V>{ad::sum(ad::square(ad::abs(v[0])))}; },
      std::span<const EagerTensor>(&z, 1));
  const auto gh = entries(g[0]), zh = entries(z);
  for (std::size_t i = 0; i < zh.size(); ++i)
    EXPECT_NEAR(std::abs(gh[i] - 2.0 * zh[i]), 0.0, 1e-12);
}

TEST(AdPrims, BinaryWithBroadcasting) {
  for (DType d : {kReal, kComplex}) {
    const std::string tag = std::string(dtype_name(d));
    const EagerTensor a = randn(d, {3, 1, 2}, 11), b = randn(d, {4, 1}, 12);
    const EagerTensor bpos = d == kReal ? prims::shift(prims::abs(b), 0.5) : prims::shift(b, 3.0);
    const auto bin = [](auto op) {
      return [op](std::span<const V> v) { return std::vector<V>{op(v[0], v[1])}; };
    };
    check_gradients("add " + tag, bin([](const V& x, const V& y) { return x + y; }), {a, b});
    check_gradients("sub " + tag, bin([](const V& x, const V& y) { return x - y; }), {a, b});
    check_gradients("mul " + tag, bin([](const V& x, const V& y) { return x * y; }), {a, b});
    check_gradients("div " + tag, bin([](const V& x, const V& y) { return x / y; }), {a, bpos});
  }
  // Mixed dtypes: a real operand meets a complex one (its cotangent is the real part).
  check_gradients("mul F64*C64", [](std::span<const V> v) { return std::vector<V>{v[0] * v[1]}; },
                  {randn(kReal, {2, 3}, 13), randn(kComplex, {2, 3}, 14)});
  // A 0-d operand broadcasts against everything.
  check_gradients("add 0-d", [](std::span<const V> v) { return std::vector<V>{v[0] + v[1]}; },
                  {randn(kReal, {}, 15), randn(kReal, {2, 3}, 16)});
}

TEST(AdPrims, RealOnlyBinary) {
  const EagerTensor a = randn(kReal, {5}, 21), b = randn(kReal, {5}, 22);
  check_gradients("maximum",
                  [](std::span<const V> v) { return std::vector<V>{ad::maximum(v[0], v[1])}; },
                  {a, b});
  check_gradients("minimum",
                  [](std::span<const V> v) { return std::vector<V>{ad::minimum(v[0], v[1])}; },
                  {a, b});
  const EagerTensor base = prims::shift(prims::abs(a), 0.5);
  check_gradients("pow", [](std::span<const V> v) { return std::vector<V>{ad::pow(v[0], v[1])}; },
                  {base, b});
  check_gradients("complex",
                  [](std::span<const V> v) { return std::vector<V>{ad::complex(v[0], v[1])}; },
                  {a, b});
  check_gradients(
      "atan2", [](std::span<const V> v) { return std::vector<V>{ad::atan2(v[0], v[1])}; }, {a, b});
  check_gradients(
      "hypot", [](std::span<const V> v) { return std::vector<V>{ad::hypot(v[0], v[1])}; }, {a, b});
  // Between the jumps (a / b away from integers for these draws): mod and fmod move with a at
  // slope 1 and with b at minus the quotient; floor_div is flat; copysign moves a's magnitude.
  const EagerTensor wide = prims::scale(a, 7.0);
  check_gradients("mod", [](std::span<const V> v) { return std::vector<V>{ad::mod(v[0], v[1])}; },
                  {wide, b});
  check_gradients("fmod", [](std::span<const V> v) { return std::vector<V>{ad::fmod(v[0], v[1])}; },
                  {wide, b});
  check_gradients(
      "floor_div times a",
      [](std::span<const V> v) { return std::vector<V>{ad::mul(ad::floor_div(v[0], v[1]), v[0])}; },
      {wide, b});
  check_gradients("copysign",
                  [](std::span<const V> v) { return std::vector<V>{ad::copysign(v[0], v[1])}; },
                  {a, b});
  // Broadcast operands: the cotangent sums back over the stretched axis.
  check_gradients("mod broadcast",
                  [](std::span<const V> v) { return std::vector<V>{ad::mod(v[0], v[1])}; },
                  {prims::scale(randn(kReal, {3, 1}, 25), 7.0), randn(kReal, {4}, 26)});
  check_gradients(
      "floor_div broadcast",
      [](std::span<const V> v) { return std::vector<V>{ad::add(ad::floor_div(v[0], v[1]), v[1])}; },
      {randn(kReal, {3, 1}, 27), randn(kReal, {4}, 28)});
  check_gradients("atan2 broadcast",
                  [](std::span<const V> v) { return std::vector<V>{ad::atan2(v[0], v[1])}; },
                  {randn(kReal, {3, 1}, 23), randn(kReal, {4}, 24)});
}

// The 2-norm of a zero vector: the subgradient 0 (g / 0 times x = 0 was NaN), per reduced
// vector: the zero column of [[0, 3], [0, 4]] gets 0, the other x / |x|.
TEST(AdPrims, NormOfAZeroVectorHasGradientZero) {
  const EagerTensor x = cpu()->upload(Tensor::from_col_major<double>({2, 2}, {0, 0, 3, 4}));
  const ad::Axes rows{0};
  auto g =
      ad::grad([&](std::span<const V> v) { return std::vector<V>{ad::sum(ad::norm(v[0], rows))}; },
               std::span<const EagerTensor>(&x, 1));
  const std::vector<double> got = g[0].download().to_vector<double>(), want{0.0, 0.0, 0.6, 0.8};
  for (std::size_t i = 0; i < want.size(); ++i) EXPECT_NEAR(got[i], want[i], 1e-15) << i;
}

// copysign at an infinite a: d/da = sign(a) sign(b) = -1, 1 (y / a was NaN there), 0 at a = 0.
TEST(AdPrims, CopysignAtInfinitiesAndZero) {
  const double inf = std::numeric_limits<double>::infinity();
  const EagerTensor a = cpu()->upload(Tensor::from_col_major<double>({4}, {inf, -inf, 0.0, 2.0}));
  const EagerTensor b =
      cpu()->upload(Tensor::from_col_major<double>({4}, {-1.0, -1.0, -1.0, -0.0}));
  const EagerTensor in[] = {a, b};
  auto g = ad::grad(
      [](std::span<const V> v) { return std::vector<V>{ad::sum(ad::copysign(v[0], v[1]))}; }, in);
  EXPECT_EQ(g[0].download().to_vector<double>(), (std::vector<double>{-1.0, 1.0, 0.0, -1.0}));
  EXPECT_EQ(g[1].download().to_vector<double>(), (std::vector<double>{0.0, 0.0, 0.0, 0.0}));
}

// hypot at (0, 0): the subgradient 0 (a / h would be NaN), as abs's at 0.
TEST(AdPrims, HypotAtTheOriginHasGradientZero) {
  const EagerTensor z = cpu()->upload(Tensor::from_col_major<double>({2}, {0.0, 0.0}));
  const EagerTensor in[] = {z, z};
  auto g = ad::grad(
      [](std::span<const V> v) { return std::vector<V>{ad::sum(ad::hypot(v[0], v[1]))}; }, in);
  for (const EagerTensor& t : g)
    EXPECT_EQ(t.download().to_vector<double>(), (std::vector<double>{0.0, 0.0}));
}

TEST(AdPrims, ScalarForms) {
  for (DType d : {kReal, kComplex}) {
    const std::string tag = std::string(dtype_name(d));
    const EagerTensor x = randn(d, {2, 3}, 31), y = randn(d, {3}, 32);
    check_unary(
        "scale " + tag,
        [](const V& v) {
          return ad::scale(v, {1.5, -0.5});
        },
        x);
    check_unary(
        "shift " + tag, [](const V& v) { return ad::shift(v, 2.0); }, x);
    check_gradients("axpby " + tag,
                    [](std::span<const V> v) {
                      return std::vector<V>{ad::axpby({0.5, 2.0}, v[0], -1.5, v[1])};
                    },
                    {x, y});
  }
}

TEST(AdPrims, Reductions) {
  for (DType d : {kReal, kComplex}) {
    const std::string tag = std::string(dtype_name(d));
    const EagerTensor x = randn(d, {3, 4, 2}, 41);
    for (bool keep : {false, true}) {
      const std::string k = keep ? " keepdims" : "";
      check_unary(
          "sum all " + tag + k, [keep](const V& v) { return ad::sum(v, std::nullopt, keep); }, x);
      check_unary(
          "sum {0,2} " + tag + k,
          [keep](const V& v) {
            return ad::sum(v, ad::Axes{0, -1}, keep);
          },
          x);
      check_unary(
          "mean {1} " + tag + k, [keep](const V& v) { return ad::mean(v, ad::Axes{1}, keep); }, x);
      check_unary(
          "prod {1} " + tag + k, [keep](const V& v) { return ad::prod(v, ad::Axes{1}, keep); }, x);
      check_unary(
          "norm {0,1} " + tag + k,
          [keep](const V& v) {
            return ad::norm(v, ad::Axes{0, 1}, keep);
          },
          x);
    }
    check_unary(
        "norm all " + tag, [](const V& v) { return ad::norm(v); }, x);
  }
  const EagerTensor r = randn(kReal, {3, 4}, 42);
  check_unary(
      "max {1}", [](const V& v) { return ad::max(v, ad::Axes{1}); }, r);
  check_unary(
      "min {0} keepdims", [](const V& v) { return ad::min(v, ad::Axes{0}, true); }, r);
  check_unary(
      "max all", [](const V& v) { return ad::max(v); }, r);
}

// The running sum's transpose is the running sum from the other end (a flip, a cumsum, a flip):
// each axis of a 3-D input, the middle one negative.
TEST(AdPrims, CumSumAlongEachAxis) {
  for (DType d : {kReal, kComplex}) {
    const EagerTensor x = randn(d, {3, 4, 5}, 43);
    for (std::int64_t axis : {0, -2, 2}) {
      check_unary(
          "cumsum axis " + std::to_string(axis) + " " + std::string(dtype_name(d)),
          [axis](const V& v) { return ad::cumsum(v, axis); }, x);
    }
  }
}

// The running product's rules split at a line's zeros (ad::cumprod): lines with none, one and
// two zeros (the second zero ends every derivative but its own line's), each axis.
TEST(AdPrims, CumProdWithAndWithoutZeros) {
  for (DType d : {kReal, kComplex}) {
    const std::string tag(dtype_name(d));
    // Columns of 6 along axis 0: column 0 has no zero, column 1 one (at 2), column 2 two
    // (at 1 and 4), column 3 one at its start.
    EagerTensor x = randn(d, {6, 4}, 44);
    const std::vector<C> v = entries(x);
    for (std::int64_t k : {6 + 2, 12 + 1, 12 + 4, 18 + 0})
      x = shifted(x, k, -v[static_cast<std::size_t>(k)]);
    for (std::int64_t axis : {0, -1}) {
      check_unary(
          "cumprod axis " + std::to_string(axis) + " " + tag,
          [axis](const V& u) { return ad::cumprod(u, axis); }, x);
    }
    check_unary(
        "cumprod of a 3-D input, axis 1 " + tag, [](const V& u) { return ad::cumprod(u, 1); },
        randn(d, {2, 5, 3}, 45));
  }
}

// prod's rules split at an output's zeros as cumprod's do: outputs over none, one and two
// zeros (the product of the others at a single zero, 0 with two), over one axis and over all.
// prod / x_i alone gave NaN at every zero.
TEST(AdPrims, ProdWithAndWithoutZeros) {
  for (DType d : {kReal, kComplex}) {
    const std::string tag(dtype_name(d));
    // Rows of 4 along axis 1 of a 3 x 4 input: row 0 has no zero, row 1 one (at column 2),
    // row 2 two (at columns 0 and 3).
    EagerTensor x = randn(d, {3, 4}, 46);
    const std::vector<C> v = entries(x);
    for (std::int64_t k : {1 + 3 * 2, 2 + 3 * 0, 2 + 3 * 3})
      x = shifted(x, k, -v[static_cast<std::size_t>(k)]);
    check_unary(
        "prod {1} with zeros " + tag, [](const V& u) { return ad::prod(u, ad::Axes{1}); }, x);
    // Over every entry: one zero (the product of the 11 others) and two.
    EagerTensor one = randn(d, {3, 4}, 47);
    one = shifted(one, 5, -entries(one)[5]);
    check_unary(
        "prod all, one zero " + tag, [](const V& u) { return ad::prod(u); }, one);
    check_unary(
        "prod all, three zeros " + tag, [](const V& u) { return ad::prod(u); }, x);
  }
}

TEST(AdPrims, MaxTiesShareTheGradient) {
  const EagerTensor x = cpu()->upload(Tensor::from_col_major<double>({3}, {2.0, 2.0, 1.0}));
  auto g = ad::grad([](std::span<const V> v) { return std::vector<V>{ad::max(v[0])}; },
                    std::span<const EagerTensor>(&x, 1));
  EXPECT_EQ(g[0].download().to_vector<double>(), (std::vector<double>{0.5, 0.5, 0.0}));
}

// Infinite extremes tie as finite ones do (a sign of inf - inf was NaN in every entry).
TEST(AdPrims, InfiniteExtremesTakeTheGradient) {
  const double inf = std::numeric_limits<double>::infinity();
  const auto grad_of = [](const std::function<V(const V&)>& f, std::vector<double> values) {
    const EagerTensor x = cpu()->upload(
        Tensor::from_col_major<double>({static_cast<std::int64_t>(values.size())}, values));
    auto g = ad::grad([&](std::span<const V> v) { return std::vector<V>{f(v[0])}; },
                      std::span<const EagerTensor>(&x, 1));
    return g[0].download().to_vector<double>();
  };
  using Vec = std::vector<double>;
  EXPECT_EQ(grad_of([](const V& v) { return ad::max(v); }, {1.0, inf, 2.0}), (Vec{0, 1, 0}));
  EXPECT_EQ(grad_of([](const V& v) { return ad::min(v); }, {1.0, -inf, -inf}), (Vec{0, 0.5, 0.5}));
  // maximum(x, inf) and minimum(x, -inf) at x = +-inf: a tie, half each.
  const auto with = [](double c, bool maximum) {
    return [c, maximum](const V& v) {
      const V k(prims::full(cpu(), DType::F64, {2}, c));
      return ad::sum(maximum ? ad::maximum(v, k) : ad::minimum(v, k));
    };
  };
  EXPECT_EQ(grad_of(with(inf, true), {inf, 1.0}), (Vec{0.5, 0}));
  EXPECT_EQ(grad_of(with(-inf, false), {-inf, 1.0}), (Vec{0.5, 0}));
  EXPECT_EQ(grad_of(with(0.0, true), {3.0, -1.0}), (Vec{1, 0}));
}

// pow's kinks at 0, as PyTorch: d(x^0)/dx = 0 (also at x = 0) and d(0^y)/dy = 0 for y >= 0 (the
// formulas give 0 * inf = NaN); elsewhere the usual derivatives.
TEST(AdPrims, PowAtZeroBaseOrExponent) {
  const auto up = [](std::vector<double> v) {
    return cpu()->upload(
        Tensor::from_col_major<double>({static_cast<std::int64_t>(v.size())}, std::move(v)));
  };
  const EagerTensor base = up({0.0, 2.0, 0.0}), exponent = up({0.0, 2.0, 3.0});
  const std::array<EagerTensor, 2> in{base, exponent};
  auto g = ad::grad(
      [](std::span<const V> v) { return std::vector<V>{ad::sum(ad::pow(v[0], v[1]))}; }, in);
  // d/dx: [0 (y = 0), 2 * 2 = 4, 3 * 0^2 = 0]; d/dy: [0 (x = 0), 4 log 2, 0 (x = 0)].
  EXPECT_EQ(g[0].download().to_vector<double>(), (std::vector<double>{0, 4, 0}));
  const auto dy = g[1].download().to_vector<double>();
  EXPECT_EQ(dy[0], 0.0);
  EXPECT_NEAR(dy[1], 4 * std::log(2.0), 1e-15);
  EXPECT_EQ(dy[2], 0.0);
}

TEST(AdPrims, Casts) {
  const EagerTensor r = randn(kReal, {2, 2}, 51), c = randn(kComplex, {2, 2}, 52);
  check_unary(
      "cast F64->C64", [](const V& v) { return ad::cast(v, DType::C64); }, r);
  check_unary(
      "cast C64->C64", [](const V& v) { return ad::cast(v, DType::C64); }, c);
  // Through F32 the rounding is far above the F64 finite differences' resolution, so the
  // chain returns to F64 at once and only the rule's wiring is checked.
  check_unary(
      "cast F64->F32->F64",
      [](const V& v) { return ad::cast(ad::cast(v, DType::F32), DType::F64); }, r,
      CheckOptions{.h = 1e-2, .rtol = 1e-4, .consistency_rtol = 1e-6});
}

TEST(AdPrims, Views) {
  for (DType d : {kReal, kComplex}) {
    const std::string tag = std::string(dtype_name(d));
    const EagerTensor x = randn(d, {4, 3, 2}, 61);
    check_unary(
        "permute " + tag,
        [](const V& v) {
          const std::int64_t p[] = {2, 0, 1};
          return ad::permute(v, p);
        },
        x);
    check_unary(
        "transpose " + tag, [](const V& v) { return ad::transpose(v, 0, 2); }, x);
    check_unary(
        "reshape " + tag,
        [](const V& v) {
          return ad::reshape(v, {6, -1});
        },
        x);
    check_unary(
        "reshape of a permuted view " + tag,
        [](const V& v) {
          return ad::reshape(ad::transpose(v, 0, 1), {12, 2});
        },
        x);
    check_unary(
        "slice " + tag,
        [](const V& v) {
          const prims::Slice s[] = {{1, std::nullopt, 2}, {-2, std::nullopt, 1}};
          return ad::slice(v, s);
        },
        x);
    check_unary(
        "slice step 3 " + tag,
        [](const V& v) {
          const prims::Slice s[] = {{0, 4, 3}};
          return ad::slice(v, s);
        },
        x);
    check_unary(
        "diagonal " + tag, [](const V& v) { return ad::diagonal(v, 0, 0, 1); }, x);
    check_unary(
        "diagonal offset 1 " + tag, [](const V& v) { return ad::diagonal(v, 1, 0, 1); }, x);
    check_unary(
        "diagonal offset -1 axes (2,0) " + tag,
        [](const V& v) { return ad::diagonal(v, -1, 2, 0); }, x);
    check_unary(
        "broadcast_to " + tag,
        [](const V& v) {
          return ad::broadcast_to(v, {5, 4, 3, 2});
        },
        x);
    check_unary(
        "contiguous " + tag, [](const V& v) { return ad::contiguous(ad::transpose(v)); }, x);
    check_gradients("concatenate " + tag,
                    [](std::span<const V> v) { return std::vector<V>{ad::concatenate(v, 1)}; },
                    {x, randn(d, {4, 2, 2}, 62)});
    check_gradients("stack " + tag,
                    [](std::span<const V> v) { return std::vector<V>{ad::stack(v, -1)}; },
                    {x, randn(d, {4, 3, 2}, 63)});
  }
  check_unary(
      "broadcast_to from size 1",
      [](const V& v) {
        return ad::broadcast_to(v, {3, 4});
      },
      randn(kReal, {3, 1}, 64));
}

}  // namespace
}  // namespace tenferro::ad_test
