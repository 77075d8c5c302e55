// The registry behind tenferro/einsum_planner.hpp, and the one place that turns
// EinsumOptions::{strategy, planner} into the planner a call uses.
#pragma once

#include <cstdint>
#include <string_view>

#include "tenferro/einsum.hpp"
#include "tenferro/einsum_planner.hpp"

namespace tenferro::einsum_internal {

// The planner of one call: a built-in strategy (user empty, registration 0) or a user planner
// with the id of its registration (unique for the process's lifetime, never 0), which keys the
// plan caches so that a replaced planner never reuses the old one's plans.
struct PlannerChoice {
  PathStrategy strategy = PathStrategy::Auto;
  PathPlanner user;
  std::uint64_t registration = 0;
  std::string_view name;  // the options' planner name (empty for a plain strategy)
};

// Resolves the options' planner. An empty name takes no lock and allocates nothing. Throws
// Validation for an unknown name or a name together with PathStrategy::Explicit.
PlannerChoice choose_planner(const EinsumOptions& options);

}  // namespace tenferro::einsum_internal
