// Randomized einsum expressions on the CPU runtime against the naive reference, for all four
// dtypes (the generator and checker are in tests/support so other backends reuse them).
#include <gtest/gtest.h>

#include "support/random_einsum.hpp"
#include "tenferro/runtime/runtime.hpp"

namespace tenferro {
namespace {

TEST(EinsumRandom, AutoPathMatchesReference) {
  auto rt = EagerRuntime::cpu();
  EXPECT_EQ(testing::check_random_einsum_cases(rt, kAllDTypes, 150, 20261130), 600);
}

TEST(EinsumRandom, GreedyAndOptimalWithoutDirectPathMatchReference) {
  auto rt = EagerRuntime::cpu();
  EinsumOptions greedy;
  greedy.strategy = PathStrategy::Greedy;
  greedy.allow_direct_binary = false;
  EXPECT_EQ(testing::check_random_einsum_cases(rt, kAllDTypes, 60, 77, greedy), 240);
  EinsumOptions optimal;
  optimal.strategy = PathStrategy::Optimal;
  EXPECT_EQ(testing::check_random_einsum_cases(rt, kAllDTypes, 60, 78, optimal), 240);
}

TEST(EinsumRandom, TwoOperandCasesExerciseTheDirectPath) {
  auto rt = EagerRuntime::cpu();
  testing::RandomEinsumLimits two;
  two.max_operands = 2;
  two.ellipsis_probability = 0.1;
  EXPECT_EQ(testing::check_random_einsum_cases(rt, kAllDTypes, 100, 4242, {}, two), 400);
}

}  // namespace
}  // namespace tenferro
