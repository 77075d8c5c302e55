// Prims on the CPU, side by side in one run:
//  - large memory-bound ops (add, mul, axpby of 2^24 F64; sum over each axis of 4096 x 4096)
//    against memcpy of the same bytes (bytes moved = inputs read + output written), so the
//    "bandwidth" column reads as a fraction of what this machine copies;
//  - the eager call against the same CPU kernel called directly (no dispatch, no allocation of
//    its own), at 64 elements (the per-call overhead) and at 2^24.
//   build/bench/prims_bench --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>

#include <cstring>
#include <vector>

#include "ops/prims/cpu/cpu_kernels.hpp"
#include "support/ratio_reporter.hpp"
#include "tenferro/prims.hpp"
#include "tenferro/runtime/runtime.hpp"

namespace {

using namespace tenferro;

constexpr std::int64_t kLarge = std::int64_t{1} << 24;

EagerTensor random_f64(const std::shared_ptr<EagerRuntime>& rt, Shape shape, std::uint64_t seed) {
  return prims::random_uniform(rt, DType::F64, std::move(shape), seed);
}

void set_bytes(benchmark::State& state, std::int64_t elements, int streams) {
  state.SetBytesProcessed(state.iterations() * elements * 8 * streams);
}

// memcpy of n doubles: 2 streams (read + write). Large ops compare to this bandwidth.
void BM_Memcpy(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  std::vector<double> a(n, 1.0), b(n);
  for (auto _ : state) {
    std::memcpy(b.data(), a.data(), n * sizeof(double));
    benchmark::DoNotOptimize(b.data());
    benchmark::ClobberMemory();
  }
  set_bytes(state, state.range(0), 2);
}

template <class Op>
void eager_binary(benchmark::State& state, Op op) {
  auto rt = EagerRuntime::cpu();
  const std::int64_t n = state.range(0);
  const EagerTensor a = random_f64(rt, {n}, 1), b = random_f64(rt, {n}, 2);
  for (auto _ : state) {
    EagerTensor c = op(a, b);
    benchmark::DoNotOptimize(c.buffer().get());
  }
  set_bytes(state, n, 3);
}

void BM_EagerAdd(benchmark::State& s) {
  eager_binary(s, [](const EagerTensor& a, const EagerTensor& b) { return prims::add(a, b); });
}
void BM_EagerMul(benchmark::State& s) {
  eager_binary(s, [](const EagerTensor& a, const EagerTensor& b) { return prims::mul(a, b); });
}
void BM_EagerAxpby(benchmark::State& s) {
  eager_binary(
      s, [](const EagerTensor& a, const EagerTensor& b) { return prims::axpby(2.0, a, -0.5, b); });
}

// The CPU add kernel on the same operands and a preallocated output: what the eager call
// costs without dispatch, op resolution or output allocation.
void BM_DirectAddKernel(benchmark::State& state) {
  auto rt = EagerRuntime::cpu();
  const std::int64_t n = state.range(0);
  const EagerTensor a = random_f64(rt, {n}, 1), b = random_f64(rt, {n}, 2);
  const EagerTensor c = rt->empty(DType::F64, {n});
  prims_internal::ElementwiseCall call;
  call.kind = prims_internal::PrimKind::Add;
  call.arity = 2;
  call.in[0] = {a.buffer().get(), a.layout()};
  call.in[1] = {b.buffer().get(), b.layout()};
  call.out = {c.buffer().get(), c.layout()};
  const ExecutionContext ctx(rt, prims_family::kFamily);
  for (auto _ : state) {
    prims_cpu::elementwise(ctx, call);
    benchmark::DoNotOptimize(c.buffer().get());
  }
  set_bytes(state, n, 3);
}

// Sum over axis 0 (contiguous runs) and axis 1 (strided) of a 4096 x 4096 matrix: one stream.
void BM_EagerSumAxis(benchmark::State& state) {
  auto rt = EagerRuntime::cpu();
  const EagerTensor x = random_f64(rt, {4096, 4096}, 3);
  const prims::Axes axes{state.range(0)};
  for (auto _ : state) {
    EagerTensor s = prims::sum(x, axes);
    benchmark::DoNotOptimize(s.buffer().get());
  }
  set_bytes(state, 4096 * 4096, 1);
}

BENCHMARK(BM_Memcpy)->Arg(kLarge)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_EagerAdd)->Arg(kLarge)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_DirectAddKernel)->Arg(kLarge)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_EagerMul)->Arg(kLarge)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_EagerAxpby)->Arg(kLarge)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_EagerSumAxis)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_EagerAdd)->Arg(64)->Arg(1024)->UseRealTime();
BENCHMARK(BM_DirectAddKernel)->Arg(64)->Arg(1024)->UseRealTime();

}  // namespace

int main(int argc, char** argv) {
  // Large ops are read as bandwidth (bytes_per_second) against BM_Memcpy; the ratio below is
  // the per-call overhead of the eager call at 64 elements.
  return tenferro::bench::run_with_ratios(
      argc, argv, {{"BM_EagerAdd/64/real_time", "BM_DirectAddKernel/64/real_time"}});
}
