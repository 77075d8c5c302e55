#include "support/run_command.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace tenferro::testing {

std::string cli_path() {
  const char* p = std::getenv("TENFERRO_CLI");
  return p ? std::string(p) : std::string();
}

CommandResult run_cli(const std::string& args) {
  namespace fs = std::filesystem;
  static int counter = 0;
  const fs::path err_file =
      fs::temp_directory_path() /
      ("tenferro-cli-err-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
  const std::string command = cli_path() + " " + args + " 2>" + err_file.string();
  CommandResult r;
  FILE* pipe = ::popen(command.c_str(), "r");
  if (!pipe) return r;
  char buffer[4096];
  std::size_t n;
  while ((n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0) r.out.append(buffer, n);
  const int raw = ::pclose(pipe);
  r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  std::ifstream err(err_file);
  std::stringstream ss;
  ss << err.rdbuf();
  r.err = ss.str();
  fs::remove(err_file);
  return r;
}

}  // namespace tenferro::testing
