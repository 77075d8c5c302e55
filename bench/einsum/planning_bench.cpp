// Contraction-order planning time (parse excluded): auto, greedy and optimal on the
// benchmark networks (MPS chains, PEPS-like grids, random networks of ~5/10/20 operands).
//   build/bench/planning_bench --benchmark_min_time=0.2
#include <benchmark/benchmark.h>

#include "benchmark_networks.hpp"
#include "ops/einsum/expression.hpp"
#include "ops/einsum/path.hpp"
#include "planning_input.hpp"

namespace {

using tenferro::bench::BenchNetwork;

void plan(benchmark::State& state, BenchNetwork net, tenferro::PathStrategy strategy) {
  const auto [expr, sizes] = tenferro::bench::planning_input(net);
  tenferro::EinsumOptions options;
  options.strategy = strategy;
  double flops = 0;
  for (auto _ : state) {
    auto path = tenferro::einsum_internal::plan_path(expr, sizes, options);
    flops = path.flops;
    benchmark::DoNotOptimize(path);
  }
  state.counters["operands"] = net.operands();
  state.counters["flops"] = flops;
}

const int registered = [] {
  for (const auto& net : tenferro::bench::benchmark_networks()) {
    benchmark::RegisterBenchmark(("plan/auto/" + net.name).c_str(), plan, net,
                                 tenferro::PathStrategy::Auto)
        ->Unit(benchmark::kMicrosecond);
    benchmark::RegisterBenchmark(("plan/greedy/" + net.name).c_str(), plan, net,
                                 tenferro::PathStrategy::Greedy)
        ->Unit(benchmark::kMicrosecond);
    if (net.operands() <= 12) {
      benchmark::RegisterBenchmark(("plan/optimal/" + net.name).c_str(), plan, net,
                                   tenferro::PathStrategy::Optimal)
          ->Unit(benchmark::kMicrosecond);
    }
  }
  return 0;
}();

}  // namespace

BENCHMARK_MAIN();
