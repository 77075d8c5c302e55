// The `tenferro` command: global flags, sub-command dispatch and the error contract
// (typed errors -> "tenferro: error: <Kind>: <message>", exit 1; usage errors exit 2; the
// statuses are named in cli/exit_status.hpp).
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <exception>
#include <iostream>
#include <string>
#include <vector>

#include "cli/command_registry.hpp"
#include "cli/exit_status.hpp"
#include "tenferro/config.hpp"
#include "tenferro/core/error.hpp"

namespace {

void print_help() {
  std::cout
      << "tenferro " TENFERRO_VERSION_STRING
         " - placement-aware eager tensor runtime\n\n"
         "usage: tenferro [--stats] <command> [args...]\n"
         "       tenferro --help | --version\n\n"
         "global flags:\n"
         "  --stats     print the runtime's statistics as JSON on stderr after the command\n\n"
         "commands:\n";
  for (const auto& c : tenferro::cli::commands()) {
    std::string name = c.name;
    name.resize(10, ' ');
    std::cout << "  " << name << "  " << c.summary << "\n";
  }
  std::cout << "\nRun `tenferro <command> --help` for a command's options.\n";
}

// Prints the error line of the exception in flight and returns the exit status: kExitUsage
// for a usage error, kExitTypedError for everything else. A typed error shows its kind, its own
// message and, when it wraps others, its root cause (e.g. why a .npy file was not accepted).
int report_current_error() {
  try {
    throw;
  } catch (const tenferro::cli::UsageError& e) {
    std::cerr << "tenferro: usage error: " << e.what() << "\n";
    return tenferro::cli::kExitUsage;
  } catch (const std::exception& e) {
    if (const tenferro::Error* typed = tenferro::reason(e)) {
      std::cerr << "tenferro: error: " << tenferro::error_kind_name(typed->kind()) << ": "
                << e.what();
      const tenferro::Error* root = tenferro::root_reason(e);
      if (root != nullptr && root != dynamic_cast<const tenferro::Error*>(&e))
        std::cerr << " (cause: " << root->what() << ")";
      std::cerr << "\n";
    } else {
      std::cerr << "tenferro: error: " << e.what() << "\n";
    }
    return tenferro::cli::kExitTypedError;
  } catch (...) {
    std::cerr << "tenferro: error: unknown failure\n";
    return tenferro::cli::kExitTypedError;
  }
}

int run(std::vector<std::string> args) {
  bool stats = false;
  while (!args.empty() && args.front().rfind("--", 0) == 0) {
    const std::string flag = args.front();
    args.erase(args.begin());
    if (flag == "--help") {
      print_help();
      return tenferro::cli::kExitOk;
    }
    if (flag == "--version") {
      std::cout << "tenferro " TENFERRO_VERSION_STRING "\n";
      return tenferro::cli::kExitOk;
    }
    if (flag == "--stats") {
      stats = true;
      continue;
    }
    throw tenferro::cli::UsageError("unknown global flag " + flag);
  }
  if (args.empty()) {
    print_help();
    return tenferro::cli::kExitUsage;
  }
  const std::string name = args.front();
  args.erase(args.begin());
  for (const auto& c : tenferro::cli::commands()) {
    if (c.name != name) continue;
    tenferro::cli::CommandArgs command_args(std::move(args));
    int status = 0;
    try {
      status = c.run(command_args);
    } catch (...) {
      // The error line first: it is what a reader of stderr looks for; the statistics follow.
      status = report_current_error();
    }
    if (stats && command_args.runtime())
      std::cerr << command_args.runtime()->stats().to_json() << "\n";
    return status;
  }
  throw tenferro::cli::UsageError("unknown command '" + name + "' (see tenferro --help)");
}

}  // namespace

int main(int argc, char** argv) {
  int status = 0;
  try {
    status = run(std::vector<std::string>(argv + 1, argv + argc));
  } catch (...) {
    status = report_current_error();
  }
  // stdout is an output too: a result printed to a full disk or a closed pipe is an error,
  // not a silent success.
  if (!std::cout.flush()) {
    const int error = errno;
    try {
      tenferro::throw_error(
          tenferro::ErrorKind::Validation, tenferro::ErrorPhase::Io, "stdout",
          std::string("cannot write the standard output: ") + std::strerror(error));
    } catch (...) {
      const int write_status = report_current_error();
      if (status == 0) status = write_status;
    }
  }
  return status;
}
