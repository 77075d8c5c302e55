// Path reuse across shapes (EinsumOptions::reuse_path_across_shapes): a repeated equation with new
// shapes of the same labels keeps the earlier plan's steps when they cost no more than greedy's
// there, plans afresh when they do, and einsum_path on tensors says which (EinsumPath::origin).
// Every result is checked against the naive reference.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "support/einsum_reference.hpp"
#include "support/random_tensor.hpp"
#include "tenferro/einsum.hpp"
#include "tenferro/runtime/runtime.hpp"

namespace tenferro {
namespace {

using testing::compare_with_reference;
using testing::random_tensor;
using testing::reference_einsum;

// A DMRG-like environment update: left environment, MPS tensor, MPO tensor, conjugate MPS.
constexpr const char* kEnvironment = "abc,adx,bdey,cez->xyz";

std::vector<Shape> environment_shapes(std::int64_t chi, std::int64_t chi_next) {
  constexpr std::int64_t d = 2, w = 5;
  return {{chi, w, chi}, {chi, d, chi_next}, {w, d, d, w}, {chi, d, chi_next}};
}

struct Operands {
  std::vector<Tensor> hosts;
  std::vector<EagerTensor> eager;
};

Operands random_operands(const std::shared_ptr<EagerRuntime>& runtime,
                         const std::vector<Shape>& shapes, DType dtype, unsigned seed) {
  std::mt19937_64 rng(seed);
  Operands out;
  for (const Shape& shape : shapes) {
    out.hosts.push_back(random_tensor(rng, dtype, shape));
    out.eager.push_back(runtime->upload(out.hosts.back()));
  }
  return out;
}

void expect_reference(const char* subscripts, const Operands& ops, const EinsumOptions& options) {
  const Tensor got = einsum(subscripts, ops.eager, options).download();
  const auto agreement = compare_with_reference(got, reference_einsum(subscripts, ops.hosts));
  EXPECT_TRUE(agreement.ok) << subscripts << ": " << agreement.detail;
}

TEST(EinsumPathReuse, NewShapesOfTheSameLabelsReuseTheSteps) {
  auto runtime = EagerRuntime::cpu();
  const EinsumOptions options;
  const Operands first = random_operands(runtime, environment_shapes(8, 8), DType::F64, 1);
  const EinsumPath planned = einsum_path(kEnvironment, first.eager, options);
  EXPECT_EQ(planned.origin, PlanOrigin::Planned);
  EXPECT_TRUE(planned.steps_planned_for.empty());
  EXPECT_EQ(einsum_path(kEnvironment, first.eager, options).origin, PlanOrigin::Cached);
  expect_reference(kEnvironment, first, options);

  // The bond dimension grows, as it does along a DMRG sweep: the same order stays cheapest.
  const Operands second = random_operands(runtime, environment_shapes(12, 16), DType::F64, 2);
  const EinsumPath reused = einsum_path(kEnvironment, second.eager, options);
  EXPECT_EQ(reused.origin, PlanOrigin::Reused) << reused.to_string();
  EXPECT_EQ(reused.steps, planned.steps);
  EXPECT_EQ(reused.method, planned.method);
  EXPECT_NE(reused.steps_planned_for.find("[8, 5, 8]"), std::string::npos)
      << reused.steps_planned_for;
  // The figures are those of the new shapes, not a copy of the old ones.
  EXPECT_GT(reused.flops, planned.flops);
  const std::string report = reused.to_string();
  EXPECT_NE(report.find("Steps:  reused from the plan for shapes [8, 5, 8]"), std::string::npos)
      << report;
  expect_reference(kEnvironment, second, options);

  // A cache hit of a reused plan still names the shapes its steps were planned for.
  const EinsumPath hit = einsum_path(kEnvironment, second.eager, options);
  EXPECT_EQ(hit.origin, PlanOrigin::Cached);
  EXPECT_EQ(hit.steps_planned_for, reused.steps_planned_for);
  EXPECT_NE(hit.to_string().find("Plan:  the runtime's plan cache"), std::string::npos);

  // Another dtype misses the plan cache (plans are per dtype) but not the path memo.
  const Operands complex_ops = random_operands(runtime, environment_shapes(8, 8), DType::C64, 3);
  EXPECT_EQ(einsum_path(kEnvironment, complex_ops.eager, options).origin, PlanOrigin::Reused);
  expect_reference(kEnvironment, complex_ops, options);
}

// An einsum call plans without the steps' report text (planning work only); einsum_path on a
// cache hit of that plan still reports every step, the same text as a plan made by einsum_path,
// and a plan reused across shapes by an einsum call too.
TEST(EinsumPathReuse, APlanMadeByACallReportsItsSteps) {
  const EinsumOptions options;
  auto fresh = EagerRuntime::cpu();
  const Operands ops = random_operands(fresh, environment_shapes(8, 8), DType::F64, 7);
  const EinsumPath reference = einsum_path(kEnvironment, ops.eager, options);
  ASSERT_EQ(reference.details.size(), 3u);

  auto runtime = EagerRuntime::cpu();
  const Operands first = random_operands(runtime, environment_shapes(8, 8), DType::F64, 7);
  expect_reference(kEnvironment, first, options);  // plans into the cache
  const EinsumPath hit = einsum_path(kEnvironment, first.eager, options);
  EXPECT_EQ(hit.origin, PlanOrigin::Cached);
  ASSERT_EQ(hit.details.size(), reference.details.size());
  for (std::size_t s = 0; s < hit.details.size(); ++s) {
    EXPECT_FALSE(hit.details[s].subscripts.empty()) << "step " << s;
    EXPECT_EQ(hit.details[s].subscripts, reference.details[s].subscripts) << "step " << s;
    EXPECT_EQ(hit.details[s].remaining, reference.details[s].remaining) << "step " << s;
    EXPECT_EQ(hit.details[s].flops, reference.details[s].flops) << "step " << s;
  }
  EXPECT_EQ(hit.expression, reference.expression);

  // New shapes through a call: the steps are reused there, and reported.
  const Operands second = random_operands(runtime, environment_shapes(12, 16), DType::F64, 8);
  expect_reference(kEnvironment, second, options);
  const EinsumPath reused = einsum_path(kEnvironment, second.eager, options);
  EXPECT_EQ(reused.origin, PlanOrigin::Cached);
  EXPECT_FALSE(reused.steps_planned_for.empty());
  for (const EinsumPathStep& step : reused.details) {
    EXPECT_NE(step.subscripts.find("->"), std::string::npos) << reused.to_string();
    EXPECT_NE(step.remaining.find("->"), std::string::npos) << reused.to_string();
  }
}

// A matrix chain whose best order flips with the shapes: (A B) C is cheap for one set, A (B C)
// for the other, so the earlier steps lose to greedy and the call plans afresh.
TEST(EinsumPathReuse, StepsThatLoseToGreedyAreReplanned) {
  auto runtime = EagerRuntime::cpu();
  const EinsumOptions options;
  constexpr const char* chain = "ab,bc,cd->ad";
  const Operands tall = random_operands(runtime, {{100, 2}, {2, 100}, {100, 2}}, DType::F64, 4);
  const EinsumPath first = einsum_path(chain, tall.eager, options);
  const Operands wide = random_operands(runtime, {{2, 100}, {100, 2}, {2, 100}}, DType::F64, 5);
  const EinsumPath second = einsum_path(chain, wide.eager, options);
  EXPECT_EQ(second.origin, PlanOrigin::Planned) << second.to_string();
  EXPECT_TRUE(second.steps_planned_for.empty());
  EXPECT_NE(second.steps, first.steps);
  expect_reference(chain, wide, options);
  // The fresh plan is now the memo: the first shapes, planned again in a new size, replan too.
  const Operands tall_again = random_operands(runtime, {{90, 2}, {2, 90}, {90, 2}}, DType::F64, 6);
  EXPECT_EQ(einsum_path(chain, tall_again.eager, options).origin, PlanOrigin::Planned);
}

TEST(EinsumPathReuse, OnlySearchesAreStoodInFor) {
  auto runtime = EagerRuntime::cpu();
  const Operands small = random_operands(runtime, environment_shapes(4, 4), DType::F64, 7);
  const Operands large = random_operands(runtime, environment_shapes(6, 6), DType::F64, 8);
  EinsumOptions off;
  off.reuse_path_across_shapes = false;
  EinsumOptions greedy;
  greedy.strategy = PathStrategy::Greedy;
  EinsumOptions optimal;
  optimal.strategy = PathStrategy::Optimal;
  EinsumOptions hyper;
  hyper.strategy = PathStrategy::Hyper;
  hyper.hyper_trials = 8;
  hyper.time_budget_seconds = 0;
  for (const auto& [name, options, expected] : {std::tuple{"off", off, PlanOrigin::Planned},
                                                std::tuple{"greedy", greedy, PlanOrigin::Planned},
                                                std::tuple{"optimal", optimal, PlanOrigin::Reused},
                                                std::tuple{"hyper", hyper, PlanOrigin::Reused}}) {
    EXPECT_EQ(einsum_path(kEnvironment, small.eager, options).origin, PlanOrigin::Planned) << name;
    EXPECT_EQ(einsum_path(kEnvironment, large.eager, options).origin, expected) << name;
    expect_reference(kEnvironment, large, options);
  }
  // The memo is per options: reuse off planned both shapes, and did not feed the others.
  EinsumOptions seeded;
  seeded.seed = 99;
  EXPECT_EQ(einsum_path(kEnvironment, large.eager, seeded).origin, PlanOrigin::Planned);
}

// Slicing is decided again at the new sizes: the reused steps are sliced when they must be.
TEST(EinsumPathReuse, MemoryLimitSlicesTheReusedStepsAtTheNewSizes) {
  auto runtime = EagerRuntime::cpu();
  EinsumOptions options;
  options.memory_limit = 1500;  // above every operand and the output at bond 16
  const Operands small = random_operands(runtime, environment_shapes(4, 4), DType::F64, 9);
  const EinsumPath planned = einsum_path(kEnvironment, small.eager, options);
  ASSERT_TRUE(planned.sliced_labels.empty()) << planned.to_string();
  const Operands large = random_operands(runtime, environment_shapes(16, 16), DType::F64, 10);
  const EinsumPath reused = einsum_path(kEnvironment, large.eager, options);
  EXPECT_EQ(reused.origin, PlanOrigin::Reused);
  EXPECT_EQ(reused.steps, planned.steps);
  EXPECT_FALSE(reused.sliced_labels.empty()) << reused.to_string();
  EXPECT_LE(reused.slice_largest_intermediate, options.memory_limit);
  expect_reference(kEnvironment, large, options);
}

// The runtime-aware einsum_path plans into the cache einsum uses: the next einsum is a hit.
TEST(EinsumPathReuse, EinsumPathOnTensorsFillsThePlanCache) {
  auto runtime = EagerRuntime::cpu();
  const Operands ops = random_operands(runtime, environment_shapes(5, 5), DType::F32, 11);
  const CacheSelector plans{std::string(einsum_family::kFamily), "plan"};
  const auto before = runtime->caches().stats(plans);
  (void)einsum_path(kEnvironment, ops.eager);
  (void)einsum(kEnvironment, ops.eager);
  const auto after = runtime->caches().stats(plans);
  EXPECT_EQ(after.misses - before.misses, 1u);
  EXPECT_EQ(after.hits - before.hits, 1u);
  // The shape-only einsum_path knows no runtime: it always plans.
  const std::vector<Shape> shapes = environment_shapes(5, 5);
  EXPECT_EQ(einsum_path(kEnvironment, shapes).origin, PlanOrigin::Planned);
}

}  // namespace
}  // namespace tenferro
