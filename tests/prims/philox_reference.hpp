// Philox4x32-10 written from the paper (Salmon, Moraes, Dror, Shaw: "Parallel random numbers:
// as easy as 1, 2, 3", SC'11) for the prims random tests; it deliberately shares no code with
// src/ops/prims/philox.hpp. Checked against the known-answer vectors the paper's authors publish
// with Random123 (kat_vectors), so the test's generator is right before it judges the library's.
#pragma once

#include <array>
#include <cmath>
#include <complex>
#include <cstdint>
#include <numbers>

namespace tenferro::prims_test {

using Words = std::array<std::uint32_t, 4>;

// Ten rounds; each multiplies the even words by the round constants, swaps the halves and XORs
// the high products with the odd words and the round key. The key is bumped by the Weyl
// constants (golden ratio, sqrt(3) - 1) before every round but the first.
inline Words philox4x32_10_ref(Words x, std::array<std::uint32_t, 2> key) {
  constexpr std::uint64_t kMul0 = 0xD2511F53u, kMul1 = 0xCD9E8D57u;
  constexpr std::uint32_t kWeyl0 = 0x9E3779B9u, kWeyl1 = 0xBB67AE85u;
  for (int round = 0; round < 10; ++round) {
    if (round > 0) {
      key[0] += kWeyl0;
      key[1] += kWeyl1;
    }
    const std::uint64_t p0 = kMul0 * x[0], p1 = kMul1 * x[2];
    x = Words{static_cast<std::uint32_t>(p1 >> 32) ^ x[1] ^ key[0], static_cast<std::uint32_t>(p1),
              static_cast<std::uint32_t>(p0 >> 32) ^ x[3] ^ key[1], static_cast<std::uint32_t>(p0)};
  }
  return x;
}

// The header's mapping: element k of a call with `seed` uses counter (k lo, k hi, 0, 0) and key
// (seed lo, seed hi).
inline Words element_words(std::uint64_t seed, std::uint64_t k) {
  return philox4x32_10_ref(
      {static_cast<std::uint32_t>(k & 0xFFFFFFFFu), static_cast<std::uint32_t>(k >> 32), 0u, 0u},
      {static_cast<std::uint32_t>(seed & 0xFFFFFFFFu), static_cast<std::uint32_t>(seed >> 32)});
}

// Uniform [0, 1): F32 from the top 24 bits of one word; F64 from 27 + 26 bits of two words.
inline double u24(std::uint32_t w) {
  return std::ldexp(static_cast<double>(w >> 8), -24);
}
inline double u53(std::uint32_t w0, std::uint32_t w1) {
  return std::ldexp(std::ldexp(static_cast<double>(w0 >> 5), 26) + static_cast<double>(w1 >> 6),
                    -53);
}

// The two uniform numbers (real part, imaginary part) of element k; `wide` for F64/C64.
inline std::array<double, 2> uniform_pair(std::uint64_t seed, std::uint64_t k, bool wide) {
  const Words w = element_words(seed, k);
  if (wide) return {u53(w[0], w[1]), u53(w[2], w[3])};
  return {u24(w[0]), u24(w[2])};
}

// Box-Muller as the header states: U_a and U_b from x0 and x1 (F32/C32) or from (x0, x1) and
// (x2, x3) (F64/C64); r = sqrt(-2 ln(1 - U_a)), z = r (cos 2 pi U_b + i sin 2 pi U_b).
inline std::complex<double> box_muller(std::uint64_t seed, std::uint64_t k, bool wide) {
  const Words w = element_words(seed, k);
  const double ua = wide ? u53(w[0], w[1]) : u24(w[0]);
  const double ub = wide ? u53(w[2], w[3]) : u24(w[1]);
  const double r = std::sqrt(-2.0 * std::log(1.0 - ua));
  const double t = 2.0 * std::numbers::pi * ub;
  return {r * std::cos(t), r * std::sin(t)};
}

}  // namespace tenferro::prims_test
