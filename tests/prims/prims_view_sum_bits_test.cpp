// A sum, mean or norm depends on the terms and their order alone, not on how the CPU kernels
// walk memory: a strided view gives its contiguous copy's bits, and a permuted (C-ordered) matrix
// the bits of its reshape into one run. Before the sums staged a started block, a view's terms
// arrived one at a time and each block of 256 was summed serially instead of in 16 lanes, and
// each row of a C-ordered matrix after the first started inside a block (an adversarial
// review found both: the last bits differed from 256 terms on). And float64 norms whose squares
// leave the double range (PrimsNormRange).
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <cstdint>
#include <optional>
#include <random>
#include <vector>

#include "core/real_type.hpp"
#include "tenferro/prims.hpp"
#include "tenferro/runtime/runtime.hpp"

namespace tenferro {
namespace {

// Terms of magnitudes 2^-20 .. 2^20, so that another grouping of the additions shows in the
// last bits.
template <class T>
std::vector<T> spread_terms(std::int64_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> normal(0.0, 1.0);
  const auto one = [&] { return normal(rng) * std::exp2(std::round(normal(rng) * 7)); };
  std::vector<T> xs(static_cast<std::size_t>(n));
  for (T& x : xs) {
    if constexpr (kIsComplexType<T>) {
      x = T(static_cast<RealType<T>>(one()), static_cast<RealType<T>>(one()));
    } else {
      x = static_cast<T>(one());
    }
  }
  return xs;
}

std::vector<std::uint8_t> bytes_of(const EagerTensor& t) {
  const Tensor host = t.download();
  const auto* p = reinterpret_cast<const std::uint8_t*>(host.raw_data());
  return {p, p + host.numel() * static_cast<std::int64_t>(dtype_size(host.dtype()))};
}

// The three whole-array reductions of `a` and `b`, bit for bit.
void expect_same_reductions(const EagerTensor& a, const EagerTensor& b, const std::string& what) {
  EXPECT_EQ(bytes_of(prims::sum(a)), bytes_of(prims::sum(b))) << "sum of " << what;
  EXPECT_EQ(bytes_of(prims::mean(a)), bytes_of(prims::mean(b))) << "mean of " << what;
  EXPECT_EQ(bytes_of(prims::norm(a)), bytes_of(prims::norm(b))) << "norm of " << what;
}

template <class T>
void check_views(std::uint64_t seed) {
  auto rt = EagerRuntime::cpu();
  for (const std::int64_t n : {255, 256, 257, 300, 511, 600, 1000, 5000}) {
    for (const std::int64_t step : {2, 3}) {
      const auto xs = spread_terms<T>(n * step, seed + static_cast<std::uint64_t>(n));
      const EagerTensor whole = rt->upload(Tensor::from_col_major<T>({n * step}, xs));
      const prims::Slice every{std::nullopt, std::nullopt, step};
      const EagerTensor view = prims::slice(whole, std::span(&every, 1));
      expect_same_reductions(view, prims::contiguous(view),
                             "every " + std::to_string(step) + "th of " + std::to_string(n));
    }
  }
  // A C-ordered matrix: rows of `cols` contiguous terms, rows after the first starting inside
  // a block, against the same terms as one run.
  for (const auto& [rows, cols] :
       {std::pair<std::int64_t, std::int64_t>{2, 300}, {300, 70}, {10, 1000}, {3, 257}}) {
    const auto xs = spread_terms<T>(rows * cols, seed + static_cast<std::uint64_t>(rows));
    const EagerTensor run = rt->upload(Tensor::from_col_major<T>({rows * cols}, xs));
    const EagerTensor c_order = prims::transpose(prims::reshape(run, {cols, rows}), 0, 1);
    expect_same_reductions(c_order, run,
                           std::to_string(rows) + "x" + std::to_string(cols) + " C-ordered");
  }
}

// A reduction along the rows of a matrix whose kept axis has unit stride (the row pass, many
// outputs at once) against the same reduction of the transposed contiguous copy (each output's
// terms walked on their own): the same bits while the reduced axis is shorter than a block (256
// terms) (beyond it the row pass groups its terms by blocks of rows: docs/prims.md). A complex
// norm's row step added re^2 and im^2 to the sum one at a time: 4 of 40 outputs differed.
template <class T>
void check_row_pass(std::uint64_t seed) {
  auto rt = EagerRuntime::cpu();
  for (const std::int64_t rows : {3, 100, 255}) {
    const std::int64_t cols = 40;
    const auto xs = spread_terms<T>(rows * cols, seed + static_cast<std::uint64_t>(rows));
    // Axis 0 (cols) has unit stride: the row pass reduces axis 1.
    const EagerTensor x = rt->upload(Tensor::from_col_major<T>({cols, rows}, xs));
    const EagerTensor y = prims::contiguous(prims::transpose(x, 0, 1));
    const prims::Axes across{1}, down{0};
    const std::string what = std::to_string(rows) + " rows";
    EXPECT_EQ(bytes_of(prims::sum(x, across)), bytes_of(prims::sum(y, down))) << what;
    EXPECT_EQ(bytes_of(prims::mean(x, across)), bytes_of(prims::mean(y, down))) << what;
    EXPECT_EQ(bytes_of(prims::norm(x, across)), bytes_of(prims::norm(y, down))) << what;
  }
}

TEST(PrimsViewSumBits, RowPassUpToOneBlockSumsAsEachOutputAlone) {
  check_row_pass<float>(5);
  check_row_pass<double>(6);
  check_row_pass<std::complex<float>>(7);
  check_row_pass<std::complex<double>>(8);
}

TEST(PrimsViewSumBits, ViewsAndReshapesSumAsTheirContiguousCopies) {
  check_views<float>(1);
  check_views<double>(2);
  check_views<std::complex<float>>(3);
  check_views<std::complex<double>>(4);
}

// float64 and complex128 norms whose squares leave the double range: the values of LAPACK's
// scaled nrm2 (std::hypot here), not inf or 0; whole arrays, the row pass and the walk of each
// output alone. And where the squares stay in range, the rescaled sum has the plain sum's bits.
TEST(PrimsNormRange, SquaresOutsideTheDoubleRangeDoNotOverflowOrVanish) {
  auto rt = EagerRuntime::cpu();
  const auto norm_of = [&](std::vector<double> xs, Shape shape, std::optional<prims::Axes> axes) {
    const EagerTensor t = rt->upload(Tensor::from_col_major<double>(std::move(shape), xs));
    return prims::norm(t, std::move(axes)).download().to_vector<double>();
  };
  for (const double v : {1e200, 1e-200, 1e-310, 4.9e-324, 1.2e308}) {
    SCOPED_TRACE(v);
    const double want = std::hypot(v, v);
    EXPECT_NEAR(norm_of({v, -v}, {2}, std::nullopt)[0], want, want * 4e-16);
    // Two columns of three rows: axis 0 has unit stride (each output walked alone), and along
    // axis 1 the row pass runs.
    const std::vector<double> m = {v, 0.0, -v, v, 0.0, -v};
    for (const double got : norm_of(m, {3, 2}, prims::Axes{0}))
      EXPECT_NEAR(got, want, want * 4e-16);
    const std::vector<double> along = norm_of(m, {3, 2}, prims::Axes{1});
    EXPECT_NEAR(along[0], want, want * 4e-16);
    EXPECT_EQ(along[1], 0.0);
    const EagerTensor z = rt->upload(Tensor::from_col_major<std::complex<double>>(
        {2}, std::vector<std::complex<double>>{{v, v}, {0.0, 0.0}}));
    EXPECT_NEAR(prims::norm(z).download().to_vector<double>()[0], want, want * 4e-16);
  }
  // An infinite part still gives inf, a NaN part NaN, zeros 0.
  EXPECT_EQ(norm_of({1e200, INFINITY}, {2}, std::nullopt)[0], INFINITY);
  EXPECT_TRUE(std::isnan(norm_of({1e200, NAN, INFINITY}, {3}, std::nullopt)[0]));
  EXPECT_EQ(norm_of({0.0, -0.0}, {2}, std::nullopt)[0], 0.0);
  // A small norm whose squares all stay normal keeps its bits, in the row pass's grouping too
  // (300 rows of 8 outputs): the norm of x * 2^-500 is the norm of x times 2^-500 exactly.
  // Parts within [1, 40): scaled, within 2^-500..2^-494 (squares normal), the norms under 2^-484.
  std::vector<double> xs(8 * 300);
  for (std::size_t i = 0; i < xs.size(); ++i)
    xs[i] = std::sqrt(1.0 + static_cast<double>(i / 8)) * (1.0 + static_cast<double>(i % 8) / 7);
  std::vector<double> small(xs.size());
  for (std::size_t i = 0; i < xs.size(); ++i) small[i] = std::ldexp(xs[i], -500);
  const std::vector<double> big_norms = norm_of(xs, {8, 300}, prims::Axes{1});
  const std::vector<double> small_norms = norm_of(small, {8, 300}, prims::Axes{1});
  for (std::size_t j = 0; j < big_norms.size(); ++j)
    EXPECT_EQ(small_norms[j], std::ldexp(big_norms[j], -500)) << "output " << j;
  // Squares in range below the threshold: exactly the plain formula.
  const double a = 0x1.3p-490, b = 0x1.8p-491;
  EXPECT_EQ(norm_of({a, b}, {2}, std::nullopt)[0], std::sqrt(a * a + b * b));
}

}  // namespace
}  // namespace tenferro
