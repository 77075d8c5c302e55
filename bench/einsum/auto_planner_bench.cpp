// Auto's effort against the stakes (docs/perf/planning.md, "auto scales with the stakes"): on
// random regular graphs and cubic lattices of 20-30 tensors, the path FLOPs, planning time and
// hyper trials of auto, of the refined greedy that auto was before it (PathStrategy::Optimal
// falls back to exactly that beyond 16 operands) and of a 256-trial hyper run, then the warm
// execution time of the old and new paths (float64, explicit path) and the FLOP rate reached,
// which is what path_auto.cpp's kAssumedFlopRate stands for.
//   build/bench/auto_planner_bench [max_exec_flops=2e10]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "ops/einsum/expression.hpp"
#include "ops/einsum/path.hpp"
#include "tenferro/einsum.hpp"
#include "tenferro/tenferro.hpp"

namespace {
using namespace tenferro;

struct Net {
  std::string name;
  EinsumLabels labels;
  std::vector<std::int64_t> extents;
  std::vector<Shape> shapes() const {
    std::vector<Shape> out;
    for (const auto& in : labels.inputs) {
      Shape s;
      for (int l : in) s.push_back(extents[static_cast<std::size_t>(l)]);
      out.push_back(s);
    }
    return out;
  }
};

Net from_edges(std::string name, int n, const std::vector<std::pair<int, int>>& edges,
               std::int64_t bond) {
  Net net{std::move(name), {}, {}};
  net.labels.inputs.assign(static_cast<std::size_t>(n), {});
  for (const auto& [a, b] : edges) {
    const int l = static_cast<int>(net.extents.size());
    net.extents.push_back(bond);
    net.labels.inputs[static_cast<std::size_t>(a)].push_back(l);
    net.labels.inputs[static_cast<std::size_t>(b)].push_back(l);
  }
  return net;
}

// Configuration model with restarts (a simple graph).
Net random_regular(int n, int degree, std::int64_t bond, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<std::pair<int, int>> edges;
  for (bool ok = false; !ok;) {
    std::vector<int> stubs;
    for (int v = 0; v < n; ++v)
      for (int d = 0; d < degree; ++d) stubs.push_back(v);
    std::shuffle(stubs.begin(), stubs.end(), rng);
    std::set<std::pair<int, int>> seen;
    edges.clear();
    ok = true;
    for (std::size_t k = 0; k + 1 < stubs.size() && ok; k += 2) {
      const int a = std::min(stubs[k], stubs[k + 1]), b = std::max(stubs[k], stubs[k + 1]);
      ok = a != b && seen.insert({a, b}).second;
      edges.emplace_back(a, b);
    }
  }
  return from_edges(
      "rrg" + std::to_string(degree) + "-" + std::to_string(n) + " D" + std::to_string(bond), n,
      edges, bond);
}

Net lattice(int side, std::int64_t bond) {
  auto id = [&](int x, int y, int z) { return (x * side + y) * side + z; };
  std::vector<std::pair<int, int>> edges;
  for (int x = 0; x < side; ++x)
    for (int y = 0; y < side; ++y)
      for (int z = 0; z < side; ++z) {
        if (x + 1 < side) edges.emplace_back(id(x, y, z), id(x + 1, y, z));
        if (y + 1 < side) edges.emplace_back(id(x, y, z), id(x, y + 1, z));
        if (z + 1 < side) edges.emplace_back(id(x, y, z), id(x, y, z + 1));
      }
  const std::string s = std::to_string(side);
  return from_edges("lattice" + s + "x" + s + "x" + s + " D" + std::to_string(bond),
                    side * side * side, edges, bond);
}

double now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

EinsumPath plan(const Net& net, const EinsumOptions& o) {
  const std::vector<Shape> shapes = net.shapes();
  std::vector<std::int64_t> ranks;
  for (const Shape& s : shapes) ranks.push_back(static_cast<std::int64_t>(s.size()));
  const auto expr = einsum_internal::from_labels(net.labels, ranks);
  return einsum_internal::plan_path(expr, einsum_internal::label_sizes(expr, shapes), o);
}

// Warm median of 3 runs of `path`, seconds.
double execute(const std::shared_ptr<EagerRuntime>& rt, const Net& net,
               const std::vector<EagerTensor>& ops, const EinsumPath& path) {
  (void)rt;
  EinsumOptions o;
  o.strategy = PathStrategy::Explicit;
  o.path = path.steps;
  einsum(net.labels, ops, o);
  std::vector<double> t;
  for (int r = 0; r < 3; ++r) {
    const double t0 = now();
    einsum(net.labels, ops, o);
    t.push_back(now() - t0);
  }
  std::sort(t.begin(), t.end());
  return t[1];
}

}  // namespace

int main(int argc, char** argv) {
  const double max_exec = argc > 1 ? std::atof(argv[1]) : 2e10;
  std::vector<Net> nets;
  for (int n : {20, 24, 30}) {
    nets.push_back(random_regular(n, 3, 6, 100 + static_cast<std::uint64_t>(n)));
    nets.push_back(random_regular(n, 4, 3, 200 + static_cast<std::uint64_t>(n)));
    nets.push_back(random_regular(n, 4, 4, 300 + static_cast<std::uint64_t>(n)));
  }
  nets.push_back(lattice(3, 4));
  nets.push_back(lattice(3, 6));
  auto rt = EagerRuntime::cpu();
  std::printf("%-20s %10s %8s | %10s %8s %7s | %10s %8s | %9s %9s %8s\n", "network", "old FLOPs",
              "old ms", "auto FLOPs", "auto ms", "trials", "hyper256", "hyp ms", "old exec",
              "auto exec", "GFLOP/s");
  for (const Net& net : nets) {
    EinsumOptions old_o;
    old_o.strategy = PathStrategy::Optimal;  // beyond 16 operands: refined greedy, old auto
    EinsumOptions long_o;
    long_o.strategy = PathStrategy::Hyper;
    long_o.hyper_trials = 256;
    long_o.time_budget_seconds = 0;
    const EinsumPath old_p = plan(net, old_o), auto_p = plan(net, {}), long_p = plan(net, long_o);
    double old_exec = -1, auto_exec = -1;
    if (std::max(old_p.flops, auto_p.flops) <= max_exec) {
      std::mt19937_64 rng(1);
      std::uniform_real_distribution<double> u(-1, 1);
      std::vector<EagerTensor> ops;
      for (const Shape& s : net.shapes()) {
        std::vector<double> data(static_cast<std::size_t>(checked_numel(s)));
        for (double& v : data) v = u(rng);
        ops.push_back(rt->upload(Tensor::from_col_major<double>(s, std::span<const double>(data))));
      }
      old_exec = execute(rt, net, ops, old_p);
      auto_exec = execute(rt, net, ops, auto_p);
    }
    std::printf("%-20s %10.3e %8.2f | %10.3e %8.2f %7d | %10.3e %8.2f | %9.2f %9.2f %8.2f\n",
                net.name.c_str(), old_p.flops, old_p.planning_seconds * 1e3, auto_p.flops,
                auto_p.planning_seconds * 1e3, auto_p.planning_trials, long_p.flops,
                long_p.planning_seconds * 1e3, old_exec * 1e3, auto_exec * 1e3,
                auto_exec > 0 ? auto_p.flops / auto_exec / 1e9 : 0.0);
    std::fflush(stdout);
  }
  return 0;
}
