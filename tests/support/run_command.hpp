// Runs the `tenferro` command (path from the TENFERRO_CLI environment variable set by CTest)
// and captures its exit status, stdout and stderr.
#pragma once

#include <string>
#include <vector>

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

// Limits applied to the command's process only (never to the test's own).
struct CommandLimits {
  // RLIMIT_FSIZE in bytes, with SIGXFSZ ignored so an oversized write fails with EFBIG (as on a
  // full disk) instead of killing the command; 0 = no limit.
  unsigned long long file_size_bytes = 0;
  // SIGALRM after this many seconds, so a command that hangs (e.g. on a FIFO) fails the test
  // with signal 14 instead of blocking it; 0 = none.
  unsigned timeout_seconds = 0;
};

// Runs the command with exactly these arguments (no shell, so any byte string is one argument,
// including "" and "->"), under `limits`. status is the exit status, or -1 when the command
// died of a signal (a crash; `signal` then says which).
struct ArgvResult : CommandResult {
  int signal = 0;
};
ArgvResult run_cli_argv(const std::vector<std::string>& args, const CommandLimits& limits = {});

}  // namespace tenferro::testing
