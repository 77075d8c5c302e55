// Einsum sums over long extents on the CPU runtime. The CPU kernel used to add in the element
// type, one running sum per output, so a float32 sum of 2^25 ones came back 2^24 (the float
// after which adding 1 changes nothing) and random float32 sums carried errors near 1e-5; it
// now runs on the backend's reduction (wide accumulator, pairwise). The cases and their
// tolerance: tests/support/long_sums.hpp.
#include <gtest/gtest.h>

#include <cstdint>

#include "support/long_sums.hpp"
#include "tenferro/einsum.hpp"
#include "tenferro/runtime/runtime.hpp"

namespace tenferro {
namespace {

TEST(EinsumLongSums, TrailingSumsKeepTheirPrecision) {
  testing::check_long_sums(EagerRuntime::cpu(), {DType::F32, DType::C32, DType::F64, DType::C64});
}

TEST(EinsumLongSums, AFloatSumCountsPastTwoToThe24) {
  // 2^25 ones: exactly representable, and twice the float where a float running sum stops.
  const std::int64_t n = std::int64_t{1} << 25;
  auto runtime = EagerRuntime::cpu();
  Tensor ones = Tensor::zeros(DType::F32, {n});
  for (std::int64_t i = 0; i < n; ++i) ones.data<float>()[i] = 1.0f;
  const Tensor got = einsum("i->", {runtime->upload(ones)}).download();
  EXPECT_EQ(got.data<float>()[0], static_cast<float>(n));
}

}  // namespace
}  // namespace tenferro
