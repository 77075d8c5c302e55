// Contraction-order planners are an interface: a caller registers a strategy under a name and
// selects it with EinsumOptions::planner, like opt_einsum's register_path_fn.
//
//   tenferro::register_path_planner("left-to-right", [](const tenferro::PathPlannerInput& in) {
//     std::vector<std::pair<int, int>> steps;
//     for (std::size_t k = 1; k < in.inputs.size(); ++k) steps.emplace_back(0, 1);
//     return steps;
//   });
//   auto c = tenferro::einsum("ij,jk,kl->il", {a, b, c}, {.planner = "left-to-right"});
//
// A planner sees only labels and extents, never tensors. What it returns is validated exactly
// like EinsumOptions::path (a bad step is a Validation error naming the planner), costed, and
// sliced under EinsumOptions::memory_limit like any built-in path. The built-in strategies are
// registered under the names "auto", "greedy", "optimal" and "hyper" and cannot be replaced.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "tenferro/einsum.hpp"

// The public API: exported from the shared library (the rest of it is hidden).
#pragma GCC visibility push(default)

namespace tenferro {

// The contraction as a planner sees it: integer labels 0..sizes.size()-1, one list per
// operand axis (ellipsis dimensions expanded into labels of their own), the output labels,
// the extent of every label, and the caller's options (seed, time budget, objective...).
struct PathPlannerInput {
  std::vector<std::vector<int>> inputs;
  std::vector<int> output;
  std::vector<std::int64_t> sizes;
  const EinsumOptions* options = nullptr;
};

// Returns pairwise steps in opt_einsum's linear convention (each step removes operands i and
// j of the current list and appends their result at the end), exactly n-1 of them for n
// operands. It may throw: a tenferro::Error passes through as it is, a std::exception becomes
// a Validation error naming the planner, with the original nested, and an exception of any
// other type (not derived from std::exception: the caller's own control flow, such as a
// cancellation or a host language's pending error) passes through unchanged. Called from
// whichever thread plans, possibly from several at the same time.
using PathPlanner = std::function<std::vector<std::pair<int, int>>(const PathPlannerInput&)>;

// Registers `planner` under `name` (Validation: empty name, a built-in name, a name already
// taken, or an empty function). Plans made with it are cached per runtime under the name and
// this registration: replacing a planner (unregister, register) never reuses the old plans.
void register_path_planner(std::string name, PathPlanner planner);
// Removes a user planner; false when no user planner has that name.
bool unregister_path_planner(std::string_view name);
// Built-in names first, then user planners in name order.
std::vector<std::string> path_planner_names();

}  // namespace tenferro

#pragma GCC visibility pop
