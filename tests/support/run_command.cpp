#include "support/run_command.hpp"

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>

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

ArgvResult run_cli_argv(const std::vector<std::string>& args, const CommandLimits& limits) {
  namespace fs = std::filesystem;
  static int counter = 0;
  const std::string stem =
      "tenferro-cli-argv-" + std::to_string(::getpid()) + "-" + std::to_string(counter++);
  const fs::path out_file = fs::temp_directory_path() / (stem + ".out");
  const fs::path err_file = fs::temp_directory_path() / (stem + ".err");
  const std::string cli = cli_path();
  std::vector<char*> argv;
  argv.push_back(const_cast<char*>(cli.c_str()));
  for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);

  ArgvResult r;
  const pid_t pid = ::fork();
  if (pid < 0) return r;
  if (pid == 0) {
    // The child: only async-signal-safe calls until exec.
    const int out = ::open(out_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    const int err = ::open(err_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (out < 0 || err < 0 || ::dup2(out, 1) < 0 || ::dup2(err, 2) < 0) ::_exit(127);
    if (limits.file_size_bytes > 0) {
      ::signal(SIGXFSZ, SIG_IGN);  // an ignored disposition survives exec
      const rlimit limit{limits.file_size_bytes, limits.file_size_bytes};
      if (::setrlimit(RLIMIT_FSIZE, &limit) != 0) ::_exit(127);
    }
    if (limits.timeout_seconds > 0) ::alarm(limits.timeout_seconds);  // survives exec
    ::execv(cli.c_str(), argv.data());
    ::_exit(127);
  }
  int raw = 0;
  while (::waitpid(pid, &raw, 0) < 0 && errno == EINTR) {
  }
  if (WIFEXITED(raw)) r.status = WEXITSTATUS(raw);
  if (WIFSIGNALED(raw)) r.signal = WTERMSIG(raw);
  for (const auto& [file, text] : {std::pair{out_file, &r.out}, std::pair{err_file, &r.err}}) {
    std::ifstream in(file);
    std::stringstream ss;
    ss << in.rdbuf();
    *text = ss.str();
    fs::remove(file);
  }
  return r;
}

}  // namespace tenferro::testing
