// Philox4x32-10 on the device, word for word the CPU's philox_words() (philox.hpp): same
// rounds, same constants (taken from philox.hpp), __umulhi for the high half of each product.
// Host-callable too, so that a host check can compare it with philox.hpp without a device.
#pragma once

#include <cstdint>

#include "ops/prims/cuda/prims_index.hpp"  // TENFERRO_PRIMS_HD
#include "ops/prims/philox.hpp"

namespace tenferro::cuda_kernels::prims {

// The high 32 bits of a * b.
TENFERRO_PRIMS_HD std::uint32_t mul_hi(std::uint32_t a, std::uint32_t b) {
#if defined(__CUDA_ARCH__)
  return __umulhi(a, b);
#else
  return static_cast<std::uint32_t>((std::uint64_t{a} * b) >> 32);
#endif
}

struct Words {
  std::uint32_t x[4];
};

// Philox4x32-10 of counter (k low, k high, 0, 0) under key (seed low, seed high).
TENFERRO_PRIMS_HD Words philox_words(std::uint64_t seed, std::uint64_t k) {
  std::uint32_t c0 = static_cast<std::uint32_t>(k), c1 = static_cast<std::uint32_t>(k >> 32);
  std::uint32_t c2 = 0, c3 = 0;
  std::uint32_t k0 = static_cast<std::uint32_t>(seed), k1 = static_cast<std::uint32_t>(seed >> 32);
#if defined(__CUDACC__)
#pragma unroll
#endif
  for (int round = 0; round < 10; ++round) {
    const std::uint32_t hi0 = mul_hi(prims_internal::kPhiloxM0, c0);
    const std::uint32_t lo0 = prims_internal::kPhiloxM0 * c0;
    const std::uint32_t hi1 = mul_hi(prims_internal::kPhiloxM1, c2);
    const std::uint32_t lo1 = prims_internal::kPhiloxM1 * c2;
    const std::uint32_t n0 = hi1 ^ c1 ^ k0, n2 = hi0 ^ c3 ^ k1;
    c0 = n0;
    c1 = lo1;
    c2 = n2;
    c3 = lo0;
    k0 += prims_internal::kPhiloxW0;
    k1 += prims_internal::kPhiloxW1;
  }
  return {{c0, c1, c2, c3}};
}

}  // namespace tenferro::cuda_kernels::prims
