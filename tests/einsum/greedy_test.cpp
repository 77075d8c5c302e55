// The greedy contraction order against a direct transcription of its definition (an
// O(n^3) scan of every live pair per step, written with std::set), on random networks with
// ordinary and shared (hyperedge) labels: the fast search must find a path at most as costly.
// And 1000-operand networks (a chain, a random network, letter networks where every label is
// shared by dozens of operands) plan to a valid path that contracts everything; how fast is
// stated by bench/einsum/large_planning_bench, not asserted here.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>
#include <random>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "ops/einsum/expression.hpp"
#include "ops/einsum/path.hpp"
#include "ops/einsum/path_search.hpp"
#include "tenferro/einsum.hpp"

namespace tenferro::einsum_internal {
namespace {

using Steps = std::vector<std::pair<int, int>>;
using LabelSet = std::set<Label>;

struct Network {
  EinsumExpression expr;
  std::vector<std::int64_t> sizes;
};

// The greedy order by its definition (path_search.hpp): on the operands' label sets less
// their private labels, repeatedly contract the pair that shares a label not in the output and
// minimises size(result) - size(a) - size(b), ties to the smaller (larger id, smaller id); the
// result keeps the labels the output or another live tensor holds. Then outer products of
// the rest, smallest first. Sizes use extents clamped to >= 1, as the search does. Returns
// the linear path.
Steps reference_greedy(const Network& net) {
  const std::size_t n = net.expr.inputs.size();
  const LabelSet out(net.expr.output.begin(), net.expr.output.end());
  auto size = [&](const LabelSet& s) {
    double p = 1;
    for (Label l : s)
      p *= std::max<double>(1, static_cast<double>(net.sizes[static_cast<std::size_t>(l)]));
    return p;
  };
  std::map<int, LabelSet> live;  // SSA id -> labels
  for (std::size_t k = 0; k < n; ++k) {
    LabelSet kept;
    for (Label l : net.expr.inputs[k]) {
      bool elsewhere = out.count(l) > 0;
      for (std::size_t o = 0; o < n; ++o)
        if (o != k && std::count(net.expr.inputs[o].begin(), net.expr.inputs[o].end(), l))
          elsewhere = true;
      if (elsewhere || n == 1) kept.insert(l);
    }
    live[static_cast<int>(k)] = kept;
  }
  std::vector<int> order;  // SSA ids in the linear convention's operand order
  for (std::size_t k = 0; k < n; ++k) order.push_back(static_cast<int>(k));
  Steps steps;
  int next = static_cast<int>(n);
  auto contract = [&](int a, int b, const LabelSet& result) {
    const auto ia = static_cast<int>(std::find(order.begin(), order.end(), a) - order.begin());
    const auto ib = static_cast<int>(std::find(order.begin(), order.end(), b) - order.begin());
    steps.emplace_back(std::min(ia, ib), std::max(ia, ib));
    order.erase(order.begin() + std::max(ia, ib));
    order.erase(order.begin() + std::min(ia, ib));
    order.push_back(next);
    live.erase(a);
    live.erase(b);
    live[next++] = result;
  };
  while (true) {
    bool found = false;
    std::tuple<double, int, int> best;
    LabelSet best_result;
    for (const auto& [a, sa] : live)
      for (const auto& [b, sb] : live) {
        if (b <= a) continue;
        bool shares = false;
        for (Label l : sa) shares |= sb.count(l) > 0 && out.count(l) == 0;
        if (!shares) continue;
        LabelSet result;
        for (const LabelSet* side : {&sa, &sb})
          for (Label l : *side) {
            bool needed = out.count(l) > 0;
            for (const auto& [c, sc] : live) needed |= c != a && c != b && sc.count(l) > 0;
            if (needed) result.insert(l);
          }
        const std::tuple<double, int, int> key{size(result) - size(sa) - size(sb), b, a};
        if (!found || key < best) {
          found = true;
          best = key;
          best_result = result;
        }
      }
    if (!found) break;
    contract(std::get<2>(best), std::get<1>(best), best_result);
  }
  while (live.size() > 1) {
    std::vector<std::tuple<double, int>> by_size;
    for (const auto& [id, s] : live) by_size.emplace_back(size(s), id);
    std::sort(by_size.begin(), by_size.end());
    const int a = std::get<1>(by_size[0]), b = std::get<1>(by_size[1]);
    LabelSet merged = live[a];
    merged.insert(live[b].begin(), live[b].end());
    contract(a, b, merged);
  }
  return steps;
}

// Random operands of rank 0-4 over a pool of `pool` labels (repeats within an operand
// allowed), a random subset of the used labels as output, extents min_size..5. A small pool
// makes labels shared by many operands.
Network random_network(std::mt19937& rng, int operands, int pool, int min_size) {
  Network net;
  std::uniform_int_distribution<int> label(0, pool - 1), rank(0, 4), extent(min_size, 5),
      coin(0, 3);
  std::vector<int> dense(static_cast<std::size_t>(pool), -1);
  for (int k = 0; k < operands; ++k) {
    std::vector<Label> labels;
    const int r = rank(rng);
    for (int a = 0; a < r; ++a) {
      const int l = label(rng);
      if (dense[static_cast<std::size_t>(l)] < 0) {
        dense[static_cast<std::size_t>(l)] = static_cast<int>(net.sizes.size());
        net.sizes.push_back(extent(rng));
      }
      labels.push_back(dense[static_cast<std::size_t>(l)]);
    }
    net.expr.inputs.push_back(labels);
  }
  for (std::size_t l = 0; l < net.sizes.size(); ++l)
    if (coin(rng) == 0) net.expr.output.push_back(static_cast<Label>(l));
  return net;
}

EinsumPath plan(const Network& net, PathStrategy strategy, Steps explicit_path = {}) {
  EinsumOptions options;
  options.strategy = strategy;
  options.path = std::move(explicit_path);
  return plan_path(net.expr, net.sizes, options);
}

TEST(EinsumGreedy, NoCostlierThanTheDefinitionOnRandomNetworks) {
  std::mt19937 rng(2024);
  int same_path = 0, trials = 0;
  for (int operands : {2, 3, 5, 8, 12, 20, 40})
    for (int pool : {3, 6, 12, 30})
      for (int min_size : {0, 1, 2})
        for (int rep = 0; rep < 3; ++rep) {
          const Network net = random_network(rng, operands, pool, min_size);
          const EinsumPath fast = plan(net, PathStrategy::Greedy);
          const Steps want = reference_greedy(net);
          // Cost the reference's path with the same evaluator (checked against an independent
          // cost model in path_test.cpp).
          const EinsumPath ref = plan(net, PathStrategy::Explicit, want);
          SCOPED_TRACE(fast.expression);
          EXPECT_LE(fast.flops, ref.flops * (1 + 1e-12)) << "greedy costlier than its definition";
          ASSERT_EQ(fast.steps.size(), want.size());
          same_path += fast.steps == want;
          ++trials;
        }
  std::printf("[ info   ] fast greedy took the definition's path on %d of %d networks\n", same_path,
              trials);
}

// A label held by more than 32 operands is a hyperedge to the fast search: one representative
// pair (its two smallest holders) instead of all pairs (path_greedy.cpp). Where the holders
// share nothing else and each is larger than the label's extent, that pair is the definition's
// choice, ties included: the path must be the definition's exactly. Label 0 (extent 2) is in
// every operand; operand k also keeps an output label of extent 3..5 (so sizes differ), or
// nothing (the probe's "i,i,...,i->").
TEST(EinsumGreedy, OneLabelInEveryOperandTakesTheDefinitionsPath) {
  std::mt19937 rng(30);
  for (const bool open : {false, true}) {
    for (const int n : {33, 60, 120}) {
      Network net;
      net.sizes.push_back(open ? 2 : 1);
      for (int k = 0; k < n; ++k) {
        if (open) {
          net.expr.inputs.push_back({0, k + 1});
          net.expr.output.push_back(k + 1);
          net.sizes.push_back(std::uniform_int_distribution<std::int64_t>(3, 5)(rng));
        } else {
          net.expr.inputs.push_back({0});
        }
      }
      const EinsumPath fast = plan(net, PathStrategy::Greedy);
      EXPECT_EQ(fast.steps, reference_greedy(net)) << "n=" << n << " open=" << open;
    }
  }
}

void expect_contracts_everything(const Network& net, const EinsumPath& path) {
  const std::size_t n = net.expr.inputs.size();
  ASSERT_EQ(path.steps.size(), n - 1);
  std::size_t live = n;
  for (const auto& [i, j] : path.steps) {
    ASSERT_TRUE(i >= 0 && i < j && static_cast<std::size_t>(j) < live) << i << ", " << j;
    --live;
  }
  // The explicit evaluator re-validates every step and re-derives the same costs.
  const EinsumPath again = plan(net, PathStrategy::Explicit, path.steps);
  EXPECT_EQ(again.flops, path.flops);
  ASSERT_FALSE(path.details.empty());
  // Nothing is left but one term that is the output: "X->X".
  const std::string& rest = path.details.back().remaining;
  const std::size_t arrow = rest.find("->");
  ASSERT_NE(arrow, std::string::npos) << rest;
  EXPECT_EQ(rest.find(','), std::string::npos) << rest;
  EXPECT_EQ(rest.substr(0, arrow), rest.substr(arrow + 2)) << rest;
}

// 1000 operands: an open chain of matrices (i0 i1, i1 i2, ...), a random network of
// average degree 3 over 1500 labels, and letter networks (52 labels, each operand 3 of them,
// so each label is shared by about 60 operands).
TEST(EinsumGreedy, ThousandOperandNetworksPlanToValidPaths) {
  std::vector<Network> nets;
  {
    Network chain;
    for (int k = 0; k < 1000; ++k) chain.expr.inputs.push_back({k, k + 1});
    chain.sizes.assign(1001, 3);
    nets.push_back(chain);
  }
  std::mt19937 rng(99);
  {
    Network random;
    random.expr.inputs.resize(1000);
    std::uniform_int_distribution<int> any(0, 999), extent(2, 6);
    auto connect = [&](int a, int b) {
      const auto l = static_cast<Label>(random.sizes.size());
      random.sizes.push_back(extent(rng));
      random.expr.inputs[static_cast<std::size_t>(a)].push_back(l);
      random.expr.inputs[static_cast<std::size_t>(b)].push_back(l);
    };
    for (int k = 1; k < 1000; ++k) connect(std::uniform_int_distribution<int>(0, k - 1)(rng), k);
    for (int e = 0; e < 500; ++e) {
      const int a = any(rng), b = any(rng);
      if (a != b) connect(a, b);
    }
    nets.push_back(random);
  }
  for (int rep = 0; rep < 2; ++rep) {
    Network letters;
    std::uniform_int_distribution<int> letter(0, 51), extent(2, 4);
    for (int l = 0; l < 52; ++l) letters.sizes.push_back(extent(rng));
    for (int k = 0; k < 1000; ++k) {
      std::vector<Label> in;
      while (in.size() < 3) {
        const int l = letter(rng);
        if (std::find(in.begin(), in.end(), l) == in.end()) in.push_back(l);
      }
      letters.expr.inputs.push_back(in);
    }
    nets.push_back(letters);
  }
  for (const Network& net : nets) {
    for (PathStrategy s : {PathStrategy::Greedy, PathStrategy::Auto, PathStrategy::Optimal}) {
      const EinsumPath path = plan(net, s);
      SCOPED_TRACE(path.method);
      expect_contracts_everything(net, path);
    }
  }
}

// Subtree refinement's time guard: past its deadline it stops and still returns a valid path
// no costlier than the greedy one it started from.
TEST(EinsumGreedy, RefinementStopsAtItsDeadlineWithAValidPath) {
  std::mt19937 rng(5);
  const Network net = random_network(rng, 300, 200, 2);
  const PathProblem problem = make_path_problem(net.expr, net.sizes);
  const SsaPath greedy = greedy_path(problem);
  const double greedy_flops =
      evaluate_path(net.expr, problem, ssa_to_linear(greedy, problem.num_operands)).flops;
  for (bool expired : {true, false}) {
    SCOPED_TRACE(expired ? "deadline passed" : "no deadline");
    bool stopped_early = !expired;
    const auto deadline = expired ? std::chrono::steady_clock::now() - std::chrono::seconds(1)
                                  : std::chrono::steady_clock::time_point::max();
    const SsaPath refined = refine_path(problem, greedy, 6, 3, deadline, &stopped_early);
    EXPECT_EQ(stopped_early, expired);
    const EinsumPath path =
        evaluate_path(net.expr, problem, ssa_to_linear(refined, problem.num_operands));
    expect_contracts_everything(net, path);
    EXPECT_LE(path.flops, greedy_flops * (1 + 1e-12));
  }
}

}  // namespace
}  // namespace tenferro::einsum_internal
