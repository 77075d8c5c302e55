// Philox4x32-10 (Salmon et al., "Parallel random numbers: as easy as 1, 2, 3", SC'11), the
// counter-based generator behind prims::random_uniform/random_normal, and how its words become
// values. Every backend implements exactly this; the CPU uses these functions directly.
//
// Element k (column-major linear index) of a call with `seed`: key = (seed low 32, seed high 32),
// counter = (k low 32, k high 32, 0, 0); x0..x3 = philox4x32_10(counter, key).
//  - uniform F32 from one word w: (w >> 8) * 2^-24, in [0, 1).
//  - uniform F64 from words (w0, w1): ((w0 >> 5) * 2^26 + (w1 >> 6)) * 2^-53, in [0, 1).
//  - a uniform value is low + (high - low) * u, in the dtype's precision; where that rounds to
//    high itself, the value next to high toward low. Complex: real part from x0 (F64: x0, x1),
//    imaginary part from x2 (F64: x2, x3).
//  - normal (Box-Muller): u1 = 1 - U_a (in (0, 1]), u2 = U_b, with U_a from x0 and U_b from x1
//    for F32/C32, U_a from (x0, x1) and U_b from (x2, x3) for F64/C64; r = sqrt(-2 ln u1),
//    z0 = r cos(2 pi u2), z1 = r sin(2 pi u2). Real: mean + stddev * z0.
//    Complex: mean + (stddev / sqrt 2) * (z0 + i z1).
#pragma once

#include <array>
#include <cstdint>

namespace tenferro::prims_internal {

inline constexpr std::uint32_t kPhiloxM0 = 0xD2511F53u, kPhiloxM1 = 0xCD9E8D57u;
inline constexpr std::uint32_t kPhiloxW0 = 0x9E3779B9u, kPhiloxW1 = 0xBB67AE85u;

constexpr std::array<std::uint32_t, 4> philox4x32_10(std::array<std::uint32_t, 4> c,
                                                     std::array<std::uint32_t, 2> key) {
  for (int round = 0; round < 10; ++round) {
    const std::uint64_t p0 = std::uint64_t{kPhiloxM0} * c[0];
    const std::uint64_t p1 = std::uint64_t{kPhiloxM1} * c[2];
    const auto hi0 = static_cast<std::uint32_t>(p0 >> 32), lo0 = static_cast<std::uint32_t>(p0);
    const auto hi1 = static_cast<std::uint32_t>(p1 >> 32), lo1 = static_cast<std::uint32_t>(p1);
    c = {hi1 ^ c[1] ^ key[0], lo1, hi0 ^ c[3] ^ key[1], lo0};
    key[0] += kPhiloxW0;
    key[1] += kPhiloxW1;
  }
  return c;
}

constexpr std::array<std::uint32_t, 4> philox_words(std::uint64_t seed, std::uint64_t k) {
  return philox4x32_10({static_cast<std::uint32_t>(k), static_cast<std::uint32_t>(k >> 32), 0, 0},
                       {static_cast<std::uint32_t>(seed), static_cast<std::uint32_t>(seed >> 32)});
}

constexpr float uniform_f32(std::uint32_t w) {
  return static_cast<float>(w >> 8) * 0x1.0p-24f;
}
constexpr double uniform_f64(std::uint32_t w0, std::uint32_t w1) {
  return (static_cast<double>(w0 >> 5) * 67108864.0 + static_cast<double>(w1 >> 6)) * 0x1.0p-53;
}

}  // namespace tenferro::prims_internal
