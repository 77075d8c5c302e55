// The multilevel hypergraph bisection behind the recursive-bisection contraction trees: the
// cut it reports is the cut of the split it returns, sides stay within the balance band, the
// same random state gives the same split, and it finds the known optimum of graphs whose best
// balanced cut is known (rings, grids, planted communities) and of small random hypergraphs
// solved by brute force.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "ops/einsum/hypergraph_bisection.hpp"

namespace tenferro::einsum_internal {
namespace {

Hypergraph unit_nodes(int n) {
  Hypergraph g;
  g.node_weight.assign(static_cast<std::size_t>(n), 1);
  return g;
}

Hypergraph ring(int n) {
  Hypergraph g = unit_nodes(n);
  for (int v = 0; v < n; ++v) g.add_net(1, {v, (v + 1) % n});
  return g;
}

Hypergraph grid(int rows, int cols) {
  Hypergraph g = unit_nodes(rows * cols);
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c) {
      if (c + 1 < cols) g.add_net(1, {r * cols + c, r * cols + c + 1});
      if (r + 1 < rows) g.add_net(1, {r * cols + c, (r + 1) * cols + c});
    }
  return g;
}

long side0_weight(const Hypergraph& g, const std::vector<signed char>& side) {
  long w = 0;
  for (int v = 0; v < g.num_nodes(); ++v)
    if (side[static_cast<std::size_t>(v)] == 0) w += g.node_weight[static_cast<std::size_t>(v)];
  return w;
}

BisectionParams multilevel(double imbalance, int coarsest = 12) {
  BisectionParams p;
  p.imbalance = imbalance;
  p.coarsest = coarsest;
  return p;
}

TEST(HypergraphBisection, CutWeightCountsNetsWithPinsOnBothSides) {
  Hypergraph g = unit_nodes(4);
  g.add_net(1, {0, 1});
  g.add_net(2, {1, 2, 3});
  g.add_net(4, {0, 3});
  EXPECT_EQ(cut_weight(g, {0, 0, 1, 1}), 6);
  EXPECT_EQ(cut_weight(g, {0, 1, 1, 1}), 5);
  EXPECT_EQ(cut_weight(g, {0, 0, 0, 0}), 0);
}

TEST(HypergraphBisection, ReportsTheCutOfItsSplitAndIsDeterministic) {
  std::mt19937 gen(7);
  Hypergraph g = unit_nodes(300);
  for (int e = 0; e < 500; ++e) {
    std::vector<int> pins;
    const int size = 2 + static_cast<int>(gen() % 4);
    while (static_cast<int>(pins.size()) < size) {
      const int v = static_cast<int>(gen() % 300);
      if (std::find(pins.begin(), pins.end(), v) == pins.end()) pins.push_back(v);
    }
    g.add_net(1 + static_cast<double>(gen() % 3), pins);
  }
  std::uint64_t rng1 = 42, rng2 = 42;
  std::vector<signed char> a, b;
  const double cut = bisect_hypergraph(g, multilevel(0.1), rng1, a);
  EXPECT_EQ(cut, cut_weight(g, a));
  EXPECT_EQ(bisect_hypergraph(g, multilevel(0.1), rng2, b), cut);
  EXPECT_EQ(a, b);
  EXPECT_EQ(rng1, rng2);
  EXPECT_NE(rng1, 42u) << "the draws advance the caller's state";
}

TEST(HypergraphBisection, UnitWeightSidesStayWithinTheBand) {
  const Hypergraph g = grid(9, 13);  // 117 nodes: an odd total
  for (double imbalance : {0.0, 0.05, 0.3, 0.8}) {
    for (std::uint64_t seed = 0; seed < 4; ++seed) {
      std::uint64_t rng = seed;
      std::vector<signed char> side;
      bisect_hypergraph(g, multilevel(imbalance), rng, side);
      const double slack = imbalance * 117 / 2;
      const long w0 = side0_weight(g, side);
      EXPECT_GE(w0, std::max(1L, static_cast<long>(std::floor(58.5 - slack)))) << imbalance;
      EXPECT_LE(w0, std::min(116L, static_cast<long>(std::ceil(58.5 + slack)))) << imbalance;
    }
  }
}

TEST(HypergraphBisection, WeightedNodesStayNearTheBand) {
  std::mt19937 gen(3);
  Hypergraph g = grid(12, 12);
  long total = 0;
  for (int& w : g.node_weight) total += (w = 1 + static_cast<int>(gen() % 5));
  for (std::uint64_t seed = 0; seed < 4; ++seed) {
    std::uint64_t rng = seed;
    std::vector<signed char> side;
    bisect_hypergraph(g, multilevel(0.1), rng, side);
    // Within the band, give or take one node: heavy nodes cannot always land exactly.
    EXPECT_LE(std::abs(2.0 * side0_weight(g, side) - static_cast<double>(total)),
              0.1 * static_cast<double>(total) + 2 * 5);
  }
}

TEST(HypergraphBisection, RingsSplitWithTwoCuts) {
  for (int n : {10, 64, 500}) {
    std::uint64_t rng = static_cast<std::uint64_t>(n);
    std::vector<signed char> side;
    EXPECT_EQ(bisect_hypergraph(ring(n), multilevel(0.02), rng, side), 2) << n;
  }
}

// A 10 x 40 grid's best balanced cut crosses the short side: 10 nets.
TEST(HypergraphBisection, GridsSplitAcrossTheirShortSide) {
  const Hypergraph g = grid(10, 40);
  int optimal = 0;
  for (std::uint64_t seed = 0; seed < 8; ++seed) {
    std::uint64_t rng = seed;
    std::vector<signed char> side;
    const double cut = bisect_hypergraph(g, multilevel(0.02), rng, side);
    EXPECT_LE(cut, 14) << "seed " << seed;
    optimal += cut == 10;
  }
  EXPECT_GE(optimal, 6);
}

// Two communities of 80 nodes, each node tied to 5 random others of its own, and 4 ties
// between them: the planted split (cut 4) is what a good partitioner returns.
TEST(HypergraphBisection, FindsPlantedCommunities) {
  std::mt19937 gen(11);
  const int half = 80;
  int found = 0;
  for (int graph = 0; graph < 5; ++graph) {
    Hypergraph g = unit_nodes(2 * half);
    std::vector<int> relabel(2 * half);  // hide the communities from the node order
    for (int v = 0; v < 2 * half; ++v) relabel[static_cast<std::size_t>(v)] = v;
    std::shuffle(relabel.begin(), relabel.end(), gen);
    auto id = [&](int v) { return relabel[static_cast<std::size_t>(v)]; };
    for (int c = 0; c < 2; ++c)
      for (int v = 0; v < half; ++v)
        for (int k = 0; k < 5; ++k) {
          const int u = static_cast<int>(gen() % (half - 1));
          g.add_net(1, {id(c * half + v), id(c * half + (u >= v ? u + 1 : u))});
        }
    for (int k = 0; k < 4; ++k)
      g.add_net(1, {id(static_cast<int>(gen() % half)), id(half + static_cast<int>(gen() % half))});
    std::uint64_t rng = static_cast<std::uint64_t>(graph);
    std::vector<signed char> side;
    const double cut = bisect_hypergraph(g, multilevel(0.02), rng, side);
    EXPECT_LE(cut, 4) << "graph " << graph;
    found += cut <= 4;
  }
  EXPECT_EQ(found, 5);
}

// Small random hypergraphs, against the best balanced split by enumeration.
TEST(HypergraphBisection, MatchesBruteForceOnSmallHypergraphs) {
  std::mt19937 gen(5);
  const int n = 14;
  int exact = 0, graphs = 30;
  for (int t = 0; t < graphs; ++t) {
    Hypergraph g = unit_nodes(n);
    for (int e = 0; e < 24; ++e) {
      std::vector<int> pins;
      const int size = 2 + static_cast<int>(gen() % 3);
      while (static_cast<int>(pins.size()) < size) {
        const int v = static_cast<int>(gen() % n);
        if (std::find(pins.begin(), pins.end(), v) == pins.end()) pins.push_back(v);
      }
      g.add_net(1 + static_cast<double>(gen() % 4), pins);
    }
    double best = -1;
    std::vector<signed char> side(static_cast<std::size_t>(n));
    for (unsigned mask = 0; mask < (1u << n); ++mask) {
      if (__builtin_popcount(mask) != n / 2) continue;  // imbalance 0: exactly half
      for (int v = 0; v < n; ++v) side[static_cast<std::size_t>(v)] = ((mask >> v) & 1) ? 0 : 1;
      const double cut = cut_weight(g, side);
      if (best < 0 || cut < best) best = cut;
    }
    std::uint64_t rng = static_cast<std::uint64_t>(t);
    const double cut = bisect_hypergraph(g, multilevel(0.0, 4), rng, side);
    EXPECT_EQ(side0_weight(g, side), n / 2);
    EXPECT_GE(cut, best);
    EXPECT_LE(cut, 1.5 * best + 1) << "graph " << t;
    exact += cut == best;
  }
  EXPECT_GE(exact, 24) << "of " << graphs;
}

}  // namespace
}  // namespace tenferro::einsum_internal
