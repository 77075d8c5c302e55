#include "cli/bench/bench_runner.hpp"

#include <algorithm>
#include <chrono>
#include <iostream>

#include "tenferro/core/error.hpp"
#include "tenferro/runtime/stats.hpp"

namespace tenferro::cli::bench {
namespace {

using Clock = std::chrono::steady_clock;

double micros_since(Clock::time_point start) {
  return std::chrono::duration<double, std::micro>(Clock::now() - start).count();
}

Distribution distribution(std::vector<double> samples) {
  Distribution d;
  d.calls = static_cast<int>(samples.size());
  if (samples.empty()) return d;
  std::sort(samples.begin(), samples.end());
  auto at = [&](double q) {
    return samples[static_cast<std::size_t>(q * static_cast<double>(samples.size() - 1) + 0.5)];
  };
  d.median = at(0.5);
  d.p10 = at(0.1);
  d.p90 = at(0.9);
  return d;
}

void progress(const BenchOptions& options, const std::string& backend, const std::string& name,
              int done, int total) {
  if (!options.progress) return;
  std::cerr << "\rbench: " << backend << " " << name << " " << done << "/" << total << "        "
            << std::flush;
}

void run_case(const std::shared_ptr<EagerRuntime>& rt, BenchCase& c, const BenchOptions& options,
              CaseResult& r) {
  // Explicit transfer of the inputs.
  auto start = Clock::now();
  std::vector<EagerTensor> inputs;
  for (const Tensor& t : c.inputs) inputs.push_back(rt->upload(t));
  rt->synchronize();
  r.transfer_us = micros_since(start);

  // First call: module install, planning, pipeline compilation.
  start = Clock::now();
  std::vector<EagerTensor> outputs = c.eager(inputs);
  rt->synchronize();
  r.first_call_us = micros_since(start);

  // Residency: outputs stay in this runtime and its placement (checked outside the loops).
  r.residency_ok = !outputs.empty();
  for (const EagerTensor& o : outputs) {
    r.residency_ok =
        r.residency_ok && o.runtime() == rt && o.placement() == rt->backend().placement();
  }

  // Steady state, eager and direct alternating so drift hits both alike.
  const EagerCall direct = c.prepare_direct(rt);
  direct(inputs);  // the direct path's own warm-up
  rt->synchronize();
  const RuntimeStats before = rt->stats();
  const std::uint64_t constructions_before = process_backend_constructions();
  std::vector<double> eager_times, direct_times;
  eager_times.reserve(static_cast<std::size_t>(options.repeat));
  direct_times.reserve(static_cast<std::size_t>(options.repeat));
  for (int i = 0; i < options.repeat; ++i) {
    // The previous results are released before the clock starts, as the direct side's are
    // (after its clock stops): neither side times the other's deallocations.
    outputs.clear();
    start = Clock::now();
    outputs = c.eager(inputs);
    rt->synchronize();
    eager_times.push_back(micros_since(start));
    start = Clock::now();
    std::vector<EagerTensor> direct_outputs = direct(inputs);
    rt->synchronize();
    direct_times.push_back(micros_since(start));
    if (i % 16 == 0) progress(options, r.backend, r.name, i, options.repeat);
  }
  const RuntimeStats after = rt->stats();
  r.steady_module_installs = after.module_installs - before.module_installs;
  r.steady_backend_constructions = process_backend_constructions() - constructions_before;
  r.steady_transfers = (after.uploads - before.uploads) + (after.downloads - before.downloads);
  r.steady = distribution(std::move(eager_times));
  r.direct = distribution(std::move(direct_times));

  // Explicit download of the results, then the numerical check.
  start = Clock::now();
  std::vector<Tensor> host_outputs;
  for (const EagerTensor& o : outputs) host_outputs.push_back(o.download());
  r.download_us = micros_since(start);
  c.check(c.inputs, host_outputs);
  r.check_ok = true;
}

}  // namespace

std::vector<CaseResult> run_cases(const std::shared_ptr<EagerRuntime>& rt,
                                  std::vector<BenchCase> cases, const BenchOptions& options) {
  std::vector<CaseResult> results;
  for (BenchCase& c : cases) {
    CaseResult r;
    r.backend = std::string(backend_kind_name(rt->backend_kind()));
    r.name = c.name;
    r.description = c.description;
    r.dtype = std::string(dtype_name(c.dtype));
    try {
      run_case(rt, c, options, r);
    } catch (const Error& e) {
      // A case with no table cannot justify a refusal.
      const bool admitted = c.admission == nullptr ||
                            c.admission->admits(c.admission_op, rt->backend_kind(), c.dtype);
      r.status = e.kind() == ErrorKind::Unsupported && !admitted ? "unsupported" : "failed";
      r.message = std::string(error_kind_name(e.kind())) + ": " + e.what();
      if (e.kind() == ErrorKind::Unsupported && admitted) {
        r.message += " (admitted by " +
                     (c.admission ? "the " + c.admission->family() + " table" : "no table") +
                     " for " + r.dtype + " on " + r.backend + ": a refusal here is a defect)";
      }
    } catch (const std::exception& e) {
      r.status = "failed";
      r.message = e.what();
    }
    results.push_back(std::move(r));
  }
  return results;
}

BackendResult run_backend(BackendKind kind, const BenchOptions& options) {
  BackendResult result;
  result.backend = std::string(backend_kind_name(kind));
  std::shared_ptr<EagerRuntime> rt;
  const auto start = Clock::now();
  try {
    rt = EagerRuntime::of(kind);
  } catch (const Error& e) {
    result.status = "unavailable";
    result.message = std::string(error_kind_name(e.kind())) + ": " + e.what();
    return result;
  }
  result.setup_ms = micros_since(start) / 1e3;
  result.description = rt->backend().description();

  result.cases = run_cases(rt, make_cases(kind, options.cases, options.sizes), options);
  if (options.progress) std::cerr << "\r" << std::string(60, ' ') << "\r" << std::flush;
  return result;
}

}  // namespace tenferro::cli::bench
