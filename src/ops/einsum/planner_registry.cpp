// The process-wide table of user path planners. Planning reads it (shared lock) only when an
// EinsumOptions names a planner; registering writes it. Built-in strategies are not stored:
// their names map to PathStrategy values and cannot be taken by a user planner.
#include "ops/einsum/planner_registry.hpp"

#include <array>
#include <atomic>
#include <map>
#include <mutex>
#include <optional>
#include <shared_mutex>
#include <string>
#include <utility>

#include "tenferro/core/error.hpp"

namespace tenferro {
namespace {

struct BuiltinPlanner {
  std::string_view name;
  PathStrategy strategy;
};
constexpr std::array<BuiltinPlanner, 4> kBuiltins{{
    {"auto", PathStrategy::Auto},
    {"greedy", PathStrategy::Greedy},
    {"optimal", PathStrategy::Optimal},
    {"hyper", PathStrategy::Hyper},
}};

std::optional<PathStrategy> builtin_strategy(std::string_view name) {
  for (const auto& b : kBuiltins)
    if (b.name == name) return b.strategy;
  return std::nullopt;
}

struct UserPlanner {
  PathPlanner planner;
  std::uint64_t registration = 0;
};

struct Registry {
  std::shared_mutex mutex;
  std::map<std::string, UserPlanner, std::less<>> planners;
  std::atomic<std::uint64_t> next_registration{1};
};

Registry& registry() {
  // Never destroyed, so that a static object unregistering its planner at exit finds it.
  static Registry* const r = new Registry;
  return *r;
}

std::string known_names() {
  std::string names;
  for (const std::string& n : path_planner_names()) names += (names.empty() ? "" : ", ") + n;
  return names;
}

}  // namespace

void register_path_planner(std::string name, PathPlanner planner) {
  if (name.empty()) throw_validation("register_path_planner", "a planner needs a name");
  if (!planner) {
    throw_validation("register_path_planner", "planner '" + name + "' is an empty function");
  }
  if (builtin_strategy(name)) {
    throw_validation("register_path_planner",
                     "'" + name + "' is a built-in planner and cannot be replaced");
  }
  Registry& r = registry();
  const std::unique_lock lock(r.mutex);
  if (r.planners.contains(name)) {
    throw_validation("register_path_planner",
                     "a planner named '" + name + "' is already registered (unregister it first)");
  }
  const std::uint64_t id = r.next_registration.fetch_add(1);
  r.planners.emplace(std::move(name), UserPlanner{std::move(planner), id});
}

bool unregister_path_planner(std::string_view name) {
  Registry& r = registry();
  const std::unique_lock lock(r.mutex);
  const auto it = r.planners.find(name);
  if (it == r.planners.end()) return false;
  r.planners.erase(it);
  return true;
}

std::vector<std::string> path_planner_names() {
  std::vector<std::string> names;
  for (const auto& b : kBuiltins) names.emplace_back(b.name);
  Registry& r = registry();
  const std::shared_lock lock(r.mutex);
  for (const auto& [name, planner] : r.planners) names.push_back(name);
  return names;
}

namespace einsum_internal {

PlannerChoice choose_planner(const EinsumOptions& options) {
  PlannerChoice choice;
  choice.strategy = options.strategy;
  if (options.planner.empty()) return choice;
  choice.name = options.planner;
  if (options.strategy == PathStrategy::Explicit) {
    throw_validation("einsum", "EinsumOptions names planner '" + options.planner +
                                   "' and asks for an explicit path: set one or the other");
  }
  if (const auto strategy = builtin_strategy(options.planner)) {
    choice.strategy = *strategy;
    return choice;
  }
  Registry& r = registry();
  {
    const std::shared_lock lock(r.mutex);
    const auto it = r.planners.find(options.planner);
    if (it != r.planners.end()) {
      choice.user = it->second.planner;
      choice.registration = it->second.registration;
      return choice;
    }
  }
  throw_validation(
      "einsum", "no path planner named '" + options.planner + "' (known: " + known_names() + ")");
}

}  // namespace einsum_internal
}  // namespace tenferro
