#include "cli/command_registry.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdlib>

#include "tenferro/runtime/placement.hpp"

namespace tenferro::cli {

namespace {
std::vector<Command>& registry() {
  static std::vector<Command> commands;
  return commands;
}
}  // namespace

bool register_command(std::string name, std::string summary, CommandFn run) {
  registry().push_back(Command{std::move(name), std::move(summary), run});
  std::sort(registry().begin(), registry().end(),
            [](const Command& a, const Command& b) { return a.name < b.name; });
  return true;
}

const std::vector<Command>& commands() {
  return registry();
}

std::optional<std::string> CommandArgs::take_option(std::string_view name) {
  const std::string flag = "--" + std::string(name);
  for (auto it = args_.begin(); it != args_.end(); ++it) {
    if (*it == flag) {
      if (std::next(it) == args_.end()) throw UsageError(flag + " needs a value");
      std::string value = *std::next(it);
      args_.erase(it, it + 2);
      return value;
    }
    if (it->rfind(flag + "=", 0) == 0) {
      std::string value = it->substr(flag.size() + 1);
      args_.erase(it);
      return value;
    }
  }
  return std::nullopt;
}

std::optional<std::string> CommandArgs::take_short_option(char letter) {
  const std::string flag = std::string("-") + letter;
  auto it = std::find(args_.begin(), args_.end(), flag);
  if (it == args_.end()) return std::nullopt;
  if (std::next(it) == args_.end()) throw UsageError(flag + " needs a value");
  std::string value = *std::next(it);
  args_.erase(it, it + 2);
  return value;
}

bool CommandArgs::take_flag(std::string_view name) {
  const std::string flag = "--" + std::string(name);
  auto it = std::find(args_.begin(), args_.end(), flag);
  if (it == args_.end()) return false;
  args_.erase(it);
  return true;
}

std::optional<std::string> CommandArgs::take_output() {
  const auto short_form = take_short_option('o');
  const auto long_form = take_option("output");
  if (short_form && long_form) throw UsageError("give -o or --output, not both");
  const auto output = short_form ? short_form : long_form;
  if (output && output->empty()) throw UsageError("-o/--output needs a non-empty path");
  if (output && output->back() == '/')
    throw UsageError("-o/--output '" + *output + "' names a folder, not a file");
  return output;
}

std::optional<std::string> CommandArgs::take_first_positional() {
  if (args_.empty() || args_.front().rfind("--", 0) == 0) return std::nullopt;
  std::string first = std::move(args_.front());
  args_.erase(args_.begin());
  return first;
}

std::vector<std::string> CommandArgs::positionals() const {
  for (const std::string& a : args_) {
    // "-o" style short options are taken by commands before this; a lone "-" is a value.
    if (a.size() > 1 && a[0] == '-' && !(a[1] >= '0' && a[1] <= '9') && a[1] != '.') {
      throw UsageError("unknown option " + a);
    }
  }
  return args_;
}

std::shared_ptr<EagerRuntime> CommandArgs::make_runtime(std::string_view backend) {
  BackendKind kind{};
  if (!parse_backend_kind(backend, kind)) {
    throw UsageError("--backend must be cpu, cuda or webgpu, not '" + std::string(backend) + "'");
  }
  runtime_ = EagerRuntime::of(kind);
  return runtime_;
}

long long parse_int(std::string_view option, std::string_view text) {
  const std::string s(text);
  char* end = nullptr;
  errno = 0;
  const long long v = std::strtoll(s.c_str(), &end, 10);
  if (s.empty() || errno != 0 || end != s.c_str() + s.size()) {
    throw UsageError(std::string(option) + " expects an integer, not '" + s + "'");
  }
  return v;
}

double parse_double(std::string_view option, std::string_view text) {
  const std::string s(text);
  char* end = nullptr;
  errno = 0;
  const double v = std::strtod(s.c_str(), &end);
  if (s.empty() || errno != 0 || end != s.c_str() + s.size()) {
    throw UsageError(std::string(option) + " expects a number, not '" + s + "'");
  }
  return v;
}

int parse_repeat(std::string_view text) {
  const long long n = parse_int("--repeat", text);
  if (n < 1 || n > kMaxRepeat)
    throw UsageError("--repeat must be between 1 and " + std::to_string(kMaxRepeat));
  return static_cast<int>(n);
}

std::vector<long long> parse_int_list(std::string_view option, std::string_view text) {
  std::vector<long long> out;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t comma = text.find(',', start);
    const std::size_t end = comma == std::string_view::npos ? text.size() : comma;
    out.push_back(parse_int(option, text.substr(start, end - start)));
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return out;
}

}  // namespace tenferro::cli
