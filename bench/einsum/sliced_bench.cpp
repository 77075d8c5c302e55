// Sliced against unsliced execution of one lattice contraction on the CPU runtime: time, the
// largest workspace buffer (what EinsumOptions::memory_limit bounds) and the peak of live
// workspace (every intermediate of one call or slice stays held until it ends, so the peak is
// a sum of intermediates, not bounded by the limit), for limits of 1, 1/4 and 1/16 of the
// unsliced largest intermediate, and the largest input (the tightest limit einsum accepts).
// `workers/*`: one sliced plan's slices run by 1, 2, ... workers (run_sliced_program), on a
// small-slice case (the 5x5 lattice at 1/16) and on `beyond_limit`, a 5x5 lattice of bond 12
// whose unsliced largest intermediate (3M elements) is 64 times the memory limit it runs
// under: the contraction does not fit without slicing. `unsliced/*` runs the bond 10 and 12
// lattices whole, as bench/peers/sliced_peers.py times NumPy and opt_einsum (which hold the
// whole intermediates); the `value` counter is the scalar result, to check against theirs.
//   build/bench/sliced_bench --benchmark_min_time=0.5
#include <benchmark/benchmark.h>

#include <algorithm>
#include <string>
#include <vector>

#include "ops/einsum/cpu/cpu_contraction_kernels.hpp"
#include "ops/einsum/executor.hpp"
#include "ops/einsum/expression.hpp"
#include "ops/einsum/path.hpp"
#include "ops/einsum/program.hpp"
#include "ops/einsum/workspace.hpp"
#include "tenferro/core/tensor.hpp"
#include "tenferro/einsum.hpp"
#include "tenferro/runtime/runtime.hpp"

