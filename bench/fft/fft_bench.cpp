// Eager tenferro::fft vs executing the same FFTW plan directly, side by side in one run.
// Each case runs both ways (same transform, same FFTW_ESTIMATE guru plan with the same planner
// threads, same alignment);
// the eager side pays the dispatch, the output allocation and the plan-cache lookup. At the
// end the medians are printed as eager/direct ratios (target <= 1.1 for 2^16 complex).
//   build/bench/fft_bench --benchmark_repetitions=10 --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>
#include <fftw3.h>

#include <complex>
#include <cstdio>
#include <map>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "ops/fft/fftw/fftw_plan.hpp"
#include "tenferro/fft.hpp"
#include "tenferro/runtime/runtime.hpp"

namespace {

using tenferro::DType;
using tenferro::Shape;

struct Case {
  const char* name;
  Shape shape;                     // column-major, C64
  std::vector<std::int64_t> axes;  // transformed axes
};

const Case kCases[] = {
    {"c2c_1d_2^10", {1 << 10}, {0}},
    {"c2c_1d_2^16", {1 << 16}, {0}},
    {"c2c_2d_128x128_batch16", {128, 128, 16}, {0, 1}},
};

tenferro::Tensor random_c64(const Shape& shape) {
  std::int64_t n = 1;
  for (auto e : shape) n *= e;
  std::mt19937 gen(42);
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<std::complex<double>> v(static_cast<std::size_t>(n));
  for (auto& x : v) x = {u(gen), u(gen)};
  return tenferro::Tensor::from_col_major<std::complex<double>>(
      shape, std::span<const std::complex<double>>(v));
}

void eager(benchmark::State& state, const Case* c) {
  auto rt = tenferro::EagerRuntime::cpu();
  const auto x = rt->upload(random_c64(c->shape));
  for (auto _ : state) {
    auto y = c->axes.size() == 1 ? tenferro::fft::fft(x, std::nullopt, c->axes[0])
                                 : tenferro::fft::fftn(x, std::nullopt, c->axes);
    benchmark::DoNotOptimize(y.buffer().get());
  }
}

// The guru plan the eager executor builds for a compact C64 input and output.
void direct(benchmark::State& state, const Case* c) {
  const tenferro::Tensor in = random_c64(c->shape);
  tenferro::Tensor out = tenferro::Tensor::zeros(DType::C64, c->shape);
  std::vector<fftw_iodim64> dims, batch;
  const auto& strides = in.strides();
  for (std::size_t a = 0; a < c->shape.size(); ++a) {
    bool transformed = false;
    for (auto t : c->axes) transformed |= t == static_cast<std::int64_t>(a);
    fftw_iodim64 d{c->shape[a], strides[a], strides[a]};
    if (transformed) {
      dims.push_back(d);
    } else if (c->shape[a] > 1) {
      batch.push_back(d);
    }
  }
  auto* src = reinterpret_cast<fftw_complex*>(const_cast<std::byte*>(in.raw_data()));
  auto* dst = reinterpret_cast<fftw_complex*>(out.raw_data());
  // With as many planner threads as the executor gives the same transform.
  tenferro::fft_internal::PlanShape shape;
  shape.dims.assign(dims.begin(), dims.end());
  shape.batch.assign(batch.begin(), batch.end());
  fftw_init_threads();
  fftw_plan_with_nthreads(tenferro::fft_internal::planner_threads(shape));
  fftw_plan plan = fftw_plan_guru64_dft(static_cast<int>(dims.size()), dims.data(),
                                        static_cast<int>(batch.size()), batch.data(), src, dst,
                                        FFTW_FORWARD, FFTW_ESTIMATE | FFTW_PRESERVE_INPUT);
  fftw_plan_with_nthreads(1);
  for (auto _ : state) {
    fftw_execute_dft(plan, src, dst);
    benchmark::DoNotOptimize(dst);
  }
  fftw_destroy_plan(plan);
}

// Prints the results as usual and remembers the medians for the ratio table.
class RatioReporter : public benchmark::ConsoleReporter {
 public:
  void ReportRuns(const std::vector<Run>& runs) override {
    for (const Run& r : runs) {
      const std::string name = r.benchmark_name();
      if (r.run_type == Run::RT_Aggregate && r.aggregate_name != "median") continue;
      medians_[name.substr(0, name.find("_median"))] = {r.GetAdjustedRealTime(),
                                                        r.GetAdjustedCPUTime()};
    }
    ConsoleReporter::ReportRuns(runs);
  }
  void Finalize() override {
    ConsoleReporter::Finalize();
    std::printf("\n%-26s %10s %10s %7s %10s %10s %7s\n", "case (medians, us)", "eager", "direct",
                "ratio", "eager cpu", "dir. cpu", "ratio");
    for (const Case& c : kCases) {
      const auto e = medians_.find(std::string("eager/") + c.name);
      const auto d = medians_.find(std::string("direct/") + c.name);
      if (e == medians_.end() || d == medians_.end()) continue;
      const auto [er, ec] = e->second;
      const auto [dr, dc] = d->second;
      std::printf("%-26s %10.2f %10.2f %7.3f %10.2f %10.2f %7.3f\n", c.name, er, dr, er / dr, ec,
                  dc, ec / dc);
    }
  }

 private:
  std::map<std::string, std::pair<double, double>> medians_;  // real, cpu
};

}  // namespace

int main(int argc, char** argv) {
  for (const Case& c : kCases) {
    // Registered in pairs so the two sides of a case run back to back.
    benchmark::RegisterBenchmark((std::string("eager/") + c.name).c_str(), eager, &c)
        ->Unit(benchmark::kMicrosecond);
    benchmark::RegisterBenchmark((std::string("direct/") + c.name).c_str(), direct, &c)
        ->Unit(benchmark::kMicrosecond);
  }
  benchmark::Initialize(&argc, argv);
  RatioReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();
  return 0;
}
