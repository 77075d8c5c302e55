// `tenferro einsum SUBSCRIPTS IN1.npy [IN2.npy ...] -o OUT.npy [--backend cpu|cuda|webgpu]
//  [--path auto|greedy|optimal|hyper] [--time-budget SECONDS] [--seed N]
//  [--memory-limit ELEMENTS] [--show-path] [--repeat N]`: reads the operands, uploads them
// to a runtime of the chosen backend, runs the einsum (N times with --repeat), downloads the
// result and writes it. With the global --stats, N repeats show one module install.
// --time-budget and --seed steer the hyper search; --memory-limit bounds every intermediate
// (the plan slices labels to meet it; sliced plans run on the CPU backend only).
#include <iostream>

#include "cli/command_registry.hpp"
#include "tenferro/core/npy.hpp"
#include "tenferro/einsum.hpp"

namespace tenferro::cli {
namespace {

constexpr const char* kUsage =
    "usage: tenferro einsum SUBSCRIPTS IN1.npy [IN2.npy ...] -o OUT.npy\n"
    "                       [--backend cpu|cuda|webgpu] [--path auto|greedy|optimal|hyper]\n"
    "                       [--time-budget SECONDS] [--seed N] [--memory-limit ELEMENTS]\n"
    "                       [--show-path] [--repeat N]\n";

PathStrategy parse_strategy(const std::string& text) {
  if (text == "auto") return PathStrategy::Auto;
  if (text == "greedy") return PathStrategy::Greedy;
  if (text == "optimal") return PathStrategy::Optimal;
  if (text == "hyper") return PathStrategy::Hyper;
  throw UsageError("--path must be auto, greedy, optimal or hyper, not '" + text + "'");
}

int run_einsum(CommandArgs& args) {
  if (args.take_flag("help")) {
    std::cout << kUsage;
    return 0;
  }
  const auto output = args.take_output();
  const std::string backend = args.take_option("backend").value_or("cpu");
  EinsumOptions options;
  options.strategy = parse_strategy(args.take_option("path").value_or("auto"));
  // Range checks (negative, NaN) are einsum's own: typed Validation errors.
  if (const auto budget = args.take_option("time-budget"))
    options.time_budget_seconds = parse_double("time-budget", *budget);
  if (const auto seed = args.take_option("seed")) {
    const long long value = parse_int("seed", *seed);
    if (value < 0) throw UsageError("--seed must be >= 0, not '" + *seed + "'");
    options.seed = static_cast<std::uint64_t>(value);
  }
  if (const auto limit = args.take_option("memory-limit"))
    options.memory_limit = parse_double("memory-limit", *limit);
  const bool show_path = args.take_flag("show-path");
  const auto repeat_text = args.take_option("repeat");
  const int repeat = repeat_text ? parse_repeat(*repeat_text) : 1;
  // SUBSCRIPTS is the first argument left, whatever its first character ('->' is valid).
  const auto subscripts = args.take_first_positional();
  const std::vector<std::string> operand_paths = args.positionals();
  if (!subscripts || operand_paths.empty())
    throw UsageError(std::string("einsum needs SUBSCRIPTS and at least one operand\n") + kUsage);
  if (!output) throw UsageError("einsum needs -o OUT.npy");

  std::vector<Tensor> hosts;
  std::vector<Shape> shapes;
  for (const std::string& path : operand_paths) {
    hosts.push_back(npy::load(path));
    shapes.push_back(hosts.back().shape());
  }
  if (show_path) std::cout << einsum_path(*subscripts, shapes, options).to_string() << "\n";

  const std::shared_ptr<EagerRuntime> runtime = args.make_runtime(backend);
  std::vector<EagerTensor> operands;
  for (const auto& h : hosts) operands.push_back(runtime->upload(h));
  EagerTensor result;
  for (int i = 0; i < repeat; ++i) result = einsum(*subscripts, operands, options);
  npy::save(*output, result.download());
  return 0;
}

}  // namespace

TENFERRO_REGISTER_COMMAND(einsum, "contract .npy operands with an einsum expression", run_einsum);

}  // namespace tenferro::cli
