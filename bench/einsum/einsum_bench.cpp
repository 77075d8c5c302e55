// Google Benchmark of the einsum cases (bench/einsum/einsum_cases.hpp): tensor networks (MPS
// inner product, MERA-like, PEPS-like), batched matmul, trace, outer product, a 3-operand
// chain. Reports medians over repetitions. The same cases run against NumPy, opt_einsum and
// PyTorch in bench/peers/einsum_peers.py.
#include <benchmark/benchmark.h>

#include "einsum_cases.hpp"

namespace {
using namespace tenferro;
using namespace tenferro::bench;

void run_case(benchmark::State& state, const EinsumCase& c) {
  auto rt = EagerRuntime::cpu();
  const auto ops = case_operands(rt, c);
  const std::string subs = reversed_subscripts(c.subscripts);
  for (auto _ : state) {
    EagerTensor r = einsum(subs, ops);
    benchmark::DoNotOptimize(r);
  }
  state.counters["plan_cache_hits"] =
      static_cast<double>(rt->caches().stats({std::string(einsum_family::kFamily), "plan"}).hits);
}

}  // namespace

int main(int argc, char** argv) {
  for (const auto& c : einsum_cases())
    benchmark::RegisterBenchmark(("einsum/" + c.name).c_str(), run_case, c)
        ->Repetitions(5)
        ->ReportAggregatesOnly(true)
        ->Unit(benchmark::kMicrosecond);
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
