// Recursive-bisection trees alone, for tuning the partitioner: plans one network read from
// stdin (plan_network's format) with N partition_path trials and prints the distribution of
// their FLOP counts (opt_einsum's model) and the time per trial, as one JSON line.
//   build/bench/partition_probe [--trials N] [--coarsest C] [--cutoff-min A] [--cutoff-max B]
//                               [--imbalance-min X] [--imbalance-max Y] [--starts S]
//                               [--seed N] < network.txt
// Trial i draws imbalance and cutoff uniformly in the given ranges from (seed, i).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

#include "ops/einsum/expression.hpp"
#include "ops/einsum/hypergraph_bisection.hpp"
#include "ops/einsum/path_search.hpp"
#include "planning_input.hpp"

namespace {

double uniform(std::uint64_t key, std::uint64_t counter) {
  std::uint64_t z = key * 0x9e3779b97f4a7c15ULL + counter * 0xbf58476d1ce4e5b9ULL + 1;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return static_cast<double>((z ^ (z >> 31)) >> 11) * 0x1.0p-53;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace tenferro;
  using namespace tenferro::einsum_internal;
  int trials = 32, coarsest = 24, cutoff_min = 3, cutoff_max = 8, starts = 3;
  double imbalance_min = 0.02, imbalance_max = 0.52;
  std::uint64_t seed = 0;
  bool top_cut = false, refine = false;
  int initial_tries = 4, passes = 4;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    const char* value = argv[i + 1];
    if (flag == "--trials") trials = std::atoi(value);
    if (flag == "--coarsest") coarsest = std::atoi(value);
    if (flag == "--cutoff-min") cutoff_min = std::atoi(value);
    if (flag == "--cutoff-max") cutoff_max = std::atoi(value);
    if (flag == "--starts") starts = std::atoi(value);
    if (flag == "--imbalance-min") imbalance_min = std::atof(value);
    if (flag == "--imbalance-max") imbalance_max = std::atof(value);
    if (flag == "--initial-tries") initial_tries = std::atoi(value);
    if (flag == "--passes") passes = std::atoi(value);
    if (flag == "--refine") refine = std::atoi(value) != 0;
    if (flag == "--top-cut") top_cut = std::atoi(value) != 0;
    if (flag == "--seed") seed = std::strtoull(value, nullptr, 10);
  }
  const bench::PlanningInput input = bench::planning_input(bench::read_network(std::cin));
  const auto& expr = input.expr;
  const PathProblem problem = make_path_problem(expr, input.sizes);
  if (top_cut) {  // the first split alone: its cut weight, per trial
    Hypergraph graph;
    graph.node_weight.assign(static_cast<std::size_t>(problem.num_operands), 1);
    for (int l = 0; l < problem.num_labels; ++l) {
      std::vector<int> pins;
      for (int k = 0; k < problem.num_operands; ++k)
        if ((problem.input(k)[static_cast<std::size_t>(l) / 64] >> (l % 64)) & 1) pins.push_back(k);
      if (pins.size() >= 2)
        graph.add_net(std::log2(problem.search_extents[static_cast<std::size_t>(l)]) + 1e-3, pins);
    }
    for (int t = 0; t < trials; ++t) {
      BisectionParams bp;
      bp.coarsest = coarsest;
      bp.cycles = starts;
      bp.initial_tries = initial_tries;
      bp.passes = passes;
      bp.imbalance = imbalance_min + (imbalance_max - imbalance_min) * uniform(seed + t, 1);
      std::uint64_t rng = seed * 1000003 + static_cast<std::uint64_t>(t);
      std::vector<signed char> side;
      std::printf("%.1f ", bisect_hypergraph(graph, bp, rng, side));
    }
    std::printf("\n");
    return 0;
  }
  std::vector<double> logs;
  const auto start = std::chrono::steady_clock::now();
  for (int t = 0; t < trials; ++t) {
    PartitionParams params;
    params.seed = seed * 1000003 + static_cast<std::uint64_t>(t);
    params.coarsest = coarsest;
    params.starts = starts;
    params.imbalance = imbalance_min + (imbalance_max - imbalance_min) * uniform(params.seed, 1);
    params.cutoff =
        cutoff_min + static_cast<int>((cutoff_max - cutoff_min + 1) * uniform(params.seed, 2));
    SsaPath ssa = partition_path(problem, params);
    if (refine) ssa = refine_path(problem, ssa, 8, 4, std::chrono::steady_clock::time_point::max());
    const auto sets = tree_node_sets(problem, ssa);
    logs.push_back(std::log10(tree_cost(problem, ssa, sets, problem.search_extents).flops));
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::sort(logs.begin(), logs.end());
  std::printf("{\"best\": %.3f, \"median\": %.3f, \"worst\": %.3f, \"ms_per_trial\": %.2f}\n",
              logs.front(), logs[logs.size() / 2], logs.back(), 1e3 * seconds / trials);
  return 0;
}
