// The slicer's search (choose_slices): on random networks and trees, every plan it returns
// meets the limit (its labels re-costed here with tree_cost, not the slicer's own per-label
// bookkeeping), costs no more than its deterministic greedy alone (run 0, nothing pruned),
// gives the same labels on every call, and its restarts and pruning find a cheaper slicing on
// some networks.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "ops/einsum/expression.hpp"
#include "ops/einsum/path_search.hpp"
#include "random_networks.hpp"

namespace tenferro::einsum_internal {
namespace {

struct Case {
  PathProblem problem;
  SsaPath tree;
  double largest = 0;    // unsliced largest intermediate
  double min_limit = 0;  // the largest input: the tests' limits stay above it (einsum refuses
                         // a limit below an input, which it holds whole)
};

Case make_case(const testing::GeneratedNetwork& net, std::uint64_t tree_seed) {
  const std::vector<Shape> shapes = net.shapes();
  std::vector<std::int64_t> ranks;
  for (const Shape& s : shapes) ranks.push_back(static_cast<std::int64_t>(s.size()));
  const auto expr = from_labels(net.labels, ranks);
  Case c;
  c.problem = make_path_problem(expr, label_sizes(expr, shapes));
  GreedyParams params;
  params.temperature = 0.3;  // a randomised greedy tree: varied, reproducible trees
  params.seed = tree_seed;
  c.tree = random_greedy_path(c.problem, params);
  const auto sets = tree_node_sets(c.problem, c.tree);
  c.largest = tree_cost(c.problem, c.tree, sets, c.problem.extents).largest;
  for (int k = 0; k < c.problem.num_operands; ++k)
    c.min_limit = std::max(c.min_limit, set_size(c.problem.full_input(k), c.problem.extents));
  return c;
}

// Largest intermediate and total FLOPs of `tree` with `labels` sliced, by tree_cost.
TreeCost sliced_cost(const Case& c, const std::vector<Label>& labels) {
  std::vector<double> extents = c.problem.extents;
  double slices = 1;
  for (Label l : labels) {
    slices *= extents[static_cast<std::size_t>(l)];
    extents[static_cast<std::size_t>(l)] = 1;
  }
  TreeCost cost = tree_cost(c.problem, c.tree, tree_node_sets(c.problem, c.tree), extents);
  cost.flops *= slices;
  return cost;
}

std::vector<Case> cases() {
  std::vector<Case> out;
  std::mt19937_64 rng(17);
  for (int n : {20, 40, 60})
    for (int degree : {3, 4})
      for (std::uint64_t seed = 0; seed < 3; ++seed)
        out.push_back(make_case(testing::random_regular_network(rng, n, degree, 2), seed));
  return out;
}

TEST(EinsumSliceSearch, MeetsTheLimitAndNeverCostsMoreThanItsGreedy) {
  int cheaper = 0, plans = 0;
  SliceSettings greedy_only;
  greedy_only.restarts = 0;
  greedy_only.prune = false;
  for (const Case& c : cases()) {
    for (double divisor : {4.0, 16.0, 64.0}) {
      const double limit = std::max(c.largest / divisor, c.min_limit);
      if (limit >= c.largest) continue;
      const SlicePlan plan = choose_slices(c.problem, c.tree, limit);
      const SlicePlan greedy = choose_slices(c.problem, c.tree, limit, greedy_only);
      const TreeCost cost = sliced_cost(c, plan.labels);
      ++plans;
      EXPECT_LE(cost.largest, limit);
      EXPECT_LE(sliced_cost(c, greedy.labels).largest, limit);
      EXPECT_LE(plan.flops, greedy.flops * (1 + 1e-12));
      cheaper += plan.flops < greedy.flops * (1 - 1e-9);
      // Labels are distinct and the slice count is their extents' product.
      std::vector<Label> sorted = plan.labels;
      std::sort(sorted.begin(), sorted.end());
      EXPECT_EQ(std::adjacent_find(sorted.begin(), sorted.end()), sorted.end());
      double slices = 1;
      for (Label l : plan.labels) slices *= c.problem.extents[static_cast<std::size_t>(l)];
      EXPECT_EQ(plan.slices, slices);
    }
  }
  ASSERT_GT(plans, 20);
  // The restarts and pruning are not a no-op: some networks get a cheaper slicing.
  EXPECT_GT(cheaper, 0) << "of " << plans;
}

TEST(EinsumSliceSearch, PruningNeverAddsFlops) {
  SliceSettings plain, pruned;
  plain.restarts = pruned.restarts = 0;
  plain.prune = false;
  for (const Case& c : cases()) {
    const double limit = std::max(c.largest / 16, c.min_limit);
    if (limit >= c.largest) continue;
    const SlicePlan a = choose_slices(c.problem, c.tree, limit, plain);
    const SlicePlan b = choose_slices(c.problem, c.tree, limit, pruned);
    EXPECT_LE(b.flops, a.flops * (1 + 1e-12));
    EXPECT_LE(b.labels.size(), a.labels.size());
    EXPECT_LE(sliced_cost(c, b.labels).largest, limit);
  }
}

TEST(EinsumSliceSearch, SameInputSameSlicing) {
  for (const Case& c : cases()) {
    const double limit = std::max(c.largest / 16, c.min_limit);
    if (limit >= c.largest) continue;
    const SlicePlan a = choose_slices(c.problem, c.tree, limit);
    const SlicePlan b = choose_slices(c.problem, c.tree, limit);
    EXPECT_EQ(a.labels, b.labels);
    EXPECT_EQ(a.flops, b.flops);
  }
}

}  // namespace
}  // namespace tenferro::einsum_internal
