// `tenferro info [--json]`: version, compiled-in backends (engine id, device availability),
// the BLAS/LAPACK and the kernel it runs, and every family's admission table.
#include <iostream>
#include <vector>

#include "backends/cpu/blas_info.hpp"
#include "backends/cpu/host_parallel.hpp"
#include "cli/command_registry.hpp"
#include "cli/family_tables.hpp"
#include "cli/json.hpp"
#include "runtime/registration_table.hpp"
#include "tenferro/config.hpp"
#include "tenferro/core/error.hpp"

namespace tenferro::cli {
namespace {

struct BackendReport {
  std::string kind;
  bool compiled = false;
  bool available = false;
  std::string engine_id;
  std::string description;  // device description, or why it is unavailable
};

// A backend that is compiled out answers "not compiled in" without constructing anything.
BackendReport probe(BackendKind kind) {
  const bool compiled = runtime_internal::backend_compiled_in(kind);
  BackendReport r{std::string(backend_kind_name(kind)), compiled, false, "", ""};
  if (!compiled) {
    r.description = "not compiled in";
    return r;
  }
  try {
    const std::shared_ptr<EagerRuntime> rt = EagerRuntime::of(kind);
    r.available = rt->backend().device_available();
    r.engine_id = rt->engine_id().str();
    r.description = rt->backend().description();
  } catch (const Error& e) {
    r.description = std::string(error_kind_name(e.kind())) + ": " + e.what();
  }
  return r;
}

std::string blas_json(const cpu_blas::BlasInfo& b) {
  return "{\"vendor\": " + json_string(b.vendor) + ", \"version\": " + json_string(b.version) +
         ", \"core\": " + json_string(b.core) + ", \"config\": " + json_string(b.config) +
         ", \"cpu_isa\": " + json_string(b.cpu_isa) +
         ", \"kernel_isa\": " + json_string(b.kernel_isa) + ", \"coretype_env\": " +
         (b.coretype_env.empty() ? std::string("null") : json_string(b.coretype_env)) +
         ", \"generic_kernel\": " + (b.generic_kernel ? "true" : "false") +
         ", \"forced_below_cpu\": " + (b.forced_below_cpu ? "true" : "false") + "}";
}

int run_info(CommandArgs& args) {
  const bool json = args.take_flag("json");
  if (args.take_flag("help")) {
    std::cout << "usage: tenferro info [--json]\n";
    return 0;
  }
  if (!args.positionals().empty()) throw UsageError("info takes no arguments");
  std::vector<BackendReport> backends;
  for (BackendKind kind : kAllBackendKinds) backends.push_back(probe(kind));
  const auto tables = family_admission_tables();
  const cpu_blas::BlasInfo blas = cpu_blas::blas_info();
  if (json) {
    std::cout << "{\"version\": " << json_string(TENFERRO_VERSION_STRING)
              << ", \"fftw\": " << (TENFERRO_HAS_FFTW ? "true" : "false")
              << ", \"host_kernel_threads\": " << cpu_parallel::host_kernel_threads()
              << ", \"blas\": " << blas_json(blas) << ", \"backends\": [";
    for (std::size_t i = 0; i < backends.size(); ++i) {
      const BackendReport& b = backends[i];
      std::cout << (i ? ", " : "") << "{\"kind\": " << json_string(b.kind)
                << ", \"compiled\": " << (b.compiled ? "true" : "false")
                << ", \"device_available\": " << (b.available ? "true" : "false")
                << ", \"engine_id\": " << (b.engine_id.empty() ? "null" : json_string(b.engine_id))
                << ", \"description\": " << json_string(b.description) << "}";
    }
    std::cout << "], \"families\": [";
    for (std::size_t i = 0; i < tables.size(); ++i)
      std::cout << (i ? ", " : "") << tables[i]->to_json();
    std::cout << "]}\n";
    return 0;
  }
  std::cout << "tenferro " TENFERRO_VERSION_STRING "\n\nbackends:\n";
  for (const BackendReport& b : backends) {
    std::cout << "  " << b.kind << ": "
              << (!b.compiled ? "not compiled in"
                              : (b.available ? "available, engine " + b.engine_id : "unavailable"))
              << (b.compiled ? " - " + b.description : "") << "\n";
  }
  std::cout << "  FFTW (CPU FFT provider, GPL): " << (TENFERRO_HAS_FFTW ? "on" : "off") << "\n";
  std::cout << "  host kernel threads: " << cpu_parallel::host_kernel_threads()
            << " (TENFERRO_NUM_THREADS; default: OpenBLAS's thread count)\n";
  std::cout << "  " << cpu_blas::blas_line(blas) << "\n";
  if (const std::string w = cpu_blas::blas_warning(blas); !w.empty())
    std::cout << "  " << w << "\n";
  std::cout << "\ncapabilities (op x backend -> dtypes):\n";
  for (const AdmissionTable* t : tables) std::cout << t->to_text() << "\n";
  return 0;
}

}  // namespace
}  // namespace tenferro::cli

TENFERRO_REGISTER_COMMAND(info, "print version, backends and capability tables",
                          tenferro::cli::run_info);
