// Creation inside a runtime: zeros/ones/full/eye/arange against NumPy's definitions, and the
// Philox random numbers against the test's own Philox4x32-10 (bit for bit for the uniform
// numbers) plus statistical checks with bounds sound for n = 10^5. Every runtime kind.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "prims/philox_reference.hpp"
#include "prims/prims_reference.hpp"
#include "prims/prims_runtimes.hpp"
#include "tenferro/prims.hpp"

namespace tenferro::prims_test {
namespace {

class PrimsCreation : public PrimsRuntimeTest {};
TENFERRO_PRIMS_ON_ALL_RUNTIMES(PrimsCreation);

Ref filled(DType d, const Shape& s, C value) {
  return make_ref(d, s, std::vector<C>(static_cast<std::size_t>(ref_numel(s)), value));
}

TEST_P(PrimsCreation, ZerosOnesFull) {
  for (DType d : dtypes()) {
    for (const Shape& s : {Shape{}, Shape{3}, Shape{2, 3, 4}, Shape{0, 5}}) {
      SCOPED_TRACE(std::string(dtype_name(d)) + " " + shape_to_string(s));
      EXPECT_TRUE(identical(down(prims::zeros(rt_, d, s)), filled(d, s, 0.0)));
      EXPECT_TRUE(identical(down(prims::ones(rt_, d, s)), filled(d, s, 1.0)));
      EXPECT_TRUE(identical(down(prims::full(rt_, d, s, -2.75)), filled(d, s, -2.75)));
      if (is_complex(d)) {
        EXPECT_TRUE(
            identical(down(prims::full(rt_, d, s, C(0.5, -3.0))), filled(d, s, C(0.5, -3.0))));
      }
    }
  }
}

// Fills longer than the CPU kernel's copied block (4 KiB) and not a whole number of blocks, with
// values whose bits are all zero (memset there) and others whose are not: -0.0 keeps its sign.
TEST_P(PrimsCreation, LongFillsHoldEveryElement) {
  for (DType d : dtypes()) {
    for (const Shape& s : {Shape{257, 9}, Shape{100003}}) {
      std::vector<C> values = {C(0.0), C(-0.0), C(1.0), C(-2.75)};
      if (is_complex(d)) values.insert(values.end(), {C(-0.0, 0.0), C(0.0, -0.0), C(0.5, -3.0)});
      for (const C& v : values) {
        SCOPED_TRACE(std::string(dtype_name(d)) + " " + shape_to_string(s) + " value " + fmt(v));
        EXPECT_TRUE(identical(down(prims::full(rt_, d, s, v)), filled(d, s, v)));
      }
      EXPECT_TRUE(identical(down(prims::zeros(rt_, d, s)), filled(d, s, 0.0)));
      EXPECT_TRUE(identical(down(prims::ones(rt_, d, s)), filled(d, s, 1.0)));
    }
  }
}

TEST_P(PrimsCreation, EyeWithOffsetsAndNonSquareShapes) {
  struct Case {
    std::int64_t n;
    std::optional<std::int64_t> m;
    std::int64_t offset;
  };
  const Case cases[] = {
      {3, std::nullopt, 0}, {3, 5, 0}, {5, 3, 0},  {3, 5, 1}, {3, 5, 2},
      {3, 5, -1},           {4, 4, 4}, {4, 4, -5}, {0, 3, 0}, {1, std::nullopt, 0}};
  for (DType d : dtypes()) {
    for (const Case& c : cases) {
      const std::int64_t m = c.m.value_or(c.n);
      SCOPED_TRACE(std::string(dtype_name(d)) + " n " + std::to_string(c.n) + " m " +
                   std::to_string(m) + " offset " + std::to_string(c.offset));
      Ref want = filled(d, {c.n, m}, 0.0);
      for (std::int64_t i = 0; i < c.n; ++i) {
        for (std::int64_t j = 0; j < m; ++j) {
          if (j - i == c.offset) want.v[static_cast<std::size_t>(i + j * c.n)] = 1.0;
        }
      }
      EXPECT_TRUE(identical(down(prims::eye(rt_, d, c.n, c.m, c.offset)), want));
    }
  }
}

TEST_P(PrimsCreation, ArangeCountsAndValuesAsNumPy) {
  struct Case {
    double start, stop, step;
    std::int64_t count;  // NumPy's len(np.arange(start, stop, step)), worked out by hand
  };
  const Case cases[] = {{0, 5, 1, 5},
                        {2, 3, 1, 1},
                        {0, 1, 0.1, 10},
                        {1, 0, -0.3, 4},
                        {5, 1, 1, 0},
                        {1, 5, -1, 0},
                        {0.5, 3.2, 0.75, 4},
                        {-3, 3, 1.5, 4},
                        {10, -10, -2.5, 8},
                        {0, 0, 1, 0},
                        // (stop - start) / step underflows to 0: NumPy counts the first element
                        // when the range runs forwards (the count was 0).
                        {0, 1e-300, 1e300, 1},
                        {0, -1e-300, 1e300, 0}};
  for (DType d : dtypes()) {
    for (const Case& c : cases) {
      SCOPED_TRACE(std::string(dtype_name(d)) + " arange(" + std::to_string(c.start) + ", " +
                   std::to_string(c.stop) + ", " + std::to_string(c.step) + ")");
      std::vector<C> values;
      for (std::int64_t i = 0; i < c.count; ++i)
        values.emplace_back(c.start + static_cast<double>(i) * c.step);
      const Ref want = make_ref(d, {c.count}, values);
      EXPECT_TRUE(
          close(down(prims::arange(rt_, d, c.start, c.stop, c.step)), want, tol_for(d), 10.0));
    }
  }
  EXPECT_TRUE(
      throws_kind([&] { (void)prims::arange(rt_, DType::F32, 0, 1, 0.0); }, ErrorKind::Validation));
}

// --- Random --------------------------------------------------------------------------------

TEST(PrimsPhiloxReference, MatchesPublishedKnownAnswers) {
  // Random123's kat_vectors for philox4x32_10: zeros, all-ones, and the digits of pi.
  EXPECT_EQ(philox4x32_10_ref({0, 0, 0, 0}, {0, 0}),
            (Words{0x6627e8d5u, 0xe169c58du, 0xbc57ac4cu, 0x9b00dbd8u}));
  EXPECT_EQ(philox4x32_10_ref({~0u, ~0u, ~0u, ~0u}, {~0u, ~0u}),
            (Words{0x408f276du, 0x41c83b0eu, 0xa20bc7c6u, 0x6d5451fdu}));
  EXPECT_EQ(philox4x32_10_ref({0x243f6a88u, 0x85a308d3u, 0x13198a2eu, 0x03707344u},
                              {0xa4093822u, 0x299f31d0u}),
            (Words{0xd16cfe09u, 0x94fdccebu, 0x5001e420u, 0x24126ea1u}));
}

// The uniform numbers in [0, 1) are bit-identical to the Philox spec on every backend.
TEST_P(PrimsCreation, UniformEqualsThePhiloxSpecBitForBit) {
  const std::uint64_t seed = 0x0123456789ABCDEFull;  // high and low words both matter
  for (DType d : dtypes()) {
    SCOPED_TRACE(dtype_name(d));
    const Shape shape{7, 5, 3};
    std::vector<C> values;
    for (std::int64_t k = 0; k < ref_numel(shape); ++k) {
      const auto u = uniform_pair(seed, static_cast<std::uint64_t>(k), is_double(d));
      values.emplace_back(u[0], is_complex(d) ? u[1] : 0.0);
    }
    EXPECT_TRUE(
        identical(down(prims::random_uniform(rt_, d, shape, seed)), make_ref(d, shape, values)));
  }
}

TEST_P(PrimsCreation, UniformAndNormalFollowTheirFormulas) {
  const std::uint64_t seed = 987654321;
  const Shape shape{64, 3};
  for (DType d : dtypes()) {
    SCOPED_TRACE(dtype_name(d));
    std::vector<C> uni, nor;
    for (std::int64_t k = 0; k < ref_numel(shape); ++k) {
      const auto u = uniform_pair(seed, static_cast<std::uint64_t>(k), is_double(d));
      uni.emplace_back(-2.0 + 5.0 * u[0], is_complex(d) ? -2.0 + 5.0 * u[1] : 0.0);
      const C z = box_muller(seed, static_cast<std::uint64_t>(k), is_double(d));
      nor.push_back(is_complex(d) ? C(1.5, 0.0) + (0.5 / std::sqrt(2.0)) * z
                                  : C(1.5 + 0.5 * z.real(), 0.0));
    }
    // The device rounds low + (high - low) u and the log/cos/sin of Box-Muller in its own
    // precision; |values| <= 5, so an absolute allowance of a few ulp of 5 is added.
    const Tol t = tol_for(d);
    EXPECT_TRUE(close(down(prims::random_uniform(rt_, d, shape, seed, -2.0, 3.0)),
                      make_ref(d, shape, uni), t, 5.0));
    EXPECT_TRUE(close(down(prims::random_normal(rt_, d, shape, seed, 1.5, 0.5)),
                      make_ref(d, shape, nor), t, 5.0));
  }
}

// [low, high) holds where high's spacing is coarser than the steps of low + (high - low) u:
// float32 (1e8, 1e8 + 8) gave high itself for half the draws, float64 (1e16, 1e16 + 4) for a
// quarter. low > high draws from (high, low].
TEST_P(PrimsCreation, UniformNeverReturnsHigh) {
  for (DType d : dtypes()) {
    SCOPED_TRACE(dtype_name(d));
    const double lo = is_double(d) ? 1e16 : 1e8, hi = is_double(d) ? 1e16 + 4 : 1e8 + 8;
    for (const auto& [low, high] : {std::pair{lo, hi}, std::pair{hi, lo}, std::pair{10.0, 11.0}}) {
      const Ref got = down(prims::random_uniform(rt_, d, {4096}, 7, low, high));
      int outside = 0;
      for (const C& v : got.v) {
        for (double part : {v.real(), is_complex(d) ? v.imag() : low}) {
          outside += low < high ? !(part >= low && part < high) : !(part <= low && part > high);
        }
      }
      EXPECT_EQ(outside, 0) << "of 4096 draws in [" << low << ", " << high << ")";
    }
  }
}

// The kernels compute in the dtype's precision: a span or a bound that is infinite there made
// every value inf (or NaN) silently.
TEST_P(PrimsCreation, RangesBeyondTheDtypeAreValidationErrors) {
  const auto refused = [&](auto&& draw) { return throws_kind(draw, ErrorKind::Validation); };
  EXPECT_TRUE(refused([&] { (void)prims::random_uniform(rt_, DType::F32, {4}, 1, -3e38, 3e38); }));
  EXPECT_TRUE(refused([&] { (void)prims::random_uniform(rt_, DType::F32, {4}, 1, 0.0, 1e39); }));
  EXPECT_TRUE(refused([&] { (void)prims::random_normal(rt_, DType::F32, {4}, 1, 0.0, 1e39); }));
  EXPECT_TRUE(refused([&] { (void)prims::random_normal(rt_, DType::F32, {4}, 1, -1e39, 1.0); }));
  const std::vector<DType> all = dtypes();
  if (std::find(all.begin(), all.end(), DType::F64) != all.end()) {
    EXPECT_TRUE(
        refused([&] { (void)prims::random_uniform(rt_, DType::F64, {4}, 1, -1e308, 1e308); }));
  }
  // mean + stddev z past the dtype's range for the largest |z| the draws reach (5.77 in
  // float32): stddev 3e38 made a quarter of the values inf.
  EXPECT_TRUE(refused([&] { (void)prims::random_normal(rt_, DType::F32, {4}, 1, 0.0, 3e38); }));
  EXPECT_TRUE(refused([&] { (void)prims::random_normal(rt_, DType::F32, {4}, 1, 3e38, 1e37); }));
  // Within range they still run.
  EXPECT_EQ(prims::random_uniform(rt_, DType::F32, {4}, 1, -1e38, 1e38).numel(), 4);
  EXPECT_EQ(prims::random_normal(rt_, DType::F32, {4}, 1, 0.0, 5e37).numel(), 4);
}

// Element 0 of an arange is start whatever the step: WebGPU computed it as start + 0 * step in
// float32, NaN for a step that overflows float32.
TEST_P(PrimsCreation, ArangeStartsAtStartWhenTheStepOverflowsTheDtype) {
  const Ref got = down(prims::arange(rt_, DType::F32, 0.0, 2e39, 1e39));
  ASSERT_EQ(got.v.size(), 2u);
  EXPECT_EQ(got.v[0], C(0.0));
  EXPECT_TRUE(std::isinf(got.v[1].real()));
}

TEST_P(PrimsCreation, SameSeedSameNumbersDifferentSeedDifferent) {
  for (DType d : dtypes()) {
    SCOPED_TRACE(dtype_name(d));
    for (bool normal : {false, true}) {
      const auto draw = [&](Shape s, std::uint64_t seed) {
        return down(normal ? prims::random_normal(rt_, d, std::move(s), seed)
                           : prims::random_uniform(rt_, d, std::move(s), seed));
      };
      const Ref a = draw({20, 50}, 42), b = draw({20, 50}, 42), c = draw({20, 50}, 43);
      EXPECT_TRUE(identical(a, b)) << "same seed, same call";
      // Element k depends only on (seed, k): a shorter draw is a prefix of a longer one.
      const Ref prefix = draw({137}, 42);
      EXPECT_TRUE(
          identical(prefix, make_ref(d, {137}, std::vector<C>(a.v.begin(), a.v.begin() + 137))));
      int equal = 0;
      for (std::size_t i = 0; i < a.v.size(); ++i) equal += a.v[i] == c.v[i];
      // Two 24-bit uniform draws coincide with probability 2^-24: 1000 elements see none.
      EXPECT_LE(equal, 1) << "seed 42 and 43 gave " << equal << " equal elements of 1000";
    }
  }
}

// Moments for n = 10^5 against 5-sigma bounds (a false failure has probability ~6e-7 per check;
// the seeds are fixed, so the test is deterministic anyway).
TEST_P(PrimsCreation, MomentsOfOneHundredThousandDraws) {
  const std::int64_t n = 100'000;
  const double sn = std::sqrt(static_cast<double>(n));
  for (DType d : dtypes()) {
    SCOPED_TRACE(dtype_name(d));
    const auto moments = [](const std::vector<double>& v) {
      double m = 0.0;
      for (double x : v) m += x;
      m /= static_cast<double>(v.size());
      double var = 0.0;
      for (double x : v) var += (x - m) * (x - m);
      return std::pair<double, double>(m, var / static_cast<double>(v.size() - 1));
    };
    const auto parts = [&](const Ref& r) {
      std::vector<std::vector<double>> p(is_complex(d) ? 2 : 1);
      for (const C& z : r.v) {
        p[0].push_back(z.real());
        if (is_complex(d)) p[1].push_back(z.imag());
      }
      return p;
    };
    // Uniform on [-1, 3): mean 1, variance 16/12; Var(sample var) = (mu4 - sigma^4)/n with
    // mu4 = width^4/80.
    const double w = 4.0, var_u = w * w / 12.0, mu4_u = std::pow(w, 4) / 80.0;
    for (const auto& p : parts(down(prims::random_uniform(rt_, d, {n}, 5, -1.0, 3.0)))) {
      const auto [m, v] = moments(p);
      EXPECT_NEAR(m, 1.0, 5.0 * std::sqrt(var_u) / sn) << "uniform mean";
      EXPECT_NEAR(v, var_u, 5.0 * std::sqrt(mu4_u - var_u * var_u) / sn) << "uniform variance";
      EXPECT_GE(*std::min_element(p.begin(), p.end()), -1.0);
      EXPECT_LT(*std::max_element(p.begin(), p.end()), 3.0);
    }
    // Normal with mean 2, stddev 3: each complex part has variance 9/2 (PyTorch's convention).
    // Var(sample var) = 2 sigma^4 / n for a normal.
    // The mean is real: the imaginary parts centre on 0.
    const double var_n = is_complex(d) ? 4.5 : 9.0;
    const auto normal_parts = parts(down(prims::random_normal(rt_, d, {n}, 6, 2.0, 3.0)));
    for (std::size_t part = 0; part < normal_parts.size(); ++part) {
      const auto [m, v] = moments(normal_parts[part]);
      EXPECT_NEAR(m, part == 0 ? 2.0 : 0.0, 5.0 * std::sqrt(var_n) / sn) << "normal mean";
      EXPECT_NEAR(v, var_n, 5.0 * std::sqrt(2.0) * var_n / sn) << "normal variance";
    }
  }
}

}  // namespace
}  // namespace tenferro::prims_test
