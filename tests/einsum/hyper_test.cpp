// PathStrategy::Hyper: never worse than greedy on its objective (greedy is one of its
// trials), reproducible for a seed, honours the size objective, and refuses bad settings
// with typed Validation errors.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <limits>
#include <random>
#include <utility>

#include "ops/einsum/expression.hpp"
#include "ops/einsum/path.hpp"
#include "ops/einsum/path_search.hpp"
#include "random_networks.hpp"
#include "tenferro/core/error.hpp"
#include "tenferro/einsum.hpp"

namespace tenferro {
namespace {

EinsumPath plan(const testing::GeneratedNetwork& net, const EinsumOptions& options) {
  return testing::plan_generated(net, options);
}

EinsumOptions hyper(std::uint64_t seed, int trials = 32) {
  EinsumOptions o;
  o.strategy = PathStrategy::Hyper;
  o.seed = seed;
  o.hyper_trials = trials;
  o.time_budget_seconds = 0;  // trial-bound: reproducible
  return o;
}

TEST(EinsumHyper, NoMoreFlopsThanGreedyOnRandomRegularGraphs) {
  std::mt19937_64 rng(20261201);
  int strictly_better = 0, cases = 0;
  for (const auto& [n, degree] : {std::pair{24, 3}, {40, 3}, {60, 3}, {30, 4}, {50, 4}}) {
    const auto net = testing::random_regular_network(rng, n, degree, 2);
    EinsumOptions greedy;
    greedy.strategy = PathStrategy::Greedy;
    const EinsumPath g = plan(net, greedy);
    const EinsumPath h = plan(net, hyper(static_cast<std::uint64_t>(n)));
    EXPECT_EQ(h.steps.size(), static_cast<std::size_t>(n - 1));
    EXPECT_LE(h.flops, g.flops * (1 + 1e-12)) << n << " tensors of degree " << degree;
    strictly_better += h.flops < g.flops;
    ++cases;
    std::printf("[ info   ] %d-regular, %d tensors: hyper/greedy FLOPs %.3f (%s)\n", degree, n,
                h.flops / g.flops, h.method.c_str());
  }
  // Greedy is trial 0, so "no worse" holds by construction; that the search also finds
  // better trees is what it is for.
  EXPECT_GT(strictly_better, 0) << "hyper never beat greedy on " << cases << " graphs";
}

TEST(EinsumHyper, SameSeedGivesTheSamePath) {
  std::mt19937_64 rng(7);
  const auto net = testing::random_regular_network(rng, 50, 3, 2);
  const EinsumPath a = plan(net, hyper(99, 48));
  const EinsumPath b = plan(net, hyper(99, 48));
  EXPECT_EQ(a.steps, b.steps);
  EXPECT_EQ(a.flops, b.flops);
  EXPECT_EQ(a.method, b.method);
}

TEST(EinsumHyper, SizeObjectiveNeverExceedsGreedysLargestIntermediate) {
  std::mt19937_64 rng(11);
  for (int n : {30, 48}) {
    const auto net = testing::random_regular_network(rng, n, 3, 4);
    EinsumOptions greedy;
    greedy.strategy = PathStrategy::Greedy;
    EinsumOptions size = hyper(5);
    size.objective = PathObjective::Size;
    const EinsumPath g = plan(net, greedy);
    const EinsumPath h = plan(net, size);
    EXPECT_LE(h.largest_intermediate, g.largest_intermediate) << n;
  }
}

TEST(EinsumHyper, AutoUsesHyperOnlyForLargeNetworks) {
  std::mt19937_64 rng(3);
  const EinsumPath small = plan(testing::random_regular_network(rng, 20, 3, 2), {});
  const EinsumPath large = plan(testing::random_regular_network(rng, 60, 3, 2), {});
  EXPECT_EQ(small.method.rfind("auto: greedy", 0), 0u) << small.method;
  EXPECT_EQ(large.method.rfind("auto: hyper", 0), 0u) << large.method;
}

// The partitioner's trees are whole contractions (every operand and intermediate used once),
// and a network of two disconnected rings is split between the rings first (a cut of zero).
TEST(EinsumHyper, BisectionTreesAreCompleteAndSplitComponentsFirst) {
  using namespace einsum_internal;
  testing::GeneratedNetwork rings;
  const int ring = 8;
  for (int c = 0; c < 2; ++c) {
    for (int k = 0; k < ring; ++k) {
      const int label = c * ring + k, next = c * ring + (k + 1) % ring;
      rings.labels.inputs.push_back({label, next});
    }
  }
  rings.extents.assign(2 * ring, 3);
  std::mt19937_64 rng(2);
  const auto graph = testing::random_regular_network(rng, 60, 3, 2);
  for (const testing::GeneratedNetwork* net : {&std::as_const(rings), &graph}) {
    const std::vector<Shape> shapes = net->shapes();
    std::vector<std::int64_t> ranks;
    for (const Shape& sh : shapes) ranks.push_back(static_cast<std::int64_t>(sh.size()));
    const auto expr = from_labels(net->labels, ranks);
    const auto sizes = label_sizes(expr, shapes);
    const PathProblem problem = make_path_problem(expr, sizes);
    const int n = problem.num_operands;
    for (std::uint64_t seed = 0; seed < 6; ++seed) {
      PartitionParams params;
      params.seed = seed;
      params.imbalance = 0.1 * static_cast<double>(seed);
      params.cutoff = 3 + static_cast<int>(seed);
      params.imbalance_decay = static_cast<double>(seed) - 3;  // looser, then tighter below
      const SsaPath ssa = partition_path(problem, params);
      ASSERT_EQ(ssa.size(), static_cast<std::size_t>(n - 1));
      std::vector<int> uses(static_cast<std::size_t>(2 * n - 1), 0);
      for (std::size_t k = 0; k < ssa.size(); ++k) {
        for (int id : {ssa[k].first, ssa[k].second}) {
          ASSERT_TRUE(id >= 0 && id < n + static_cast<int>(k)) << "step " << k << " uses " << id;
          ++uses[static_cast<std::size_t>(id)];
        }
      }
      for (std::size_t id = 0; id + 1 < uses.size(); ++id) EXPECT_EQ(uses[id], 1) << id;
      EXPECT_NO_THROW((void)evaluate_path(expr, problem, ssa_to_linear(ssa, n)));
      if (net != &rings) continue;
      // Leaves under the root's first child: one whole ring.
      std::vector<std::vector<int>> leaves(static_cast<std::size_t>(2 * n - 1));
      for (int k = 0; k < n; ++k) leaves[static_cast<std::size_t>(k)] = {k};
      for (std::size_t k = 0; k < ssa.size(); ++k) {
        auto& mine = leaves[static_cast<std::size_t>(n) + k];
        for (int id : {ssa[k].first, ssa[k].second})
          mine.insert(mine.end(), leaves[static_cast<std::size_t>(id)].begin(),
                      leaves[static_cast<std::size_t>(id)].end());
      }
      std::vector<int> side = leaves[static_cast<std::size_t>(ssa.back().first)];
      std::sort(side.begin(), side.end());
      ASSERT_EQ(side.size(), static_cast<std::size_t>(ring)) << "seed " << seed;
      EXPECT_EQ(side.back() - side.front(), ring - 1) << "the split crosses the rings";
    }
  }
}

void expect_validation(const EinsumOptions& options, const char* what) {
  const std::vector<Shape> shapes{{2, 3}, {3, 4}, {4, 5}};
  try {
    (void)einsum_path("ab,bc,cd->ad", shapes, options);
    ADD_FAILURE() << what << ": accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Validation) << what << ": " << e.what();
  }
}

TEST(EinsumHyper, InvalidBudgetsAndSettingsAreValidationErrors) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  EinsumOptions o = hyper(1);
  o.time_budget_seconds = nan;
  expect_validation(o, "NaN time budget");
  o.time_budget_seconds = -1;
  expect_validation(o, "negative time budget");
  o = hyper(1);
  o.hyper_trials = -3;
  expect_validation(o, "negative trial count");
  o = hyper(1, 0);  // no trial limit and no time budget
  expect_validation(o, "unbounded search");
  o = hyper(1);
  o.combo_factor = nan;
  expect_validation(o, "NaN combo factor");
  o = hyper(1);
  o.memory_limit = -5;
  expect_validation(o, "negative memory limit");
  o.memory_limit = nan;
  expect_validation(o, "NaN memory limit");
  // Huge and infinite budgets are valid (no limit but the trial count).
  for (double budget : {1e300, std::numeric_limits<double>::infinity()}) {
    EinsumOptions big = hyper(1, 8);
    big.time_budget_seconds = budget;
    EXPECT_NO_THROW(
        (void)einsum_path("ab,bc,cd->ad", std::vector<Shape>{{2, 3}, {3, 4}, {4, 5}}, big))
        << budget;
  }
  // The same checks hold whatever the strategy.
  EinsumOptions greedy;
  greedy.strategy = PathStrategy::Greedy;
  greedy.memory_limit = nan;
  expect_validation(greedy, "NaN memory limit with greedy");
}

}  // namespace
}  // namespace tenferro
