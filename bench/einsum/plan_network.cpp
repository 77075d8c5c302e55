// Plans one network read from stdin and prints the plan as JSON, for the peer comparison
// bench/peers/planning_peers.py (which generates the networks and plans them with cotengra
// and opt_einsum in the same run).
//   build/bench/plan_network [--strategy auto|greedy|hyper] [--trials N] [--budget S]
//                            [--seed N] [--memory-limit ELEMENTS] [--objective flops|size|combo]
//                            < network.txt
// Input: the number of tensors, then one line per tensor "k l1 .. lk", one line for the
// output "k o1 .. ok", one line "L e0 .. e(L-1)" with every label's extent.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <string>
#include <vector>

#include "ops/einsum/expression.hpp"
#include "ops/einsum/path.hpp"
#include "planning_input.hpp"
#include "tenferro/core/error.hpp"

namespace {

std::string number(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace tenferro;
  EinsumOptions options;
  options.strategy = PathStrategy::Hyper;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string flag = argv[i], value = argv[i + 1];
    if (flag == "--strategy") {
      options.strategy = value == "auto"     ? PathStrategy::Auto
                         : value == "greedy" ? PathStrategy::Greedy
                                             : PathStrategy::Hyper;
    } else if (flag == "--trials") {
      options.hyper_trials = std::atoi(value.c_str());
    } else if (flag == "--budget") {
      options.time_budget_seconds = std::atof(value.c_str());
    } else if (flag == "--seed") {
      options.seed = std::strtoull(value.c_str(), nullptr, 10);
    } else if (flag == "--memory-limit") {
      options.memory_limit = std::atof(value.c_str());
    } else if (flag == "--objective") {
      options.objective = value == "size"    ? PathObjective::Size
                          : value == "combo" ? PathObjective::Combo
                                             : PathObjective::Flops;
    }
  }
  const bench::BenchNetwork net = bench::read_network(std::cin);
  try {
    const bench::PlanningInput input = bench::planning_input(net);
    const auto& expr = input.expr;
    const auto& sizes = input.sizes;
    const auto start = std::chrono::steady_clock::now();
    const EinsumPath path = einsum_internal::plan_path(expr, sizes, options);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::string steps = "[";
    for (std::size_t s = 0; s < path.steps.size(); ++s) {
      steps += (s ? "," : "") + std::string("[") + std::to_string(path.steps[s].first) + "," +
               std::to_string(path.steps[s].second) + "]";
    }
    steps += "]";
    std::string sliced = "[";
    for (std::size_t s = 0; s < path.sliced_names.size(); ++s)
      sliced += (s ? "," : "") + path.sliced_names[s];  // the network's own integer labels
    sliced += "]";
    std::string method;
    for (char c : path.method) method += c == '"' ? '\'' : c;
    std::printf(
        "{\"flops\": %s, \"largest\": %s, \"plan_s\": %s, \"method\": \"%s\", \"steps\": %s, "
        "\"sliced\": %s, \"slices\": %s, \"sliced_flops\": %s, \"overhead\": %s, "
        "\"slice_largest\": %s}\n",
        number(path.flops).c_str(), number(path.largest_intermediate).c_str(),
        number(seconds).c_str(), method.c_str(), steps.c_str(), sliced.c_str(),
        number(path.num_slices).c_str(), number(path.sliced_flops).c_str(),
        number(path.slicing_overhead).c_str(), number(path.slice_largest_intermediate).c_str());
  } catch (const Error& e) {
    std::fprintf(stderr, "plan_network: %s\n", e.what());
    return 1;
  }
  return 0;
}
