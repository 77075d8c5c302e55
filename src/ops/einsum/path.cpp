// plan_path: strategy selection and its guards. Every strategy is bounded in time:
//  * Optimal: exact DP (path_optimal.cpp) up to kMaxOptimalOperands (16) operands and within
//    a 1 s budget; beyond either guard, the greedy path, and EinsumPath::method says so.
//  * Auto: the exact DP up to kAutoOptimalOperands operands (measured in planning_bench:
//    about 0.25 ms at 10), beyond that greedy followed by subtree refinement
//    (path_refine.cpp: exact DP on every subtree cut at kRefineFrontier tensors), which
//    can only lower the greedy path's cost; refinement stops at kRefineBudget and keeps
//    what it improved so far (the method says so).
//  * Greedy: opt_einsum's greedy as is, O(n^2 log n) at worst (path_greedy.cpp).
//  * Explicit: the user's steps, validated (EinsumPath::flops etc. computed for them).
// bench/einsum/large_planning_bench states the resulting bound: 1000 operands in under 1 s.
#include <chrono>
#include <string>

#include "ops/einsum/path.hpp"
#include "ops/einsum/path_search.hpp"

namespace tenferro::einsum_internal {
namespace {

constexpr int kAutoOptimalOperands = 10;
// Frontier 6 / 3 passes: measured on the 20-operand benchmark networks (print_paths), it
// reaches opt_einsum's 'dp' optimum on peps4x5 and random20 in ~0.15 ms; frontier 8 found
// nothing better there at 4x the time.
constexpr int kRefineFrontier = 6;
constexpr int kRefinePasses = 3;
constexpr std::chrono::milliseconds kOptimalBudget{1000};
constexpr std::chrono::milliseconds kAutoBudget{50};
// Refinement takes ~0.2 ms per 100 operands of a sparse network (large_planning_bench); the
// budget only matters for networks of thousands of operands or very wide label sets.
constexpr std::chrono::milliseconds kRefineBudget{250};

}  // namespace

EinsumPath plan_path(const EinsumExpression& expr, std::span<const std::int64_t> sizes,
                     const EinsumOptions& options) {
  const PathProblem problem = make_path_problem(expr, sizes);
  const int n = problem.num_operands;
  auto finish = [&](const SsaPath& ssa, std::string method) {
    EinsumPath path = evaluate_path(expr, problem, ssa_to_linear(ssa, n));
    path.method = std::move(method);
    return path;
  };
  auto optimal_or_greedy = [&](std::chrono::milliseconds budget, const char* name) {
    const auto deadline = std::chrono::steady_clock::now() + budget;
    if (auto ssa = optimal_path(problem, deadline)) return finish(*ssa, name);
    return finish(greedy_path(problem), std::string("greedy (") + name + " search passed its " +
                                            std::to_string(budget.count()) + " ms budget)");
  };

  auto refined_greedy = [&](std::string method) {
    bool stopped_early = false;
    const SsaPath greedy = greedy_path(problem);  // before the clock starts for refinement
    const SsaPath ssa =
        refine_path(problem, greedy, kRefineFrontier, kRefinePasses,
                    std::chrono::steady_clock::now() + kRefineBudget, &stopped_early);
    if (stopped_early) {
      method +=
          " (refinement stopped at its " + std::to_string(kRefineBudget.count()) + " ms budget)";
    }
    return finish(ssa, std::move(method));
  };

  switch (options.strategy) {
    case PathStrategy::Explicit: {
      EinsumPath path = evaluate_path(expr, problem, options.path);
      path.method = "explicit";
      return path;
    }
    case PathStrategy::Greedy:
      return finish(greedy_path(problem), "greedy");
    case PathStrategy::Optimal:
      if (n > kMaxOptimalOperands) {
        return refined_greedy("greedy + subtree refinement (optimal is limited to " +
                              std::to_string(kMaxOptimalOperands) + " operands, got " +
                              std::to_string(n) + ")");
      }
      return optimal_or_greedy(kOptimalBudget, "optimal");
    case PathStrategy::Auto:
      break;
  }
  if (n <= kAutoOptimalOperands) return optimal_or_greedy(kAutoBudget, "auto: optimal");
  return refined_greedy("auto: greedy + subtree refinement");
}

}  // namespace tenferro::einsum_internal
