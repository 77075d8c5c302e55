// Runs the `tenferro` command (path from the TENFERRO_CLI environment variable set by CTest)
// and captures its exit status, stdout and stderr.
#pragma once

#include <string>

namespace tenferro::testing {

struct CommandResult {
  int status = -1;
  std::string out;
  std::string err;
};

// The CLI path, or "" when the tests run without it (callers then GTEST_SKIP with a message).
std::string cli_path();
// Runs `cli_path() + " " + args` through the shell.
CommandResult run_cli(const std::string& args);

}  // namespace tenferro::testing
