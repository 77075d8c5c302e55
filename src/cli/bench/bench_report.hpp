// Renders bench results as a readable table and as JSON.
#pragma once

#include <string>
#include <vector>

#include "cli/bench/bench_runner.hpp"

namespace tenferro::cli::bench {

std::string render_table(const std::vector<BackendResult>& results, const BenchOptions& options);
std::string render_json(const std::vector<BackendResult>& results, const BenchOptions& options);
// True when every steady-state loop ran with zero module installs, zero backend constructions
// and zero transfers, and every case either passed its check or was refused (Unsupported) on
// a backend whose family table does not admit it.
bool gate_passed(const std::vector<BackendResult>& results);
// The command's exit status for these results: kExitOk, or kExitGateFailed.
int gate_exit_status(const std::vector<BackendResult>& results);

}  // namespace tenferro::cli::bench