namespace {

using namespace tenferro;

// A closed side x side square lattice with bond dimension `bond` (letters for labels).
struct Lattice {
  std::string subscripts;
  std::vector<Shape> shapes;
};

Lattice lattice(int side, std::int64_t bond) {
  const std::string letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
  std::vector<std::string> terms(static_cast<std::size_t>(side * side));
  int next = 0;
  for (int r = 0; r < side; ++r) {
    for (int c = 0; c < side; ++c) {
      const auto v = static_cast<std::size_t>(r * side + c);
      if (c + 1 < side) {
        terms[v] += letters[static_cast<std::size_t>(next)];
        terms[v + 1] += letters[static_cast<std::size_t>(next++)];
      }
      if (r + 1 < side) {
        terms[v] += letters[static_cast<std::size_t>(next)];
        terms[v + static_cast<std::size_t>(side)] += letters[static_cast<std::size_t>(next++)];
      }
    }
  }
  Lattice l;
  for (std::size_t t = 0; t < terms.size(); ++t) {
    l.subscripts += (t ? "," : "") + terms[t];
    l.shapes.push_back(Shape(terms[t].size(), bond));
  }
  l.subscripts += "->";
  return l;
}

// Deterministic entries (bench/peers/sliced_peers.py fills NumPy's operands the same way).
std::vector<EagerTensor> operands(EagerRuntime& rt, const Lattice& net) {
  std::vector<EagerTensor> ops;
  for (const Shape& s : net.shapes) {
    Tensor host = Tensor::zeros(DType::F64, s);
    double* d = host.data<double>();
    for (std::int64_t i = 0; i < host.numel(); ++i)
      d[i] = 0.5 + 0.001 * static_cast<double>(i % 97);
    ops.push_back(rt.upload(host));
  }
  return ops;
}

void run(benchmark::State& state, int divisor) {
  const Lattice net = lattice(5, 6);  // 40 bonds of dimension 6
  auto rt = EagerRuntime::cpu();
  const std::vector<EagerTensor> ops = operands(*rt, net);
  EinsumOptions options;
  const double largest = einsum_path(net.subscripts, net.shapes, options).largest_intermediate;
  double largest_input = 0;
  for (const Shape& s : net.shapes)
    largest_input = std::max(largest_input, static_cast<double>(checked_numel(s)));
  if (divisor > 1) options.memory_limit = std::max(largest / divisor, largest_input);
  const EinsumPath path = einsum_path(net.subscripts, net.shapes, options);
  einsum_internal::reset_workspace_stats(*rt);
  for (auto _ : state) benchmark::DoNotOptimize(einsum(net.subscripts, ops, options));
  const auto stats = einsum_internal::workspace_stats(*rt);
  state.counters["slices"] = path.num_slices;
  state.counters["overhead"] = path.slicing_overhead;
  state.counters["limit_elems"] = divisor > 1 ? options.memory_limit : largest;
  state.counters["largest_buf_elems"] = static_cast<double>(stats.largest_buffer_bytes) / 8;
  state.counters["peak_live_elems"] = static_cast<double>(stats.high_water_bytes) / 8;
}

// One plan sliced under largest / divisor, its slices run by state.range(0) workers.
void workers(benchmark::State& state, int side, std::int64_t bond, int divisor) {
  using namespace einsum_internal;
  const Lattice net = lattice(side, bond);
  auto rt = EagerRuntime::cpu();
  const std::vector<EagerTensor> ops = operands(*rt, net);
  std::vector<std::int64_t> ranks;
  for (const Shape& s : net.shapes) ranks.push_back(static_cast<std::int64_t>(s.size()));
  const auto expr = parse_subscripts(net.subscripts, ranks);
  const auto sizes = label_sizes(expr, net.shapes);
  EinsumOptions options;
  const double largest = plan_path(expr, sizes, options).largest_intermediate;
  options.memory_limit = largest / divisor;
  const EinsumPath path = plan_path(expr, sizes, options);
  const EinsumPlan plan = build_plan(expr, sizes, path, DType::F64, net.shapes);
  const int count = static_cast<int>(state.range(0));
  reset_workspace_stats(*rt);
  for (auto _ : state)
    benchmark::DoNotOptimize(
        run_sliced_program(*rt, cpu_contraction_kernels(), plan, ops, {}, count));
  const auto stats = workspace_stats(*rt);
  state.counters["slices"] = path.num_slices;
  state.counters["slice_flops"] = path.sliced_flops / path.num_slices;
  state.counters["unsliced_largest_elems"] = largest;
  state.counters["limit_elems"] = options.memory_limit;
  state.counters["largest_buf_elems"] = static_cast<double>(stats.largest_buffer_bytes) / 8;
  state.counters["peak_live_elems"] = static_cast<double>(stats.high_water_bytes) / 8;
  state.counters["value"] = run_sliced_program(*rt, cpu_contraction_kernels(), plan, ops, {}, count)
                                .download()
                                .data<double>()[0];
  state.counters["auto_workers"] = slice_workers(plan, static_cast<std::int64_t>(path.num_slices),
                                                 cpu_contraction_kernels().slice_threads());
}

// The lattice unsliced through the public einsum (no memory limit).
void unsliced(benchmark::State& state, int side, std::int64_t bond) {
  const Lattice net = lattice(side, bond);
  auto rt = EagerRuntime::cpu();
  const std::vector<EagerTensor> ops = operands(*rt, net);
  einsum_internal::reset_workspace_stats(*rt);
  for (auto _ : state) benchmark::DoNotOptimize(einsum(net.subscripts, ops));
  const auto stats = einsum_internal::workspace_stats(*rt);
  state.counters["largest_buf_elems"] = static_cast<double>(stats.largest_buffer_bytes) / 8;
  state.counters["value"] = einsum(net.subscripts, ops).download().data<double>()[0];
}

BENCHMARK_CAPTURE(run, unsliced, 1)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(run, limit_1_4, 4)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(run, limit_1_16, 16)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(run, limit_largest_input, 1 << 30)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(workers, lattice5_bond6_limit_1_16, 5, 6, 16)
    ->Arg(1)
    ->Arg(2)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK_CAPTURE(workers, lattice5_bond8_limit_1_16, 5, 8, 16)
    ->Arg(1)
    ->Arg(2)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK_CAPTURE(workers, lattice5_bond10_limit_1_16, 5, 10, 16)
    ->Arg(1)
    ->Arg(2)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK_CAPTURE(unsliced, lattice5_bond10, 5, 10)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(unsliced, lattice5_bond12, 5, 12)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(workers, beyond_limit, 5, 12, 64)
    ->Arg(1)
    ->Arg(2)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
