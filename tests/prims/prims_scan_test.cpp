// prims::cumsum and cumprod on every runtime against a running sum (product) written here on
// the host:
//  - integer-valued inputs for sums and +-1, +-i, +-2, +-1/2 for products, whose every partial
//    result is exact in any dtype and any association, so the result must equal the reference
//    bit for bit: each axis of ranks 1-3, lines shorter
//    and longer than the kernels' segments and blocks (the CPU's 256-element chains, WebGPU's
//    2048-element blocks and their recursion past 2048^2), views (transposed, stepped,
//    broadcast; the result in the input's memory order) and every dtype the runtime runs;
//  - random inputs on long lines, held to a bound of the association's rounding (CPU: float32
//    accumulates in float64, so its bound is float64's);
//  - Inf, NaN and zeros propagating as in a left-to-right loop; the typed refusals.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include "prims/prims_reference.hpp"
#include "prims/prims_runtimes.hpp"
#include "tenferro/prims.hpp"

namespace tenferro::prims_test {
namespace {

// The rounding unit of a scan's output and of its accumulator: the CPU (and CUDA) fold F32/C32
// in float64, WebGPU in float32.
struct Eps {
  double out, acc;
};

class PrimsScan : public PrimsRuntimeTest {
 protected:
  Eps eps_of(DType d) const;
};
TENFERRO_PRIMS_ON_ALL_RUNTIMES(PrimsScan);

// The running sum (product) of x along `axis` in long double, left to right (column-major Ref);
// `bound` gets the running sum of |x| (the scale of a sum's rounding error at each output).
Ref scan_ref(const Ref& x, std::size_t axis, bool product, std::vector<double>* bound = nullptr) {
  using LC = std::complex<long double>;
  Ref out{x.dtype, x.shape, std::vector<C>(x.v.size())};
  if (bound) bound->assign(x.v.size(), 0.0);
  for (std::int64_t k = 0; k < x.numel(); ++k) {
    std::vector<std::int64_t> idx = unravel(k, x.shape);
    if (idx[axis] != 0) continue;  // one line per first element
    LC acc = product ? LC(1) : LC(0);
    long double mag = 0;
    for (std::int64_t j = 0; j < x.shape[axis]; ++j) {
      idx[axis] = j;
      const auto at = static_cast<std::size_t>(ravel(idx, x.shape));
      const LC v(x.v[at].real(), x.v[at].imag());
      if (product && !is_complex(x.dtype)) {
        acc = LC(acc.real() * v.real(), 0);
      } else if (product) {
        // Written out: std::complex's product recovers infinities (C99 Annex G), which the
        // kernels do not promise.
        acc = LC(acc.real() * v.real() - acc.imag() * v.imag(),
                 acc.real() * v.imag() + acc.imag() * v.real());
      } else {
        acc += v;
      }
      mag += std::abs(x.v[at]);
      out.v[at] = C(static_cast<double>(acc.real()), static_cast<double>(acc.imag()));
      if (bound) (*bound)[at] = static_cast<double>(mag);
    }
  }
  return out;
}
Ref cumsum_ref(const Ref& x, std::size_t axis, std::vector<double>* bound = nullptr) {
  return scan_ref(x, axis, false, bound);
}

// Values in {-limit, ..., limit} (both parts for complex dtypes).
Ref integer_ref(DType d, Shape shape, unsigned seed, int limit = 8) {
  Ref r = random_ref(d, std::move(shape), seed, -limit - 0.5, limit + 0.5);
  for (C& z : r.v) z = C(std::round(z.real()), std::round(z.imag()));
  return r;
}

// +-1 (and +-i for complex dtypes), a fifth of them scaled by 2 or 1/2: every product of a line
// is exact, its exponent a slow random walk. (The sign of a complex product's zero part depends
// on the association: `same_products` compares values, not those signs.)
Ref unit_ref(DType d, Shape shape, unsigned seed, bool scaled = true) {
  Ref r = random_ref(d, std::move(shape), seed, 0.0, 1.0);
  const bool complex = is_complex(d);
  for (C& z : r.v) {
    const double u = z.real(), w = z.imag();
    C unit = complex && w > 0.5 ? C(0, 1) : C(1, 0);
    if (u < 0.5) unit = -unit;
    const double f = !scaled ? 1.0 : u < 0.1 ? 2.0 : u > 0.9 ? 0.5 : 1.0;
    z = unit * f;
  }
  return r;
}

::testing::AssertionResult same_products(const Ref& got, const Ref& want) {
  return is_complex(want.dtype) ? close(got, want, Tol{0, 0}) : identical(got, want);
}

TEST_P(PrimsScan, IntegerInputsAreExactAlongEveryAxis) {
  const std::vector<Shape> shapes = {{1},
                                     {7},
                                     {255},
                                     {256},
                                     {300},
                                     {2047},
                                     {2048},
                                     {2049},
                                     {5000},
                                     {5, 7},
                                     {3, 1, 4},
                                     {300, 3},
                                     {3, 2500},
                                     {4, 3, 600},
                                     // lines past one block with two outer axes that do not
                                     // merge (WebGPU's add pass decodes both)
                                     {3, 2100, 2}};
  unsigned seed = 1;
  for (DType d : dtypes()) {
    for (const Shape& shape : shapes) {
      const Ref x = integer_ref(d, shape, seed++);
      const EagerTensor ex = up(x);
      const Ref u = unit_ref(d, shape, seed++);
      const EagerTensor eu = up(u);
      for (std::size_t a = 0; a < shape.size(); ++a) {
        SCOPED_TRACE(std::string(dtype_name(d)) + shape_to_string(shape) + " axis " +
                     std::to_string(a));
        const auto axis = static_cast<std::int64_t>(a);
        EXPECT_TRUE(identical(down(prims::cumsum(ex, axis)), cumsum_ref(x, a)));
        EXPECT_TRUE(same_products(down(prims::cumprod(eu, axis)), scan_ref(u, a, true)));
      }
      // A negative axis names the same one.
      EXPECT_TRUE(identical(down(prims::cumsum(ex, -1)), cumsum_ref(x, shape.size() - 1)));
      EXPECT_TRUE(same_products(down(prims::cumprod(eu, -1)), scan_ref(u, shape.size() - 1, true)));
    }
  }
}

// Views: the kernels read the input's own strides (no contiguous copy first).
TEST_P(PrimsScan, ViewsAreScannedInPlace) {
  for (DType d : dtypes()) {
    SCOPED_TRACE(dtype_name(d));
    const Ref base = integer_ref(d, {11, 600, 5}, 40);
    const EagerTensor ex = up(base);
    const std::vector<std::int64_t> perm{2, 0, 1};
    const EagerTensor permuted = prims::permute(ex, perm);
    const Ref permuted_ref = permute_ref(base, perm);
    const Ref units = unit_ref(d, {11, 600, 5}, 48);
    const EagerTensor permuted_units = prims::permute(up(units), perm);
    for (std::size_t a = 0; a < 3; ++a) {
      const EagerTensor y = prims::cumsum(permuted, static_cast<std::int64_t>(a));
      // The result takes the input's memory order (NumPy's order K), as element-wise results.
      EXPECT_EQ(y.strides(), permuted.strides());
      EXPECT_TRUE(identical(down(y), cumsum_ref(permuted_ref, a)));
      EXPECT_TRUE(same_products(down(prims::cumprod(permuted_units, static_cast<std::int64_t>(a))),
                                scan_ref(permute_ref(units, perm), a, true)));
    }
    const prims::Slice stepped[] = {{1, std::nullopt, 3}, {2, std::nullopt, 2}, {}};
    const EagerTensor sliced = prims::slice(ex, stepped);
    const Ref sliced_ref = slice_ref(slice_ref(base, 0, 1, 11, 3), 1, 2, 600, 2);
    for (std::size_t a = 0; a < 3; ++a) {
      EXPECT_TRUE(identical(down(prims::cumsum(sliced, static_cast<std::int64_t>(a))),
                            cumsum_ref(sliced_ref, a)));
    }
    // A broadcast input: stride 0 along the scanned axis and along another.
    const Ref row = integer_ref(d, {1, 7}, 41);
    const EagerTensor wide = prims::broadcast_to(up(row), {3000, 7});
    Ref wide_ref{d, {3000, 7}, {}};
    for (std::int64_t k = 0; k < 3000 * 7; ++k)
      wide_ref.v.push_back(row.v[static_cast<std::size_t>(k / 3000)]);
    EXPECT_TRUE(identical(down(prims::cumsum(wide, 0)), cumsum_ref(wide_ref, 0)));
    EXPECT_TRUE(identical(down(prims::cumsum(wide, 1)), cumsum_ref(wide_ref, 1)));
    // Products of stepped and broadcast views of +-1, +-2, +-1/2 (+-i).
    const EagerTensor units_sliced = prims::slice(up(units), stepped);
    const Ref units_sliced_ref = slice_ref(slice_ref(units, 0, 1, 11, 3), 1, 2, 600, 2);
    for (std::size_t a = 0; a < 3; ++a) {
      EXPECT_TRUE(same_products(down(prims::cumprod(units_sliced, static_cast<std::int64_t>(a))),
                                scan_ref(units_sliced_ref, a, true)));
    }
    const Ref unit_row = unit_ref(d, {1, 7}, 52, /*scaled=*/false);  // 3000 repeats stay in range
    const EagerTensor unit_wide = prims::broadcast_to(up(unit_row), {3000, 7});
    Ref unit_wide_ref{d, {3000, 7}, {}};
    for (std::int64_t k = 0; k < 3000 * 7; ++k)
      unit_wide_ref.v.push_back(unit_row.v[static_cast<std::size_t>(k / 3000)]);
    EXPECT_TRUE(
        same_products(down(prims::cumprod(unit_wide, 0)), scan_ref(unit_wide_ref, 0, true)));
    EXPECT_TRUE(
        same_products(down(prims::cumprod(unit_wide, 1)), scan_ref(unit_wide_ref, 1, true)));
  }
}

// A line past 2048^2 elements: WebGPU scans the totals of its blocks, then theirs. Values in
// {-1, 0, 1} (products: +-1), so every partial result is exact in float32 too.
TEST_P(PrimsScan, LinesPastTwoLevelsOfBlocks) {
  const std::int64_t n = 2048 * 2048 + 3000;
  const Ref x = integer_ref(DType::F32, {n}, 44, 1);
  EXPECT_TRUE(identical(down(prims::cumsum(up(x), 0)), cumsum_ref(x, 0)));
  const Ref signs = unit_ref(DType::F32, {n}, 49, /*scaled=*/false);
  EXPECT_TRUE(identical(down(prims::cumprod(up(signs), 0)), scan_ref(signs, 0, true)));
}

// got against want, element by element within allowed(i); the first misses reported.
::testing::AssertionResult within(const Ref& got, const Ref& want,
                                  const std::function<double(std::size_t)>& allowed) {
  std::ostringstream bad;
  int misses = 0;
  for (std::size_t i = 0; i < want.v.size(); ++i) {
    const double err = std::abs(got.v[i] - want.v[i]);
    if (err <= allowed(i)) continue;
    if (misses++ < 5) {
      bad << "\n  at " << i << ": got " << fmt(got.v[i]) << ", expected " << fmt(want.v[i])
          << " (error " << err << " > " << allowed(i) << ")";
    }
  }
  if (misses == 0) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure()
         << misses << " of " << want.v.size() << " beyond the bound" << bad.str();
}

Eps PrimsScan::eps_of(DType d) const {
  const bool wide = is_double(d) || kind() != RuntimeKind::WebGpu;
  return {is_double(d) ? 0x1p-53 : 0x1p-24, wide ? 0x1p-53 : 0x1p-24};
}

// Random reals: every output within a rounding bound of the long double running sum, scaled by
// the running sum of |x|. The CPU accumulates float32 in float64: its float32 outputs are
// each rounded once (half an ulp) from a float64 sum, a bound that a float32 accumulator
// (n roundings of 2^-24) breaks on these lines.
TEST_P(PrimsScan, LongRandomLinesStayWithinTheirRoundingBound) {
  for (DType d : dtypes()) {
    for (const Shape& shape : std::vector<Shape>{{100000}, {3, 20000}}) {
      SCOPED_TRACE(std::string(dtype_name(d)) + shape_to_string(shape));
      const Ref x = random_ref(d, shape, 45);
      const std::size_t axis = shape.size() - 1;
      std::vector<double> scale;
      const Ref want = cumsum_ref(x, axis, &scale);
      const Ref got = down(prims::cumsum(up(x), static_cast<std::int64_t>(axis)));
      const Eps eps = eps_of(d);
      EXPECT_TRUE(within(got, want, [&](std::size_t i) {
        return 2 * eps.out * std::abs(want.v[i]) + 32 * eps.acc * scale[i];
      }));
    }
  }
}

// Random products of factors exp(u + iv), |u|, |v| <= 0.1 (a log-magnitude random walk that
// stays in range): each output within 4 (j + 2) roundings of its magnitude (any association of
// j + 1 factors rounds j times), plus the output's own rounding. A float32 accumulator on the
// CPU breaks the float64 bound.
TEST_P(PrimsScan, LongRandomProductsStayWithinTheirRoundingBound) {
  for (DType d : dtypes()) {
    SCOPED_TRACE(dtype_name(d));
    const std::int64_t n = 30000;
    Ref x = random_ref(d, {n}, 50, -0.1, 0.1);
    for (C& z : x.v) z = round_to(d, std::exp(z));
    const Ref want = scan_ref(x, 0, true);
    const Ref got = down(prims::cumprod(up(x), 0));
    const Eps eps = eps_of(d);
    EXPECT_TRUE(within(got, want, [&](std::size_t j) {
      return (2 * eps.out + 4 * static_cast<double>(j + 2) * eps.acc) * std::abs(want.v[j]);
    }));
  }
}

// Inf and NaN as a left-to-right loop has them: +inf from its place on, NaN from a later -inf
// or NaN on; a line without them is untouched.
TEST_P(PrimsScan, InfinitiesAndNaNsPropagateForward) {
  for (DType d : dtypes()) {
    SCOPED_TRACE(dtype_name(d));
    for (std::int64_t n : {40, 3000}) {
      Ref x = integer_ref(d, {n, 2}, 46);
      x.v[static_cast<std::size_t>(n / 4)] = C(kInf, 0);
      x.v[static_cast<std::size_t>(n / 2)] = C(-kInf, 0);
      x.v[static_cast<std::size_t>(n + n / 3)] = C(kNaN, 0);
      const Ref got = down(prims::cumsum(up(x), 0));
      for (std::int64_t j = 0; j < n; ++j) {
        const C first = got.v[static_cast<std::size_t>(j)];
        const C second = got.v[static_cast<std::size_t>(n + j)];
        if (j < n / 4) {
          EXPECT_TRUE(std::isfinite(first.real())) << j;
        } else if (j < n / 2) {
          EXPECT_EQ(first.real(), kInf) << j;
        } else {
          EXPECT_TRUE(has_nan(first)) << j;
        }
        EXPECT_EQ(has_nan(second), j >= n / 3) << j;
      }
    }
  }
}

// Products: infinite from an infinity on (complex: not finite), NaN from a zero after it
// (inf * 0); zeros from a zero before any infinity, NaN from an infinity after it; NaN from a
// NaN.
TEST_P(PrimsScan, ProductsCarryZerosInfinitiesAndNaNsForward) {
  for (DType d : dtypes()) {
    SCOPED_TRACE(dtype_name(d));
    for (std::int64_t n : {40, 3000}) {
      Ref x = unit_ref(d, {n, 2}, 51, /*scaled=*/false);
      for (std::int64_t j = 0; j < n; ++j) x.v[static_cast<std::size_t>(j)] = C(1, 0);
      x.v[static_cast<std::size_t>(n / 8)] = C(kInf, 0);
      x.v[static_cast<std::size_t>(n / 4)] = C(0, 0);
      x.v[static_cast<std::size_t>(n / 2)] = C(kInf, 0);
      x.v[static_cast<std::size_t>(n + n / 3)] = C(kNaN, 0);
      const Ref got = down(prims::cumprod(up(x), 0));
      for (std::int64_t j = 0; j < n; ++j) {
        const C first = got.v[static_cast<std::size_t>(j)];
        const C second = got.v[static_cast<std::size_t>(n + j)];
        if (j < n / 8) {
          EXPECT_EQ(first, C(1, 0)) << j;
        } else if (j < n / 4) {
          // Real: inf. Complex: inf times (1 + 0i) is (inf, NaN) by the product's formula (C99
          // Annex G's recovery, which the CPU's std::complex applies, keeps an infinity): not
          // finite either way.
          if (is_complex(d)) {
            EXPECT_TRUE(!std::isfinite(first.real()) || has_nan(first)) << j;
          } else {
            EXPECT_EQ(first.real(), kInf) << j;
          }
        } else {
          EXPECT_TRUE(has_nan(first)) << j;
        }
        EXPECT_EQ(has_nan(second), j >= n / 3) << j;
      }
      Ref z = x;
      z.v[static_cast<std::size_t>(n / 8)] = C(1, 0);
      const Ref zgot = down(prims::cumprod(up(z), 0));
      for (std::int64_t j = n / 4; j < n; ++j) {
        const C v = zgot.v[static_cast<std::size_t>(j)];
        if (j < n / 2) {
          EXPECT_TRUE(v.real() == 0 && v.imag() == 0) << j;
        } else {
          EXPECT_TRUE(has_nan(v)) << j;
        }
      }
    }
  }
}

TEST_P(PrimsScan, EmptyTensorsAndRefusals) {
  const EagerTensor empty = up(make_ref(DType::F32, {0, 3}, {}));
  EXPECT_EQ(prims::cumsum(empty, 0).shape(), (Shape{0, 3}));
  EXPECT_EQ(prims::cumsum(empty, 1).shape(), (Shape{0, 3}));
  EXPECT_EQ(prims::cumprod(empty, 0).shape(), (Shape{0, 3}));
  const EagerTensor x = up(random_ref(DType::F32, {2, 3}, 47));
  EXPECT_TRUE(throws_kind([&] { (void)prims::cumsum(x, 2); }, ErrorKind::Validation, {"axis"}));
  EXPECT_TRUE(throws_kind([&] { (void)prims::cumsum(x, -3); }, ErrorKind::Validation, {"axis"}));
  EXPECT_TRUE(throws_kind([&] { (void)prims::cumprod(x, 2); }, ErrorKind::Validation, {"axis"}));
  const EagerTensor scalar = up(make_ref(DType::F32, {}, {C(2.0, 0)}));
  EXPECT_TRUE(
      throws_kind([&] { (void)prims::cumsum(scalar, 0); }, ErrorKind::Validation, {"axis"}));
}

}  // namespace
}  // namespace tenferro::prims_test
