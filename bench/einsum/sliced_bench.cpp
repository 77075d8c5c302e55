// Sliced against unsliced execution of one lattice contraction on the CPU runtime: time, the
// largest workspace buffer (what EinsumOptions::memory_limit bounds) and the peak of live
// workspace (every intermediate of one call or slice stays held until it ends, so the peak is
// a sum of intermediates, not bounded by the limit), for limits of 1, 1/4 and 1/16 of the
// unsliced largest intermediate, and the largest input (the tightest limit einsum accepts).
//   build/bench/sliced_bench --benchmark_min_time=0.5
#include <benchmark/benchmark.h>

#include <algorithm>
#include <string>
#include <vector>

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

void run(benchmark::State& state, int divisor) {
  const Lattice net = lattice(5, 6);  // 40 bonds of dimension 6
  auto rt = EagerRuntime::cpu();
  std::vector<EagerTensor> ops;
  for (const Shape& s : net.shapes) {
    Tensor host = Tensor::zeros(DType::F64, s);
    double* d = host.data<double>();
    for (std::int64_t i = 0; i < host.numel(); ++i)
      d[i] = 0.5 + 0.001 * static_cast<double>(i % 97);
    ops.push_back(rt->upload(host));
  }
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

BENCHMARK_CAPTURE(run, unsliced, 1)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(run, limit_1_4, 4)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(run, limit_1_16, 16)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(run, limit_largest_input, 1 << 30)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
