// Contraction-order planning: the optimal strategy against brute force over every pairwise
// order on small random networks, greedy and auto validity and quality, explicit path
// validation, textbook matrix-chain optima, and the public einsum_path report.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <functional>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "ops/einsum/expression.hpp"
#include "ops/einsum/path.hpp"
#include "tenferro/core/error.hpp"
#include "tenferro/einsum.hpp"

namespace tenferro::einsum_internal {
namespace {

using Steps = std::vector<std::pair<int, int>>;
using LabelSet = std::set<Label>;

// --- An independent reference for opt_einsum's cost model, written with std::set --------

struct Network {
  EinsumExpression expr;
  std::vector<std::int64_t> sizes;
};

double product(const LabelSet& labels, const std::vector<std::int64_t>& sizes) {
  double p = 1;
  for (Label l : labels) p *= static_cast<double>(sizes[static_cast<std::size_t>(l)]);
  return p;
}

struct ReferenceCost {
  double flops = 0;
  double largest = 0;
};

// Contracts along linear `steps` in opt_einsum's model: an input operand with private labels
// (in no other operand, not in the output) is first summed on its own for 2 * its size;
// each pairwise step costs the product of the union of its operands' labels, doubled when
// it sums a label away.
ReferenceCost reference_cost(const Network& net, const Steps& steps) {
  const std::size_t n = net.expr.inputs.size();
  const LabelSet out(net.expr.output.begin(), net.expr.output.end());
  std::vector<LabelSet> live;
  std::vector<double> reduction;  // pending reduction cost per live entry (leaves only)
  ReferenceCost cost;
  for (std::size_t k = 0; k < n; ++k) {
    const LabelSet full(net.expr.inputs[k].begin(), net.expr.inputs[k].end());
    LabelSet kept;
    for (Label l : full) {
      bool elsewhere = out.count(l) > 0;
      for (std::size_t o = 0; o < n; ++o) {
        if (o != k && std::count(net.expr.inputs[o].begin(), net.expr.inputs[o].end(), l))
          elsewhere = true;
      }
      if (elsewhere) kept.insert(l);
    }
    live.push_back(kept);
    reduction.push_back(kept.size() < full.size() ? 2 * product(full, net.sizes) : 0);
  }
  for (const auto& [i, j] : steps) {
    for (int t : {i, j}) {
      if (reduction[static_cast<std::size_t>(t)] > 0) {
        cost.flops += reduction[static_cast<std::size_t>(t)];
        cost.largest =
            std::max(cost.largest, product(live[static_cast<std::size_t>(t)], net.sizes));
      }
    }
    LabelSet merged = live[static_cast<std::size_t>(i)];
    merged.insert(live[static_cast<std::size_t>(j)].begin(),
                  live[static_cast<std::size_t>(j)].end());
    LabelSet need = out;
    for (std::size_t k = 0; k < live.size(); ++k) {
      if (static_cast<int>(k) != i && static_cast<int>(k) != j)
        need.insert(live[k].begin(), live[k].end());
    }
    LabelSet kept;
    for (Label l : merged)
      if (need.count(l)) kept.insert(l);
    cost.flops += product(merged, net.sizes) * (kept.size() < merged.size() ? 2 : 1);
    cost.largest = std::max(cost.largest, product(kept, net.sizes));
    for (auto* v : {&reduction}) {
      v->erase(v->begin() + std::max(i, j));
      v->erase(v->begin() + std::min(i, j));
      v->push_back(0);
    }
    live.erase(live.begin() + std::max(i, j));
    live.erase(live.begin() + std::min(i, j));
    live.push_back(kept);
  }
  return cost;
}

// Minimum reference flops over every linear pairwise path (n <= 6: at most 2700 paths).
double brute_force_min_flops(const Network& net) {
  const int n = static_cast<int>(net.expr.inputs.size());
  double best = INFINITY;
  Steps steps;
  std::function<void(int)> walk = [&](int live) {
    if (live == 1) {
      best = std::min(best, reference_cost(net, steps).flops);
      return;
    }
    for (int i = 0; i < live; ++i) {
      for (int j = i + 1; j < live; ++j) {
        steps.emplace_back(i, j);
        walk(live - 1);
        steps.pop_back();
      }
    }
  };
  walk(n);
  return best;
}

// A random network: operands of rank 0-4 over a small label pool (repeats within an operand
// allowed), an output made of a random subset of the used labels, extents min_size..5.
Network random_network(std::mt19937& rng, int operands, int pool, int min_size = 1) {
  Network net;
  std::uniform_int_distribution<int> label(0, pool - 1), rank(0, 4), extent(min_size, 5),
      coin(0, 3);
  std::vector<int> dense(static_cast<std::size_t>(pool), -1);
  std::vector<std::vector<int>> raw;
  for (int k = 0; k < operands; ++k) {
    std::vector<int> in;
    const int r = rank(rng);
    for (int a = 0; a < r; ++a) in.push_back(label(rng));
    raw.push_back(in);
  }
  // Dense ids by first appearance, as the parser produces them.
  for (const auto& in : raw) {
    std::vector<Label> labels;
    for (int l : in) {
      if (dense[static_cast<std::size_t>(l)] < 0) {
        dense[static_cast<std::size_t>(l)] = static_cast<int>(net.sizes.size());
        net.sizes.push_back(extent(rng));
      }
      labels.push_back(dense[static_cast<std::size_t>(l)]);
    }
    net.expr.inputs.push_back(labels);
  }
  for (std::size_t l = 0; l < net.sizes.size(); ++l) {
    if (coin(rng) == 0) net.expr.output.push_back(static_cast<Label>(l));
  }
  std::shuffle(net.expr.output.begin(), net.expr.output.end(), rng);
  return net;
}

EinsumPath plan(const Network& net, PathStrategy strategy, Steps explicit_path = {}) {
  EinsumOptions options;
  options.strategy = strategy;
  options.path = std::move(explicit_path);
  return plan_path(net.expr, net.sizes, options);
}

void expect_valid_and_costed(const Network& net, const EinsumPath& path) {
  const std::size_t n = net.expr.inputs.size();
  ASSERT_EQ(path.steps.size(), n > 0 ? n - 1 : 0);
  std::size_t live = n;
  for (const auto& [i, j] : path.steps) {
    ASSERT_TRUE(i >= 0 && j >= 0 && i != j && static_cast<std::size_t>(std::max(i, j)) < live);
    --live;
  }
  if (n >= 2) {
    const ReferenceCost ref = reference_cost(net, path.steps);
    EXPECT_DOUBLE_EQ(path.flops, ref.flops);
    EXPECT_DOUBLE_EQ(path.largest_intermediate, ref.largest);
    ASSERT_EQ(path.details.size(), path.steps.size());
  }
}

Network from_subscripts(std::string_view subscripts, std::vector<Shape> shapes) {
  std::vector<std::int64_t> ranks;
  for (const auto& s : shapes) ranks.push_back(static_cast<std::int64_t>(s.size()));
  Network net;
  net.expr = parse_subscripts(subscripts, ranks);
  net.sizes = label_sizes(net.expr, shapes);
  return net;
}

// --- Optimal ---------------------------------------------------------------------------

TEST(EinsumPath, OptimalMatchesBruteForceOnRandomNetworks) {
  std::mt19937 rng(20261130);
  int checked = 0;
  for (int trial = 0; trial < 80; ++trial) {
    const int operands = 2 + trial % 5;  // 2..6
    const Network net = random_network(rng, operands, 3 + trial % 6);
    const EinsumPath path = plan(net, PathStrategy::Optimal);
    SCOPED_TRACE(path.to_string());
    expect_valid_and_costed(net, path);
    const double best = brute_force_min_flops(net);
    EXPECT_NEAR(path.flops, best, 1e-9 * best) << "trial " << trial;
    EXPECT_EQ(path.method, "optimal");
    ++checked;
  }
  EXPECT_EQ(checked, 80);
}

TEST(EinsumPath, OptimalHandlesMoreThan64Labels) {
  // Five operands with 20 private labels each (ids 0..99), then a ring of shared labels
  // (ids 100..104) and chords between neighbours' neighbours: the labels that matter live in
  // the second word of the label sets.
  Network net;
  net.expr.inputs.resize(5);
  Label next = 0;
  for (int k = 0; k < 5; ++k)
    for (int p = 0; p < 20; ++p) net.expr.inputs[static_cast<std::size_t>(k)].push_back(next++);
  for (int k = 0; k < 5; ++k) {
    net.expr.inputs[static_cast<std::size_t>(k)].push_back(next);
    net.expr.inputs[static_cast<std::size_t>((k + 1) % 5)].push_back(next++);
  }
  for (int k = 0; k < 2; ++k) {
    net.expr.inputs[static_cast<std::size_t>(k)].push_back(next);
    net.expr.inputs[static_cast<std::size_t>(k + 2)].push_back(next++);
  }
  net.expr.output = {0, 101};  // one private label and one ring label survive
  std::mt19937 rng(7);
  std::uniform_int_distribution<int> extent(1, 3), bond(2, 6);
  for (Label l = 0; l < next; ++l) net.sizes.push_back(l < 100 ? extent(rng) : bond(rng));
  const EinsumPath path = plan(net, PathStrategy::Optimal);
  expect_valid_and_costed(net, path);
  EXPECT_NEAR(path.flops, brute_force_min_flops(net), 1e-9 * path.flops);
}

TEST(EinsumPath, OptimalOnFewLabelsSpreadOverManyWordsMatchesBruteForce) {
  // The parts of a large network the DP sees hold a few of its many labels (ids up to
  // hundreds): it renumbers them into one word. The same random networks with their label ids
  // spread 40 apart (up to five words; the unused ids have extent 1 and no holder) must plan to
  // the brute-force optimum, as the dense ones do.
  std::mt19937 rng(20261204);
  for (int trial = 0; trial < 40; ++trial) {
    const Network dense = random_network(rng, 2 + trial % 5, 3 + trial % 6);
    Network spread;
    spread.expr = dense.expr;
    auto widen = [](Label l) { return static_cast<Label>(40 * l + 3); };
    for (auto& in : spread.expr.inputs) std::transform(in.begin(), in.end(), in.begin(), widen);
    std::transform(spread.expr.output.begin(), spread.expr.output.end(), spread.expr.output.begin(),
                   widen);
    spread.sizes.assign(40 * dense.sizes.size() + 3, 1);
    for (std::size_t l = 0; l < dense.sizes.size(); ++l)
      spread.sizes[static_cast<std::size_t>(widen(static_cast<Label>(l)))] = dense.sizes[l];
    const EinsumPath path = plan(spread, PathStrategy::Optimal);
    SCOPED_TRACE(path.to_string());
    expect_valid_and_costed(spread, path);
    const double best = brute_force_min_flops(dense);
    EXPECT_NEAR(path.flops, best, 1e-9 * best) << "trial " << trial;
  }
}

TEST(EinsumPath, CostsBeyondTheDoubleRangeStillGiveValidPaths) {
  // A ring of tensors joined by 15 labels of extent 2^40 each: every tensor holds 2^1200
  // elements, beyond the double range, so every cost the planners compare is inf (or NaN). The
  // exact DP took no split then and its tree walk recursed until the stack overflowed (found on
  // a 3000-tensor bond-2 random regular graph, whose subtrees auto reconfigures exactly). Each
  // strategy must still return a valid path; its cost is inf.
  for (const int operands : {6, 14, 40}) {
    Network net;
    net.expr.inputs.resize(static_cast<std::size_t>(operands));
    Label next = 0;
    for (int k = 0; k < operands; ++k)
      for (int b = 0; b < 15; ++b, ++next) {
        net.expr.inputs[static_cast<std::size_t>(k)].push_back(next);
        net.expr.inputs[static_cast<std::size_t>((k + 1) % operands)].push_back(next);
      }
    net.sizes.assign(static_cast<std::size_t>(next), std::int64_t{1} << 40);
    for (const PathStrategy strategy :
         {PathStrategy::Optimal, PathStrategy::Auto, PathStrategy::Greedy}) {
      SCOPED_TRACE(testing::Message()
                   << operands << " operands, strategy " << static_cast<int>(strategy));
      const EinsumPath path = plan(net, strategy);
      ASSERT_EQ(path.steps.size(), static_cast<std::size_t>(operands - 1));
      std::size_t live = static_cast<std::size_t>(operands);
      for (const auto& [i, j] : path.steps) {
        ASSERT_TRUE(i >= 0 && j >= 0 && i != j && static_cast<std::size_t>(std::max(i, j)) < live);
        --live;
      }
      EXPECT_TRUE(std::isinf(path.flops)) << path.flops;
    }
  }
}

TEST(EinsumPath, OptimalKeepsAFiniteSplitBesideOverflowingOnes) {
  // Operand 0 keeps `big` output labels of extent 2^e; operands 1 and 2 share `shared` other
  // labels. Contracting 1 and 2 first costs a finite amount; any order that touches operand 0
  // first overflows (inf, or NaN as 0 * inf in the DP's write term). The DP must still find the
  // finite order, as greedy does. (Found by review: a NaN first split blocked every later one;
  // and |0| |1| overflowed before the division by the shared labels.)
  struct Case {
    int big, shared, log2_extent;
  };
  for (const Case c : {Case{30, 25, 20}, Case{20, 20, 40}}) {
    Network net;
    net.expr.inputs.resize(3);
    Label next = 0;
    for (int i = 0; i < c.big; ++i) {
      net.expr.inputs[0].push_back(next);
      net.expr.output.push_back(next++);
    }
    for (int i = 0; i < c.shared; ++i) {
      net.expr.inputs[1].push_back(next);
      net.expr.inputs[2].push_back(next++);
    }
    net.sizes.assign(static_cast<std::size_t>(next), std::int64_t{1} << c.log2_extent);
    const EinsumPath greedy = plan(net, PathStrategy::Greedy);
    ASSERT_TRUE(std::isfinite(greedy.flops)) << greedy.flops;
    for (const PathStrategy strategy : {PathStrategy::Optimal, PathStrategy::Auto}) {
      const EinsumPath path = plan(net, strategy);
      SCOPED_TRACE(path.to_string());
      EXPECT_TRUE(std::isfinite(path.flops)) << path.flops;
      EXPECT_LE(path.flops, greedy.flops * (1 + 1e-12));
    }
  }
}

TEST(EinsumPath, PrivateLabelsAreSummedBeforeTheirFirstStep) {
  // x only in operand 0: it is summed first (2 * 2*3*10), then ij,jk->ik (2 * 2*3*4).
  const Network net = from_subscripts("ijx,jk->ik", {{2, 3, 10}, {3, 4}});
  const EinsumPath path = plan(net, PathStrategy::Auto);
  expect_valid_and_costed(net, path);
  EXPECT_DOUBLE_EQ(path.flops, 2 * 60.0 + 2 * 24.0);
  EXPECT_DOUBLE_EQ(path.largest_intermediate, 8);  // the result ik; the reduced ij has 6
  EXPECT_EQ(path.details.at(0).subscripts, "ijx,jk->ik");
}

TEST(EinsumPath, TextbookMatrixChainOptimum) {
  // CLRS 15.2: dimensions 30x35, 35x15, 15x5, 5x10, 10x20, 20x25 need 15125 scalar
  // multiplications at best, ((A1(A2A3))((A4A5)A6)); each step contracts one index, so
  // opt_einsum's count doubles it.
  const Network net = from_subscripts("ab,bc,cd,de,ef,fg->ag",
                                      {{30, 35}, {35, 15}, {15, 5}, {5, 10}, {10, 20}, {20, 25}});
  const EinsumPath path = plan(net, PathStrategy::Optimal);
  expect_valid_and_costed(net, path);
  EXPECT_DOUBLE_EQ(path.flops, 2 * 15125.0);
  // Three-matrix chain 10x30, 30x5, 5x60: (AB)C = 1500 + 3000 multiplications.
  const Network chain = from_subscripts("ij,jk,kl->il", {{10, 30}, {30, 5}, {5, 60}});
  const EinsumPath short_path = plan(chain, PathStrategy::Optimal);
  EXPECT_EQ(short_path.steps, (Steps{{0, 1}, {0, 1}}));
  EXPECT_DOUBLE_EQ(short_path.flops, 2 * 4500.0);
  EXPECT_DOUBLE_EQ(short_path.largest_intermediate, 10 * 60);
}

TEST(EinsumPath, OptimalFallsBackToGreedyBeyondItsOperandLimit) {
  std::string subscripts;
  std::vector<Shape> shapes;
  for (int k = 0; k < 17; ++k) {  // a 17-matrix chain over letters a..r
    subscripts += std::string(k ? "," : "") + char('a' + k) + char('a' + k + 1);
    shapes.push_back({2 + k % 3, 2 + (k + 1) % 3});
  }
  subscripts += "->ar";
  const Network net = from_subscripts(subscripts, shapes);
  const EinsumPath path = plan(net, PathStrategy::Optimal);
  expect_valid_and_costed(net, path);
  EXPECT_EQ(path.method, "greedy + subtree refinement (optimal is limited to 16 operands, got 17)");
  EXPECT_LE(path.flops, plan(net, PathStrategy::Greedy).flops);
}

// --- Greedy and auto -------------------------------------------------------------------

TEST(EinsumPath, GreedyIsValidAndNeverBeatsOptimal) {
  std::mt19937 rng(42);
  for (int trial = 0; trial < 60; ++trial) {
    const Network net = random_network(rng, 2 + trial % 9, 4 + trial % 7);
    const EinsumPath greedy = plan(net, PathStrategy::Greedy);
    SCOPED_TRACE(greedy.to_string());
    expect_valid_and_costed(net, greedy);
    EXPECT_EQ(greedy.method, "greedy");
    const EinsumPath optimal = plan(net, PathStrategy::Optimal);
    EXPECT_LE(optimal.flops, greedy.flops * (1 + 1e-12)) << "trial " << trial;
  }
}

TEST(EinsumPath, GreedyContractsSharedLabelsBeforeOuterProducts) {
  // i-j-k chain plus a disconnected vector m: greedy must do both chain contractions
  // (which share labels) before the outer product with m.
  const Network net = from_subscripts("ij,m,jk,k->im", {{4, 5}, {3}, {5, 6}, {6}});
  const EinsumPath path = plan(net, PathStrategy::Greedy);
  expect_valid_and_costed(net, path);
  ASSERT_EQ(path.details.size(), 3u);
  EXPECT_NE(path.details[2].subscripts.find('m'), std::string::npos) << path.to_string();
  EXPECT_EQ(path.details[0].subscripts.find('m'), std::string::npos) << path.to_string();
  EXPECT_EQ(path.details[1].subscripts.find('m'), std::string::npos) << path.to_string();
}

TEST(EinsumPath, AutoIsNoWorseThanGreedy) {
  std::mt19937 rng(99);
  for (int trial = 0; trial < 40; ++trial) {
    const Network net = random_network(rng, 2 + trial % 14, 5 + trial % 8);
    const EinsumPath autop = plan(net, PathStrategy::Auto);
    expect_valid_and_costed(net, autop);
    EXPECT_LE(autop.flops, plan(net, PathStrategy::Greedy).flops * (1 + 1e-12))
        << "trial " << trial;
  }
}

TEST(EinsumPath, AutoRefinementOnLargeNetworksIsValidAndNoWorseThanGreedy) {
  std::mt19937 rng(1234);
  int improved = 0;
  for (int trial = 0; trial < 12; ++trial) {
    const Network net = random_network(rng, 11 + trial * 3, 10 + trial * 2);  // 11..44 operands
    const EinsumPath autop = plan(net, PathStrategy::Auto);
    const EinsumPath greedy = plan(net, PathStrategy::Greedy);
    expect_valid_and_costed(net, autop);
    // Auto refines greedy, then searches with hyper as the estimated cost warrants (always,
    // with at least one round of 16 trials, from 40 operands) and keeps the cheaper path.
    const bool hyper = autop.method.rfind("auto: hyper, ", 0) == 0;
    EXPECT_TRUE(hyper || autop.method.rfind("auto: greedy + subtree refinement", 0) == 0)
        << autop.method;
    if (11 + trial * 3 >= 40) {
      EXPECT_GE(autop.planning_trials, 16) << autop.method;
    }
    EXPECT_LE(autop.flops, greedy.flops * (1 + 1e-12)) << "trial " << trial;
    improved += autop.flops < greedy.flops;
  }
  std::printf("[ info   ] subtree refinement beat greedy on %d of 12 random networks\n", improved);
}

TEST(EinsumPath, RefinementFindsTheOptimumOfASmallChainGreedyGetsWrong) {
  // An 11-matrix chain (beyond auto's exact limit of 10) with the CLRS-style extents that
  // make greedy's local choices costly; refinement must reach the chain's true optimum,
  // which the O(n^3) matrix-chain recurrence gives independently.
  const std::vector<std::int64_t> dims{30, 35, 15, 5, 10, 20, 25, 40, 3, 50, 7, 60};
  std::string subscripts;
  std::vector<Shape> shapes;
  for (std::size_t k = 0; k + 1 < dims.size(); ++k) {
    subscripts += std::string(k ? "," : "") + char('a' + k) + char('a' + k + 1);
    shapes.push_back({dims[k], dims[k + 1]});
  }
  subscripts += std::string("->a") + char('a' + dims.size() - 1);
  const Network net = from_subscripts(subscripts, shapes);
  const std::size_t m = dims.size() - 1;
  std::vector<std::vector<double>> best(m, std::vector<double>(m, 0));
  for (std::size_t len = 2; len <= m; ++len) {
    for (std::size_t i = 0; i + len <= m; ++i) {
      const std::size_t j = i + len - 1;
      best[i][j] = INFINITY;
      for (std::size_t k = i; k < j; ++k) {
        best[i][j] =
            std::min(best[i][j], best[i][k] + best[k + 1][j] +
                                     static_cast<double>(dims[i] * dims[k + 1] * dims[j + 1]));
      }
    }
  }
  const EinsumPath autop = plan(net, PathStrategy::Auto);
  expect_valid_and_costed(net, autop);
  EXPECT_DOUBLE_EQ(autop.flops, 2 * best[0][m - 1]) << autop.to_string();
}

TEST(EinsumPath, ZeroExtentsGiveValidPaths) {
  std::mt19937 rng(5);
  for (int trial = 0; trial < 20; ++trial) {
    const Network net = random_network(rng, 2 + trial % 5, 4, /*min_size=*/0);
    for (auto strategy : {PathStrategy::Auto, PathStrategy::Greedy, PathStrategy::Optimal}) {
      const EinsumPath path = plan(net, strategy);
      expect_valid_and_costed(net, path);
      EXPECT_TRUE(std::isfinite(path.flops));
    }
  }
}

TEST(EinsumPath, SingleOperandHasNoSteps) {
  const Network net = from_subscripts("iij->j", {{3, 3, 4}});
  for (auto strategy :
       {PathStrategy::Auto, PathStrategy::Greedy, PathStrategy::Optimal, PathStrategy::Explicit}) {
    const EinsumPath path = plan(net, strategy);
    EXPECT_TRUE(path.steps.empty());
    EXPECT_DOUBLE_EQ(path.flops, 3 * 4 * 2);  // one loop over {i, j}, summing i away
    EXPECT_DOUBLE_EQ(path.largest_intermediate, 4);
  }
}

// --- Explicit paths --------------------------------------------------------------------

TEST(EinsumPath, ExplicitPathIsFollowedAndCosted) {
  const Network net = from_subscripts("ij,jk,kl->il", {{10, 30}, {30, 5}, {5, 60}});
  const EinsumPath path = plan(net, PathStrategy::Explicit, {{1, 2}, {0, 1}});  // A(BC)
  EXPECT_EQ(path.steps, (Steps{{1, 2}, {0, 1}}));
  EXPECT_EQ(path.method, "explicit");
  expect_valid_and_costed(net, path);
  EXPECT_DOUBLE_EQ(path.flops, 2 * (30.0 * 5 * 60 + 10.0 * 30 * 60));
  EXPECT_EQ(path.details[0].subscripts, "jk,kl->jl");
  EXPECT_EQ(path.details[0].remaining, "ij,jl->il");
  EXPECT_EQ(path.details[1].subscripts, "ij,jl->il");
}

TEST(EinsumPath, ExplicitPathErrorsNameTheStep) {
  const Network net = from_subscripts("ij,jk,kl->il", {{2, 3}, {3, 4}, {4, 5}});
  auto message = [&](Steps steps) {
    try {
      plan(net, PathStrategy::Explicit, std::move(steps));
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::Validation);
      return e.message();
    }
    ADD_FAILURE() << "no error";
    return std::string();
  };
  EXPECT_NE(message({{0, 1}}).find("the path has 1 step(s) but 3 operand(s) need exactly 2"),
            std::string::npos);
  EXPECT_NE(message({{0, 1}, {0, 1}, {0, 1}}).find("has 3 step(s)"), std::string::npos);
  EXPECT_NE(message({}).find("has 0 step(s)"), std::string::npos);
  EXPECT_NE(message({{0, 1}, {0, 2}}).find("path step 1 (0, 2) names an operand outside 0..1"),
            std::string::npos);
  EXPECT_NE(message({{-1, 1}, {0, 1}}).find("path step 0 (-1, 1)"), std::string::npos);
  EXPECT_NE(message({{2, 2}, {0, 1}}).find("path step 0 (2, 2) contracts an operand with itself"),
            std::string::npos);
}

// --- Public einsum_path and the report ---------------------------------------------------

TEST(EinsumPathPublic, ReportsLikeNumPy) {
  // NumPy's einsum_path documentation example, all extents 10. Reference figures from
  // NumPy 2.4 / opt_einsum 3.4 (optimize='optimal'): naive 5.000e+08 (10^8 loops times
  // op factor 4 + 1), optimized 8.000e+05 (four GEMM-like steps of 10^5, doubled), largest
  // intermediate 1.000e+04.
  const EinsumPath path =
      einsum_path("ea,fb,abcd,gc,hd->efgh",
                  std::vector<Shape>{{10, 10}, {10, 10}, {10, 10, 10, 10}, {10, 10}, {10, 10}});
  EXPECT_EQ(path.expression, "ea,fb,abcd,gc,hd->efgh");
  EXPECT_EQ(path.naive_scaling, 8);
  EXPECT_DOUBLE_EQ(path.naive_flops, 1e8 * 5);  // 10^8 * (5 - 1 + 1)
  EXPECT_DOUBLE_EQ(path.flops, 4 * 2 * 1e5);
  EXPECT_DOUBLE_EQ(path.largest_intermediate, 1e4);
  const std::string report = path.to_string();
  EXPECT_NE(report.find("Complete contraction:  ea,fb,abcd,gc,hd->efgh"), std::string::npos)
      << report;
  EXPECT_NE(report.find("Optimized FLOP count:  8.000e+05"), std::string::npos) << report;
  EXPECT_NE(report.find("Theoretical speedup:  625.000"), std::string::npos) << report;
}

TEST(EinsumPathPublic, EllipsisLabelsGetLettersInTheReport) {
  const EinsumPath path =
      einsum_path("...ij,...jk->...ik", std::vector<Shape>{{7, 2, 3}, {7, 3, 4}});
  EXPECT_EQ(path.expression, "aij,ajk->aik");
  EXPECT_DOUBLE_EQ(path.flops, 2 * 7 * 2 * 3 * 4);
}

TEST(EinsumPathPublic, ValidationErrorsPropagate) {
  EXPECT_THROW(einsum_path("ij,jk->ik", std::vector<Shape>{{2, 3}, {4, 5}}), Error);
  EXPECT_THROW(einsum_path("ij,jk->ik", std::vector<Shape>{{2, 3}}), Error);
}

// A path with another strategy would be ignored: it is refused before planning.
TEST(EinsumPathPublic, APathWithoutTheExplicitStrategyIsRefused) {
  const std::vector<Shape> shapes{{2, 3}, {3, 4}, {4, 5}};
  EinsumOptions options;
  options.path = {{0, 1}, {0, 1}};
  options.hyper_trials = 4;
  for (PathStrategy s :
       {PathStrategy::Auto, PathStrategy::Greedy, PathStrategy::Optimal, PathStrategy::Hyper}) {
    options.strategy = s;
    try {
      (void)einsum_path("ij,jk,kl->il", shapes, options);
      ADD_FAILURE() << "strategy " << static_cast<int>(s) << " accepted a path";
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::Validation) << e.what();
    }
  }
  options.strategy = PathStrategy::Explicit;
  EXPECT_EQ(einsum_path("ij,jk,kl->il", shapes, options).steps, options.path);
}

