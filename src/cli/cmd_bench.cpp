// `tenferro bench`: the performance gate. Per available backend and case it reports setup,
// explicit transfer, first call, synchronized steady state (median, p10, p90), download and
// the eager overhead against the executor called directly; it exits kExitGateFailed (3) when a
// steady-state loop installed a module, built a backend or moved data, a result was wrong, or
// a case its family's table admits was refused.
#include <unistd.h>

#include <algorithm>
#include <iostream>

#include "cli/bench/bench_report.hpp"
#include "cli/bench/bench_runner.hpp"
#include "cli/command_registry.hpp"
#include "core/atomic_file.hpp"

namespace tenferro::cli {
namespace {

std::vector<std::string> split(const std::string& text) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t comma = text.find(',', start);
    out.push_back(
        text.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return out;
}

// A problem size: the references of the checks are naive (cubic matmul, quadratic DFT), so the
// sizes are bounded to keep a run's checks in seconds.
std::int64_t parse_size(std::string_view option, std::string_view text, long long max) {
  const long long n = parse_int(option, text);
  if (n < 1 || n > max)
    throw UsageError(std::string(option) + " must be between 1 and " + std::to_string(max));
  return n;
}

int run_bench(CommandArgs& args) {
  if (args.take_flag("help")) {
    std::cout
        << "usage: tenferro bench [--backend cpu|cuda|webgpu|all] [--repeat N] [--json FILE]\n"
           "                      [--cases einsum,qr,svd,eigh,fft] [--matrix N]\n"
           "                      [--fft-length N]\n"
           "                      [--quiet]\n"
           "  --matrix N      extent of the einsum operands and the QR/SVD/eigh inputs (default "
           "64)\n"
           "  --fft-length N  length of the FFT input (default 4096); tiny sizes (--matrix 4\n"
           "                  --fft-length 16) isolate the eager overhead from the kernels\n"
           "exit status: 0 gate passed, 1 typed error, 2 usage error, 3 gate failed\n";
    return 0;
  }
  bench::BenchOptions options;
  const std::string backend = args.take_option("backend").value_or("cpu");
  if (auto repeat = args.take_option("repeat")) options.repeat = parse_repeat(*repeat);
  const auto json_file = args.take_option("json");
  if (auto m = args.take_option("matrix")) options.sizes.matrix = parse_size("--matrix", *m, 1024);
  if (auto l = args.take_option("fft-length"))
    options.sizes.fft_length = parse_size("--fft-length", *l, 16384);
  options.cases = bench::all_case_names();
  if (auto cases = args.take_option("cases")) {
    options.cases = split(*cases);
    for (const std::string& c : options.cases) {
      if (std::find(bench::all_case_names().begin(), bench::all_case_names().end(), c) ==
          bench::all_case_names().end()) {
        throw UsageError("unknown case '" + c + "' (einsum, qr, svd, eigh, fft)");
      }
    }
  }
  // The progress line rewrites itself with '\r': only on a terminal.
  options.progress = !args.take_flag("quiet") && ::isatty(STDERR_FILENO);
  if (!args.positionals().empty()) throw UsageError("bench takes no positional arguments");

  std::vector<BackendKind> kinds;
  if (backend == "all") {
    kinds.assign(kAllBackendKinds.begin(), kAllBackendKinds.end());
  } else {
    BackendKind k{};
    if (!parse_backend_kind(backend, k))
      throw UsageError("--backend must be cpu, cuda, webgpu or all");
    kinds = {k};
  }
  std::vector<bench::BackendResult> results;
  for (BackendKind k : kinds) results.push_back(bench::run_backend(k, options));
  // A single named backend that is unavailable is an error; with `all` it is only reported.
  if (backend != "all" && results[0].status != "ok") {
    std::cerr << "tenferro: error: " << results[0].message << "\n";
    return 1;
  }
  std::cout << bench::render_table(results, options);
  if (json_file) {
    if (json_file->empty()) throw UsageError("--json needs a non-empty path");
    io::write_file_atomically(*json_file, bench::render_json(results, options), "bench --json");
  }
  return bench::gate_exit_status(results);
}

}  // namespace
}  // namespace tenferro::cli

TENFERRO_REGISTER_COMMAND(bench, "the performance gate: phase-separated timings per backend",
                          tenferro::cli::run_bench);
