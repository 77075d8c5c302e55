// Planning time of large networks: 100, 500 and 1000 operands (MPS chains, PEPS-like grids,
// random networks of average degree 3, and networks over the 52 letters the command line
// allows, where many operands share each label), every strategy, median of a few runs each.
//
// The bound this program states: every strategy plans a 1000-operand network in under 1 s on
// one core (greedy stays O(n^2 log n) in the worst case: a heap of candidate pairs over operands
// that share a label, lazily invalidated; optimal and refinement are bounded by their operand
// limit and frontier). It exits 1 when a 1000-operand plan takes longer, so a run on a quiet
// machine checks the bound; it is not a test (timings on a loaded machine say little).
//   build/bench/large_planning_bench [--runs N] [--only NAME_PREFIX]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "benchmark_networks.hpp"
#include "ops/einsum/expression.hpp"
#include "ops/einsum/path.hpp"
#include "planning_input.hpp"

namespace {

using tenferro::PathStrategy;
using tenferro::bench::BenchNetwork;

constexpr double kBoundSeconds = 1.0;
constexpr int kBoundOperands = 1000;

struct Timing {
  double median_s = 0;
  double flops = 0;
  std::string method;
};

Timing time_plan(const BenchNetwork& net, PathStrategy strategy, int runs) {
  const auto [expr, sizes] = tenferro::bench::planning_input(net);
  tenferro::EinsumOptions options;
  options.strategy = strategy;
  std::vector<double> seconds;
  Timing t;
  for (int r = 0; r < runs; ++r) {
    const auto start = std::chrono::steady_clock::now();
    const auto path = tenferro::einsum_internal::plan_path(expr, sizes, options);
    seconds.push_back(
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    t.flops = path.flops;
    t.method = path.method;
  }
  std::sort(seconds.begin(), seconds.end());
  t.median_s = seconds[seconds.size() / 2];
  return t;
}

// What the command line can express: letters only, so at most 52 labels shared by many
// operands (hyperedges): each operand holds 3 distinct random letters of extent 2..4, and the
// output is empty. The greedy search used to re-cost every pair of every touched tensor
// after each step here, O(n^4) in all.
BenchNetwork letter_network(int operands, unsigned seed) {
  BenchNetwork net;
  net.name = "letters" + std::to_string(operands);
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> extent(2, 4), letter(0, 51);
  for (int l = 0; l < 52; ++l) net.extents[l] = extent(rng);
  for (int k = 0; k < operands; ++k) {
    std::vector<int> in;
    while (in.size() < 3) {
      const int l = letter(rng);
      if (std::find(in.begin(), in.end(), l) == in.end()) in.push_back(l);
    }
    net.labels.inputs.push_back(in);
  }
  return net;
}

// The greedy search's worst case: every operand holds the same two summed labels ("ab,ab,...
// ->"), so every pair of operands is a candidate: n^2 / 2 pairs at the start, n per step.
BenchNetwork shared_pair_network(int operands) {
  BenchNetwork net;
  net.name = "allshare" + std::to_string(operands);
  net.extents[0] = 3;
  net.extents[1] = 2;
  net.labels.inputs.assign(static_cast<std::size_t>(operands), std::vector<int>{0, 1});
  return net;
}

const char* strategy_name(PathStrategy s) {
  switch (s) {
    case PathStrategy::Greedy:
      return "greedy";
    case PathStrategy::Optimal:
      return "optimal";
    case PathStrategy::Auto:
      return "auto";
    case PathStrategy::Explicit:
      return "explicit";
    case PathStrategy::Hyper:
      return "hyper";
  }
  return "?";
}

}  // namespace

int main(int argc, char** argv) {
  int runs = 3;
  std::string only;  // --only PREFIX: networks whose name starts with PREFIX
  for (int i = 1; i + 1 < argc; ++i) {
    if (std::strcmp(argv[i], "--runs") == 0) runs = std::max(1, std::atoi(argv[i + 1]));
    if (std::strcmp(argv[i], "--only") == 0) only = argv[i + 1];
  }
  std::vector<BenchNetwork> nets;
  for (int n : {100, 500, 1000}) {
    nets.push_back(tenferro::bench::mps_chain(n / 2, false, 8, 2));
    nets.push_back(tenferro::bench::random_network(n, 100u + static_cast<unsigned>(n)));
    nets.push_back(letter_network(n, 200u + static_cast<unsigned>(n)));
    nets.push_back(shared_pair_network(n));
  }
  nets.push_back(tenferro::bench::peps_grid(10, 10));
  nets.push_back(tenferro::bench::peps_grid(20, 25));
  nets.push_back(tenferro::bench::peps_grid(25, 40));

  bool within_bound = true;
  std::printf("%-12s %8s %-8s %12s %12s  %s\n", "network", "operands", "strategy", "median_ms",
              "flops", "method");
  for (const BenchNetwork& net : nets) {
    if (net.name.rfind(only, 0) != 0) continue;
    for (PathStrategy s : {PathStrategy::Greedy, PathStrategy::Auto, PathStrategy::Optimal}) {
      const Timing t = time_plan(net, s, runs);
      std::printf("%-12s %8d %-8s %12.2f %12.4g  %s\n", net.name.c_str(), net.operands(),
                  strategy_name(s), t.median_s * 1e3, t.flops, t.method.c_str());
      if (net.operands() >= kBoundOperands && t.median_s > kBoundSeconds) within_bound = false;
    }
  }
  std::printf("bound: every strategy plans %d operands in under %.0f s: %s\n", kBoundOperands,
              kBoundSeconds, within_bound ? "holds" : "VIOLATED");
  return within_bound ? 0 : 1;
}
