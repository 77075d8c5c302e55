// A Google Benchmark reporter that prints the usual table and then, for declared pairs of
// benchmarks measured in the same run, the median difference per call and the ratio.
#pragma once

#include <benchmark/benchmark.h>

#include <cstdio>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace tenferro::bench {

class RatioReporter : public benchmark::ConsoleReporter {
 public:
  // Pairs (subject, baseline) of benchmark names (without aggregate suffixes).
  explicit RatioReporter(std::vector<std::pair<std::string, std::string>> pairs)
      : pairs_(std::move(pairs)) {}

  void ReportRuns(const std::vector<Run>& runs) override {
    ConsoleReporter::ReportRuns(runs);
    for (const Run& r : runs) {
      if (r.error_occurred) continue;
      const std::string name = r.run_name.str();
      // Prefer the median aggregate when repetitions are on; else the single run.
      if (r.run_type == Run::RT_Aggregate) {
        if (r.aggregate_name == "median") medians_[name] = r.GetAdjustedRealTime();
      } else if (!medians_.count(name)) {
        singles_[name] = r.GetAdjustedRealTime();
      }
    }
  }

  void Finalize() override {
    ConsoleReporter::Finalize();
    std::printf("\n%-44s %-32s %14s %10s\n", "subject", "baseline", "diff/call", "ratio");
    for (const auto& [subject, baseline] : pairs_) {
      const double s = time_of(subject), b = time_of(baseline);
      if (s <= 0 || b <= 0) continue;
      std::printf("%-44s %-32s %11.1f ns %10.3f\n", subject.c_str(), baseline.c_str(), s - b,
                  s / b);
    }
  }

 private:
  // Times are in the benchmarks' display unit; every pair here uses nanoseconds.
  double time_of(const std::string& name) const {
    if (auto it = medians_.find(name); it != medians_.end()) return it->second;
    if (auto it = singles_.find(name); it != singles_.end()) return it->second;
    return -1;
  }
  std::vector<std::pair<std::string, std::string>> pairs_;
  std::map<std::string, double> medians_, singles_;
};

// Runs the registered benchmarks with 5 repetitions by default (medians) and prints ratios.
inline int run_with_ratios(int argc, char** argv,
                           std::vector<std::pair<std::string, std::string>> pairs) {
  std::vector<char*> args(argv, argv + argc);
  std::string reps = "--benchmark_repetitions=5";
  bool has_reps = false;
  for (int i = 1; i < argc; ++i)
    has_reps |= std::string(argv[i]).rfind("--benchmark_repetitions", 0) == 0;
  if (!has_reps) args.push_back(reps.data());
  std::string agg = "--benchmark_report_aggregates_only=true";
  args.push_back(agg.data());
  int n = static_cast<int>(args.size());
  benchmark::Initialize(&n, args.data());
  RatioReporter reporter(std::move(pairs));
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();
  return 0;
}

}  // namespace tenferro::bench
