// The scalar rules the CPU and CUDA kernels share (src/ops/prims/shared_real_math.hpp), against
// the C library: exact_fmod's fma path is the library's fmod bit for bit on both sides of its
// 2^52 / 2^23 quotient limit, near-integer quotients (where the rounded quotient truncates to
// k + 1) included; cube_root is correctly rounded (against long double, on values whose root
// long double resolves) and exact on cubes.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <random>

#include "ops/prims/shared_real_math.hpp"

namespace tenferro::prims_internal {
namespace {

template <class R>
int fmod_mismatches(std::uint64_t seed) {
  using Bits = std::conditional_t<sizeof(R) == 4, std::uint32_t, std::uint64_t>;
  constexpr int kDigits = sizeof(R) == 4 ? 24 : 53;
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> mantissa(1.0, 2.0), unit(0.0, 1.0);
  int bad = 0;
  for (int i = 0; i < 400000; ++i) {
    // b over a wide range; a = b times a quotient of 2^0 .. 2^(digits + 6), or an integer
    // multiple of b nudged by an ulp either way (the truncation's edge).
    const R b = static_cast<R>(std::ldexp(mantissa(rng), static_cast<int>(unit(rng) * 120) - 60) *
                               (unit(rng) < 0.5 ? -1 : 1));
    R a;
    if (i % 2) {
      a = static_cast<R>(b *
                         std::ldexp(mantissa(rng), static_cast<int>(unit(rng) * (kDigits + 6))));
    } else {
      const auto k = static_cast<R>(std::floor(std::ldexp(unit(rng), kDigits - 1)));
      a = std::nextafter(static_cast<R>(k * b), unit(rng) < 0.5 ? R(-INFINITY) : R(INFINITY));
    }
    if (unit(rng) < 0.5) a = -a;
    const R got = exact_fmod(a, b), want = std::fmod(a, b);
    if (std::bit_cast<Bits>(got) != std::bit_cast<Bits>(want) && ++bad <= 5) {
      ADD_FAILURE() << "fmod(" << a << ", " << b << ") = " << got << ", the library's " << want;
    }
  }
  return bad;
}

TEST(SharedRealMath, ExactFmodIsTheLibrarysFmodBitForBit) {
  EXPECT_EQ(fmod_mismatches<double>(11), 0);
  EXPECT_EQ(fmod_mismatches<float>(12), 0);
  // Signed zeros, infinities, NaN and subnormals take the library's path or keep its signs.
  const double specials[] = {0.0, -0.0, 1.0, -3.5, 5e-324, -5e-324, 1e308, INFINITY, -INFINITY};
  for (double a : specials) {
    for (double b : specials) {
      const double got = exact_fmod(a, b), want = std::fmod(a, b);
      EXPECT_TRUE(std::isnan(want)
                      ? std::isnan(got)
                      : std::bit_cast<std::uint64_t>(got) == std::bit_cast<std::uint64_t>(want))
          << "fmod(" << a << ", " << b << ") = " << got << ", the library's " << want;
    }
  }
}

TEST(SharedRealMath, CubeRootIsCorrectlyRoundedAndExactOnCubes) {
  for (int k = -100000; k <= 100000; ++k) {
    const double x = static_cast<double>(k) * k * k;
    ASSERT_EQ(cube_root(x), static_cast<double>(k)) << "cbrt(" << x << ")";
  }
  std::mt19937_64 rng(13);
  std::uniform_real_distribution<double> exponent(-1074.0, 1023.0);
  int bad = 0;
  for (int i = 0; i < 200000; ++i) {
    const double x = std::exp2(exponent(rng)) * (i % 2 ? -1 : 1);
    const long double exact = std::cbrt(static_cast<long double>(x));
    const double got = cube_root(x);
    // Correctly rounded: no double nearer the long double root (which carries 11 more bits).
    const long double err = std::fabs(static_cast<long double>(got) - exact);
    const long double ulp = std::fabs(static_cast<long double>(std::nextafter(got, 0.0)) - got);
    if (err > 0.5L * ulp * (1 + 0x1p-9L) && ++bad <= 5) {
      ADD_FAILURE() << "cbrt(" << x << ") = " << got << ", error " << err / ulp << " ulp";
    }
  }
  EXPECT_EQ(bad, 0);
}

}  // namespace
}  // namespace tenferro::prims_internal
