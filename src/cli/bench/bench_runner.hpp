// Runs the bench cases on one runtime and measures each phase separately.
#pragma once

#include <string>
#include <vector>

#include "cli/bench/bench_case.hpp"

namespace tenferro::cli::bench {

struct Distribution {
  double median = 0, p10 = 0, p90 = 0;  // microseconds per call
  int calls = 0;
};

struct CaseResult {
  std::string backend;
  std::string name;
  std::string description;
  std::string dtype;
  // ok | unsupported (refused, and the family's table does not admit it here) | failed
  std::string status = "ok";
  std::string message;       // the typed error or check failure
  double transfer_us = 0;    // explicit upload of the inputs
  double first_call_us = 0;  // module install, planning, pipeline JIT
  Distribution steady;       // synchronized eager calls
  Distribution direct;       // the executor called without dispatch, side by side
  double download_us = 0;    // explicit download of the outputs
  std::uint64_t steady_module_installs = 0;
  std::uint64_t steady_backend_constructions = 0;
  std::uint64_t steady_transfers = 0;
  bool residency_ok = false;
  bool check_ok = false;
  double overhead_ns() const { return (steady.median - direct.median) * 1e3; }
  double overhead_ratio() const { return direct.median > 0 ? steady.median / direct.median : 0; }
};

struct BackendResult {
  std::string backend;
  std::string status = "ok";  // ok | unavailable
  std::string message;
  double setup_ms = 0;  // runtime + backend construction
  std::string description;
  std::vector<CaseResult> cases;
};

struct BenchOptions {
  int repeat = 200;
  std::vector<std::string> cases;
  CaseSizes sizes;
  bool progress = true;
};

// Builds a runtime of `backend` and runs the named cases on it.
BackendResult run_backend(BackendKind backend, const BenchOptions& options);
// Runs `cases` on `rt` (the part of run_backend after the runtime exists; tests drive the gate
// through it with cases of their own).
std::vector<CaseResult> run_cases(const std::shared_ptr<EagerRuntime>& rt,
                                  std::vector<BenchCase> cases, const BenchOptions& options);

}  // namespace tenferro::cli::bench
