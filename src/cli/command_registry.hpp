// The `tenferro` command's sub-command registry and the small argument helpers they share.
// A sub-command is one file that registers itself:
//   TENFERRO_REGISTER_COMMAND(einsum, "contract .npy operands", run_einsum);
#pragma once

#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "tenferro/runtime/runtime.hpp"

namespace tenferro::cli {

// A wrong command line: printed as a usage error, exit status 2.
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class CommandArgs {
 public:
  explicit CommandArgs(std::vector<std::string> args) : args_(std::move(args)) {}
  // Removes and returns the value of `--name VALUE` or `--name=VALUE` (UsageError if missing).
  std::optional<std::string> take_option(std::string_view name);
  // Removes and returns the value of the short option `-c VALUE` (UsageError if missing).
  std::optional<std::string> take_short_option(char letter);
  // Removes `--name`; true when it was present.
  bool take_flag(std::string_view name);
  // Removes and returns the output path or prefix, spelled `-o PATH`, `--output PATH` or
  // `--output=PATH` (UsageError when given twice, empty, or ending in '/': such a path would
  // write a hidden file like `.q.npy` or none at all).
  std::optional<std::string> take_output();
  // Removes and returns the first argument left once the options are taken, even when it starts
  // with '-' (einsum's SUBSCRIPTS '->' does); nullopt when none is left or it is a `--option`.
  std::optional<std::string> take_first_positional();
  // The remaining arguments; UsageError when an unknown `--option` is left.
  std::vector<std::string> positionals() const;
  // A runtime for --backend cpu|cuda|webgpu; remembered so the global --stats can print it.
  std::shared_ptr<EagerRuntime> make_runtime(std::string_view backend);
  const std::shared_ptr<EagerRuntime>& runtime() const { return runtime_; }

 private:
  std::vector<std::string> args_;
  std::shared_ptr<EagerRuntime> runtime_;
};

// Parsers for option values (UsageError naming the option on bad input).
long long parse_int(std::string_view option, std::string_view text);
double parse_double(std::string_view option, std::string_view text);
std::vector<long long> parse_int_list(std::string_view option, std::string_view text);
// The one rule for `--repeat N` of every command: an integer from 1 to kMaxRepeat.
inline constexpr long long kMaxRepeat = 1000000;
int parse_repeat(std::string_view text);

using CommandFn = int (*)(CommandArgs&);
struct Command {
  std::string name;
  std::string summary;
  CommandFn run;
};
bool register_command(std::string name, std::string summary, CommandFn run);
const std::vector<Command>& commands();

}  // namespace tenferro::cli

#define TENFERRO_REGISTER_COMMAND(name, summary, fn)              \
  [[maybe_unused]] static const bool tenferro_registered_##name = \
      ::tenferro::cli::register_command(#name, summary, fn)