// --- Planning time: measured and printed, never asserted -----------------------------------

TEST(EinsumPathTiming, PlanningTimeIsReported) {
  std::mt19937 rng(3);
  for (int operands : {5, 10, 20}) {
    for (auto strategy : {PathStrategy::Auto, PathStrategy::Greedy}) {
      // A ring of matrices with a dangling leg each (an MPS-like closed chain).
      Network net;
      for (int k = 0; k < operands; ++k) {
        net.expr.inputs.push_back({static_cast<Label>(k), static_cast<Label>((k + 1) % operands),
                                   static_cast<Label>(operands + k)});
      }
      for (int l = 0; l < 2 * operands; ++l) net.sizes.push_back(l < operands ? 8 : 2);
      net.expr.output = {static_cast<Label>(operands)};
      const int reps = 20;
      const auto start = std::chrono::steady_clock::now();
      double flops = 0;
      for (int r = 0; r < reps; ++r) flops += plan(net, strategy).flops;
      const double us =
          std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start)
              .count() /
          reps;
      std::printf("[ timing ] %2d operands, %s: %.1f us per plan (flops %.3e)\n", operands,
                  strategy == PathStrategy::Auto ? "auto  " : "greedy", us, flops / reps);
      EXPECT_GT(flops, 0);
    }
  }
}

}  // namespace
}  // namespace tenferro::einsum_internal
