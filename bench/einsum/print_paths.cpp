// Prints, as one JSON document, our planned paths for the benchmark networks: the network
// (integer labels and extents) and for each strategy the steps, FLOP count (opt_einsum's
// model), largest intermediate and median planning time. Read by bench/peers/einsum_paths.py,
// which plans the same networks with opt_einsum in the same run.
//   build/bench/print_paths > paths.json
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "benchmark_networks.hpp"
#include "ops/einsum/expression.hpp"
#include "ops/einsum/path.hpp"
#include "planning_input.hpp"

namespace {

std::string int_list(const std::vector<int>& v) {
  std::string s = "[";
  for (std::size_t i = 0; i < v.size(); ++i) s += (i ? "," : "") + std::to_string(v[i]);
  return s + "]";
}

std::string json_string(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

std::string number(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

}  // namespace

int main() {
  using tenferro::PathStrategy;
  const std::vector<std::pair<const char*, PathStrategy>> strategies{
      {"auto", PathStrategy::Auto},
      {"greedy", PathStrategy::Greedy},
      {"optimal", PathStrategy::Optimal}};
  std::printf("[\n");
  const auto networks = tenferro::bench::benchmark_networks();
  for (std::size_t n = 0; n < networks.size(); ++n) {
    const auto& net = networks[n];
    const auto [expr, sizes] = tenferro::bench::planning_input(net);

    std::string inputs = "[";
    for (std::size_t k = 0; k < net.labels.inputs.size(); ++k) {
      inputs += (k ? "," : "") + int_list(net.labels.inputs[k]);
    }
    inputs += "]";
    std::string extents = "{";
    bool first = true;
    for (const auto& [label, extent] : net.extents) {
      extents +=
          (first ? "" : ",") + json_string(std::to_string(label)) + ":" + std::to_string(extent);
      first = false;
    }
    extents += "}";
    std::printf("  {\"name\": %s, \"inputs\": %s, \"output\": %s, \"extents\": %s, \"paths\": {\n",
                json_string(net.name).c_str(), inputs.c_str(), int_list(net.labels.output).c_str(),
                extents.c_str());
    for (std::size_t s = 0; s < strategies.size(); ++s) {
      tenferro::EinsumOptions options;
      options.strategy = strategies[s].second;
      // Median of repeated plans; optimal on big networks is slow, so fewer repeats there.
      const int reps = options.strategy == PathStrategy::Optimal && net.operands() > 10 ? 1 : 51;
      std::vector<double> times;
      tenferro::EinsumPath path;
      for (int r = 0; r < reps; ++r) {
        const auto start = std::chrono::steady_clock::now();
        path = tenferro::einsum_internal::plan_path(expr, sizes, options);
        times.push_back(
            std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start)
                .count());
      }
      std::nth_element(times.begin(), times.begin() + reps / 2, times.end());
      std::string steps = "[";
      for (std::size_t i = 0; i < path.steps.size(); ++i) {
        steps += (i ? "," : "") + std::string("[") + std::to_string(path.steps[i].first) + "," +
                 std::to_string(path.steps[i].second) + "]";
      }
      steps += "]";
      std::printf(
          "    %s: {\"flops\": %s, \"largest_intermediate\": %s, \"plan_us\": %s, "
          "\"method\": %s, \"steps\": %s}%s\n",
          json_string(strategies[s].first).c_str(), number(path.flops).c_str(),
          number(path.largest_intermediate).c_str(), number(times[reps / 2]).c_str(),
          json_string(path.method).c_str(), steps.c_str(), s + 1 < strategies.size() ? "," : "");
    }
    std::printf("  }}%s\n", n + 1 < networks.size() ? "," : "");
  }
  std::printf("]\n");
  return 0;
}
