#include "cli/bench/bench_report.hpp"

#include <cstdio>
#include <cstdlib>
#include <thread>

#include "backends/cpu/blas_info.hpp"
#include "cli/exit_status.hpp"
#include "cli/json.hpp"
#include "tenferro/config.hpp"

namespace tenferro::cli::bench {
namespace {

std::string fmt(const char* format, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, format, v);
  return buf;
}

std::string env_or(const char* name, const char* fallback) {
  const char* v = std::getenv(name);
  return v ? v : fallback;
}

bool case_passed(const CaseResult& c) {
  // A typed refusal where the family's table does not admit the case is correct (run_cases
  // marks a refusal of an admitted case "failed").
  if (c.status == "unsupported") return true;
  return c.status == "ok" && c.check_ok && c.residency_ok && c.steady_module_installs == 0 &&
         c.steady_backend_constructions == 0 && c.steady_transfers == 0;
}

}  // namespace

bool gate_passed(const std::vector<BackendResult>& results) {
  for (const BackendResult& b : results) {
    for (const CaseResult& c : b.cases) {
      if (!case_passed(c)) return false;
    }
  }
  return true;
}

int gate_exit_status(const std::vector<BackendResult>& results) {
  return gate_passed(results) ? kExitOk : kExitGateFailed;
}

std::string render_table(const std::vector<BackendResult>& results, const BenchOptions& options) {
  std::string out;
  out += "tenferro bench: " + std::to_string(options.repeat) + " synchronized calls per case; " +
         std::to_string(std::thread::hardware_concurrency()) +
         " hardware threads, OPENBLAS_NUM_THREADS=" + env_or("OPENBLAS_NUM_THREADS", "unset") +
         "\n";
  const cpu_blas::BlasInfo blas = cpu_blas::blas_info();
  out += cpu_blas::blas_line(blas) + "\n";
  if (const std::string w = cpu_blas::blas_warning(blas); !w.empty()) out += w + "\n";
  out +=
      "times in microseconds per call (median [p10, p90]); 'direct' is the backend executor "
      "called without the dispatch, measured alternately with the eager call\n";
  for (const BackendResult& b : results) {
    out += "\n[" + b.backend + "] ";
    if (b.status != "ok") {
      out += b.status + ": " + b.message + "\n";
      continue;
    }
    out += b.description + "; setup (runtime + backend) " + fmt("%.3f", b.setup_ms) + " ms\n";
    char line[512];
    std::snprintf(line, sizeof line, "  %-7s %-4s %10s %11s %26s %10s %11s %7s %10s %s\n", "case",
                  "type", "upload", "first call", "steady median [p10, p90]", "direct", "overhead",
                  "ratio", "download", "installs/constructions/transfers in loop, check");
    out += line;
    for (const CaseResult& c : b.cases) {
      if (c.status != "ok") {
        std::snprintf(line, sizeof line, "  %-7s %-4s %s: %s\n", c.name.c_str(), c.dtype.c_str(),
                      c.status.c_str(), c.message.c_str());
        out += line;
        continue;
      }
      const std::string steady = fmt("%.1f", c.steady.median) + " [" + fmt("%.1f", c.steady.p10) +
                                 ", " + fmt("%.1f", c.steady.p90) + "]";
      std::snprintf(
          line, sizeof line,
          "  %-7s %-4s %10.1f %11.1f %26s %10.1f %8.0f ns %7.3f %10.1f %llu/%llu/%llu, %s\n",
          c.name.c_str(), c.dtype.c_str(), c.transfer_us, c.first_call_us, steady.c_str(),
          c.direct.median, c.overhead_ns(), c.overhead_ratio(), c.download_us,
          static_cast<unsigned long long>(c.steady_module_installs),
          static_cast<unsigned long long>(c.steady_backend_constructions),
          static_cast<unsigned long long>(c.steady_transfers),
          c.check_ok && c.residency_ok ? "ok" : "FAILED");
      out += line;
    }
    for (const CaseResult& c : b.cases) out += "    " + c.name + ": " + c.description + "\n";
  }
  out += gate_passed(results) ? "\ngate: passed (zero installs, constructions and transfers in "
                                "every steady-state loop)\n"
                              : "\ngate: FAILED\n";
  return out;
}

std::string render_json(const std::vector<BackendResult>& results, const BenchOptions& options) {
  auto num = [](double v) { return fmt("%.6g", v); };
  auto dist = [&](const Distribution& d) {
    return "{\"median_us\": " + num(d.median) + ", \"p10_us\": " + num(d.p10) +
           ", \"p90_us\": " + num(d.p90) + ", \"calls\": " + std::to_string(d.calls) + "}";
  };
  std::string out =
      "{\"tenferro_version\": " + json_string(TENFERRO_VERSION_STRING) +
      ", \"repeat\": " + std::to_string(options.repeat) +
      ", \"hardware_threads\": " + std::to_string(std::thread::hardware_concurrency()) +
      ", \"openblas_num_threads\": " + json_string(env_or("OPENBLAS_NUM_THREADS", "unset")) +
      ", \"blas_core\": " + json_string(cpu_blas::blas_info().core) +
      ", \"blas_generic_kernel\": " + (cpu_blas::blas_info().generic_kernel ? "true" : "false") +
      ", \"blas_forced_below_cpu\": " +
      (cpu_blas::blas_info().forced_below_cpu ? "true" : "false") +
      ", \"gate_passed\": " + (gate_passed(results) ? "true" : "false") + ", \"backends\": [";
  for (std::size_t i = 0; i < results.size(); ++i) {
    const BackendResult& b = results[i];
    out += (i ? ", " : "") + std::string("{\"backend\": ") + json_string(b.backend) +
           ", \"status\": " + json_string(b.status) + ", \"message\": " + json_string(b.message) +
           ", \"description\": " + json_string(b.description) +
           ", \"setup_ms\": " + num(b.setup_ms) + ", \"cases\": [";
    for (std::size_t j = 0; j < b.cases.size(); ++j) {
      const CaseResult& c = b.cases[j];
      out +=
          (j ? ", " : "") + std::string("{\"case\": ") + json_string(c.name) +
          ", \"description\": " + json_string(c.description) +
          ", \"dtype\": " + json_string(c.dtype) + ", \"status\": " + json_string(c.status) +
          ", \"message\": " + json_string(c.message) + ", \"transfer_us\": " + num(c.transfer_us) +
          ", \"first_call_us\": " + num(c.first_call_us) + ", \"steady\": " + dist(c.steady) +
          ", \"direct\": " + dist(c.direct) + ", \"overhead_ns\": " + num(c.overhead_ns()) +
          ", \"overhead_ratio\": " + num(c.overhead_ratio()) +
          ", \"download_us\": " + num(c.download_us) +
          ", \"steady_module_installs\": " + std::to_string(c.steady_module_installs) +
          ", \"steady_backend_constructions\": " + std::to_string(c.steady_backend_constructions) +
          ", \"steady_transfers\": " + std::to_string(c.steady_transfers) +
          ", \"residency_ok\": " + (c.residency_ok ? "true" : "false") +
          ", \"check_ok\": " + (c.check_ok ? "true" : "false") + "}";
    }
    out += "]}";
  }
  return out + "]}\n";
}

}  // namespace tenferro::cli::bench
