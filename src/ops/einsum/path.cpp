// plan_path: strategy selection and its guards. Every strategy is bounded in time:
//  * Optimal: exact DP (path_optimal.cpp) up to kMaxOptimalOperands (16) operands and within
//    a 1 s budget; beyond either guard, the greedy path, and EinsumPath::method says so.
//  * Auto: the exact DP (FLOPs + elements written, kAutoWriteWeight) up to
//    kAutoOptimalOperands operands (measured in planning_bench:
//    about 0.25 ms at 10). Beyond that, greedy followed by subtree refinement
//    (path_refine.cpp: exact DP on every subtree cut at kRefineFrontier tensors, and also at
//    kWideRefineFrontier on small networks, the cheaper kept), which can
//    only lower the greedy path's cost; refinement stops at kRefineBudget and keeps what it
//    improved so far (the method says so). That path's FLOPs estimate the execution time, and
//    auto_effort (path_auto.cpp) spends a share of it on a hyper search counted in trials
//    (never a clock: the same network and seed give the same path anywhere); the cheaper of
//    the two paths by the objective wins, so auto is never worse than the refined greedy.
//  * Greedy: opt_einsum's greedy as is, O(n^2 log n) at worst (path_greedy.cpp).
//  * Explicit: the user's steps, validated (EinsumPath::flops etc. computed for them).
//  * A user planner (EinsumOptions::planner, planner_registry.cpp): its steps, validated like
//    an explicit path and named in EinsumPath::method.
//  * Hyper: path_hyper.cpp under the user's trial count, time budget, seed and objective.
// bench/einsum/large_planning_bench states the resulting bound: 1000 operands in under 1 s.
// Then, with EinsumOptions::memory_limit, slicing (path_slicing.cpp) of whichever tree won.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "core/enum_check.hpp"
#include "ops/einsum/path.hpp"
#include "ops/einsum/path_auto.hpp"
#include "ops/einsum/path_search.hpp"
#include "runtime/resource_boundary.hpp"
#include "tenferro/core/error.hpp"

namespace tenferro::einsum_internal {
namespace {

constexpr int kAutoOptimalOperands = 10;
// Auto's exact DP counts each element an intermediate writes as one FLOP: among paths of
// (nearly) the same FLOPs it takes the one that writes less, which the executor reads, writes
// and often permute-copies again. The DMRG two-site matvec has two paths 4000 FLOPs apart (of
// 2.4e7); the one with 81520 fewer intermediate elements runs 22% faster (docs/perf/krylov.md).
constexpr double kAutoWriteWeight = 1;
// Frontier 6 / 3 passes: measured on the 20-operand benchmark networks (print_paths), it
// reaches opt_einsum's 'dp' optimum on peps4x5 and random20 in ~0.15 ms; frontier 8 found
// nothing better there at 4x the time. On networks of up to kWideRefineOperands operands the
// refinement also runs at frontier 8 from the same greedy path and the cheaper of the two is
// kept: on the Einsum Benchmark's instances that auto plans by refined greedy (20-36 operands),
// frontier 6 alone left paths of 1.14-1.34x cotengra's FLOPs, whose warm calls ran up to 1.54x
// as long as on cotengra's path (regular4_24_c, once the play-back's scratch plan had cut the
// warm calls' fixed cost); frontier 8 reached cotengra's FLOPs on regular4_24_c and
// matrix_chain_30 and 1.09x on lattice_6x6, for 0.3-2.2 ms of planning instead of 0.1-0.4.
// Neither frontier is always the better (local search): at 100 operands frontier 8 alone gave
// 2.7-3.4x the FLOPs of frontier 6 on random100 and peps10x10 (large_planning_bench), and 0.2x
// on letters100; hence both, and only where both are cheap.
constexpr int kRefineFrontier = 6;
constexpr int kWideRefineFrontier = 8;
constexpr int kWideRefineOperands = 40;
constexpr int kRefinePasses = 3;
constexpr std::chrono::milliseconds kOptimalBudget{1000};
constexpr std::chrono::milliseconds kAutoBudget{50};
// Refinement takes ~0.2 ms per 100 operands of a sparse network (large_planning_bench); the
// budget only matters for networks of thousands of operands or very wide label sets.
constexpr std::chrono::milliseconds kRefineBudget{250};
// Hyper under a time budget spends half of it sampling and half reconfiguring the 24 best
// trees with subtrees of up to 10 leaves, best tree first (a tree the budget does not reach
// is kept as sampled). Measured with a 1 s budget on the planning_peers networks, 3 seeds:
// against 75% sampling and 6 trees of frontier 8, mean log10 FLOPs fell by 0.15 on rrg4-100,
// 0.16 on rrg3-200, 0.10 on circ30x10 and 0.9 on circ50x14 (docs/perf/planning.md).
constexpr int kTimedRefineTrees = 24;
constexpr int kTimedRefineFrontier = 10;
constexpr double kTimedSampleShare = 0.5;

void check_finite_nonnegative(double value, const char* name) {
  if (std::isnan(value) || value < 0) {
    throw_validation("einsum", std::string(name) + " must be a non-negative number, got " +
                                   std::to_string(value));
  }
}

void validate_options(const EinsumOptions& o) {
  require_enumerator(o.strategy, PathStrategy::Hyper, "einsum", "EinsumOptions::strategy");
  require_enumerator(o.objective, PathObjective::Combo, "einsum", "EinsumOptions::objective");
  check_finite_nonnegative(o.time_budget_seconds, "time_budget_seconds");
  check_finite_nonnegative(o.combo_factor, "combo_factor");
  check_finite_nonnegative(o.memory_limit, "memory_limit");
  // A path given with another strategy would be silently ignored: refuse it (a test that
  // meant to run its own path ran auto's instead).
  if (!o.path.empty() && o.strategy != PathStrategy::Explicit) {
    throw_validation("einsum",
                     "EinsumOptions::path is set but the strategy is not Explicit, so the path "
                     "would be ignored: set strategy = PathStrategy::Explicit, or clear path");
  }
  if (o.hyper_trials < 0) {
    throw_validation("einsum", "hyper_trials must be >= 0, got " + std::to_string(o.hyper_trials));
  }
  if (o.strategy == PathStrategy::Hyper && o.hyper_trials == 0 &&
      (o.time_budget_seconds == 0 || std::isinf(o.time_budget_seconds))) {
    throw_validation("einsum",
                     "the hyper search needs a trial count or a finite time budget; both are "
                     "unlimited");
  }
}

// The inputs and the output exist whole whatever is sliced: a limit below one of them
// cannot be met. An input is counted at its labels' extents, so one that broadcasts an extent
// of 1 counts as its broadcast (the planner sees labels, not shapes).
void check_limit_reachable(const PathProblem& p, double limit) {
  for (int k = 0; k < p.num_operands; ++k) {
    const double size = set_size(p.full_input(k), p.extents);
    if (size > limit) {
      throw_validation("einsum", "memory limit of " + std::to_string(limit) +
                                     " elements cannot be met by slicing: operand " +
                                     std::to_string(k) + " alone holds " + std::to_string(size) +
                                     " elements (at its labels' extents)");
    }
  }
  const double out = set_size(p.output, p.extents);
  if (out > limit) {
    throw_validation("einsum", "memory limit of " + std::to_string(limit) +
                                   " elements cannot be met by slicing: the output alone holds " +
                                   std::to_string(out) + " elements");
  }
}

void apply_slicing(const EinsumExpression& expr, const PathProblem& p, const SsaPath& ssa,
                   double limit, EinsumPath& path) {
  path.slice_largest_intermediate = path.largest_intermediate;
  path.sliced_flops = path.flops;
  if (limit <= 0 || std::isinf(limit) || p.num_operands < 2) return;
  check_limit_reachable(p, limit);
  const SlicePlan slices = choose_slices(p, ssa, limit);
  // A run counts its slices in int64 and splits them over threads: beyond 2^62 the count
  // overflowed, no slice ran and the result was silently zero. No run that long could finish.
  if (!(slices.slices <= kMaxSlices)) {
    char count[32];
    std::snprintf(count, sizeof count, "%.3g", slices.slices);
    throw_validation("einsum", "memory limit of " + std::to_string(limit) + " elements needs " +
                                   count +
                                   " slices of this path, more than a run can count (2^62); "
                                   "raise memory_limit");
  }
  for (Label l : slices.labels) {
    path.sliced_labels.push_back(l);
    path.sliced_names.push_back(static_cast<std::size_t>(l) < expr.label_names.size()
                                    ? expr.label_names[static_cast<std::size_t>(l)]
                                    : std::to_string(l));
  }
  path.num_slices = slices.slices;
  path.sliced_flops = slices.flops;
  path.slicing_overhead = path.flops > 0 ? slices.flops / path.flops : 1;
  path.slice_largest_intermediate = slices.largest;
}

std::vector<std::pair<int, int>> run_user_planner(const EinsumExpression& expr,
                                                  std::span<const std::int64_t> sizes,
                                                  const EinsumOptions& options,
                                                  const PlannerChoice& choice) {
  PathPlannerInput input;
  input.inputs.reserve(expr.inputs.size());
  for (const auto& labels : expr.inputs) input.inputs.emplace_back(labels.begin(), labels.end());
  input.output.assign(expr.output.begin(), expr.output.end());
  input.sizes.assign(sizes.begin(), sizes.end());
  input.options = &options;
  try {
    return choice.user(input);
  } catch (const Error&) {
    throw;
  } catch (const std::bad_alloc&) {
    throw;  // out of memory, not a bad planner: plan_path's boundary makes it a Resource error
  } catch (const std::exception& e) {
    std::throw_with_nested(
        Error(ErrorKind::Validation, ErrorPhase::Input, "einsum",
              "path planner '" + std::string(choice.name) + "' failed: " + e.what()));
  }
  // Any other type is the caller's own (einsum_planner.hpp): it passes through unchanged.
}

// Greedy's path refined (path_refine.cpp) within kRefineBudget, at frontier 6 and, on networks
// of up to kWideRefineOperands operands, at frontier 8 too, the cheaper by `objective` kept.
SsaPath refined_greedy_path(const PathProblem& problem, const EinsumOptions& options,
                            bool* stopped_early) {
  const SsaPath greedy = greedy_path(problem);  // before the clock starts for refinement
  const auto deadline = std::chrono::steady_clock::now() + kRefineBudget;
  SsaPath refined =
      refine_path(problem, greedy, kRefineFrontier, kRefinePasses, deadline, stopped_early);
  if (problem.num_operands > kWideRefineOperands || *stopped_early) return refined;
  bool wide_stopped = false;  // then the finished frontier-6 path stands
  SsaPath wide =
      refine_path(problem, greedy, kWideRefineFrontier, kRefinePasses, deadline, &wide_stopped);
  if (wide_stopped) return refined;
  const auto score = [&](const SsaPath& ssa) {
    return objective_score(
        tree_cost(problem, ssa, tree_node_sets(problem, ssa), problem.search_extents),
        options.objective, options.combo_factor);
  };
  return score(wide) < score(refined) ? std::move(wide) : std::move(refined);
}

// Auto beyond the exact DP's reach: the refined greedy path is both a candidate and the cost
// estimate; auto_effort (path_auto.cpp) turns that into a hyper trial count, and the cheaper of
// the two paths by the objective is kept.
template <class Finish>
EinsumPath plan_auto(const PathProblem& problem, const EinsumOptions& options, Finish& finish) {
  bool stopped_early = false;
  const SsaPath refined = refined_greedy_path(problem, options, &stopped_early);
  const std::vector<Word> sets = tree_node_sets(problem, refined);
  const TreeCost refined_cost = tree_cost(problem, refined, sets, problem.search_extents);
  const AutoEffort effort =
      auto_effort(refined_cost.flops, problem.num_operands,
                  std::isinf(options.time_budget_seconds) ? 0 : options.time_budget_seconds);
  char estimate[96];
  std::snprintf(estimate, sizeof estimate, "estimated %.3g s of execution",
                effort.estimated_seconds);
  std::string refined_method = "auto: greedy + subtree refinement (";
  refined_method += estimate;
  if (stopped_early) {
    refined_method +=
        "; refinement stopped at its " + std::to_string(kRefineBudget.count()) + " ms budget";
  }
  if (effort.hyper_trials == 0) {
    EinsumPath path = finish(refined, refined_method + ")");
    path.planning_trials = 0;
    return path;
  }
  HyperSettings settings;
  settings.trials = effort.hyper_trials;
  settings.time_budget_seconds = 0;  // work-bound: reproducible on any machine
  settings.refine_trees = effort.refine_trees;
  settings.seed = options.seed;
  settings.objective = options.objective;
  settings.combo_factor = options.combo_factor;
  std::string note;
  const SsaPath hyper = hyper_path(problem, settings, &note);
  const std::vector<Word> hyper_sets = tree_node_sets(problem, hyper);
  const TreeCost hyper_cost = tree_cost(problem, hyper, hyper_sets, problem.search_extents);
  const std::string trials = std::to_string(effort.hyper_trials) + " trials";
  EinsumPath path;
  if (objective_score(refined_cost, options.objective, options.combo_factor) <
      objective_score(hyper_cost, options.objective, options.combo_factor)) {
    path = finish(refined, refined_method + "; hyper's " + trials + " found nothing cheaper)");
  } else {
    path = finish(hyper, "auto: hyper, " + trials + " (" + estimate + "; " + note + ")");
  }
  path.planning_trials = effort.hyper_trials;
  return path;
}

// The steps' report text is left out (evaluate_path's step_text): plan_path adds it after its
// clock stops, so that planning_seconds measures the same work for einsum and einsum_path.
EinsumPath plan_path_untimed(const EinsumExpression& expr, std::span<const std::int64_t> sizes,
                             const EinsumOptions& options, const PlannerChoice& choice) {
  validate_options(options);
  PathProblem problem = make_path_problem(expr, sizes);
  if (options.interrupt) problem.interrupt = &options.interrupt;
  const int n = problem.num_operands;
  auto finish = [&](const SsaPath& ssa, std::string method) {
    EinsumPath path = evaluate_path(expr, problem, ssa_to_linear(ssa, n), false);
    path.method = std::move(method);
    apply_slicing(expr, problem, ssa, options.memory_limit, path);
    return path;
  };
  auto hyper = [&](HyperSettings settings, std::string method) {
    std::string note;
    const SsaPath ssa = hyper_path(problem, settings, &note);
    return finish(ssa, note.empty() ? method : method + " (" + note + ")");
  };
  auto optimal_or_greedy = [&](std::chrono::milliseconds budget, const char* name,
                               double write_weight) {
    const auto deadline = std::chrono::steady_clock::now() + budget;
    if (auto ssa = optimal_path(problem, deadline, write_weight)) return finish(*ssa, name);
    return finish(greedy_path(problem), std::string("greedy (") + name + " search passed its " +
                                            std::to_string(budget.count()) + " ms budget)");
  };

  auto refined_greedy = [&](std::string method) {
    bool stopped_early = false;
    const SsaPath ssa = refined_greedy_path(problem, options, &stopped_early);
    if (stopped_early) {
      method +=
          " (refinement stopped at its " + std::to_string(kRefineBudget.count()) + " ms budget)";
    }
    return finish(ssa, std::move(method));
  };

  if (choice.user) {
    const std::vector<std::pair<int, int>> steps = run_user_planner(expr, sizes, options, choice);
    EinsumPath path;
    try {
      path = evaluate_path(expr, problem, steps, false);
    } catch (const Error& e) {
      throw_validation("einsum", "path planner '" + std::string(choice.name) +
                                     "' returned an invalid path: " + e.message());
    }
    path.method = "planner '" + std::string(choice.name) + "'";
    apply_slicing(expr, problem, linear_to_ssa(steps, n), options.memory_limit, path);
    return path;
  }
  switch (choice.strategy) {
    case PathStrategy::Explicit: {
      EinsumPath path = evaluate_path(expr, problem, options.path, false);
      path.method = "explicit";
      apply_slicing(expr, problem, linear_to_ssa(options.path, n), options.memory_limit, path);
      return path;
    }
    case PathStrategy::Hyper: {
      HyperSettings settings;
      settings.trials = options.hyper_trials;
      settings.time_budget_seconds =
          std::isinf(options.time_budget_seconds) ? 0 : options.time_budget_seconds;
      settings.seed = options.seed;
      settings.objective = options.objective;
      settings.combo_factor = options.combo_factor;
      if (settings.time_budget_seconds > 0) {  // time-bound: see kTimedRefineTrees
        settings.refine_trees = kTimedRefineTrees;
        settings.refine_frontier = kTimedRefineFrontier;
        settings.sample_share = kTimedSampleShare;
      }
      EinsumPath path = hyper(settings, "hyper");
      if (settings.time_budget_seconds == 0) path.planning_trials = settings.trials;
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
      return optimal_or_greedy(kOptimalBudget, "optimal", 0);
    case PathStrategy::Auto:
      break;
  }
  if (n <= kAutoOptimalOperands)
    return optimal_or_greedy(kAutoBudget, "auto: optimal", kAutoWriteWeight);
  return plan_auto(problem, options, finish);
}

}  // namespace

EinsumPath plan_path(const EinsumExpression& expr, std::span<const std::int64_t> sizes,
                     const EinsumOptions& options) {
  return plan_path(expr, sizes, options, choose_planner(options));
}

void validate_request(const EinsumExpression& expr, std::span<const std::int64_t> sizes,
                      const EinsumOptions& options) {
  validate_options(options);
  const PathProblem problem = make_path_problem(expr, sizes);
  if (!choose_planner(options).user && options.strategy == PathStrategy::Explicit)
    (void)evaluate_path(expr, problem, options.path, false);
  const double limit = options.memory_limit;
  if (limit > 0 && !std::isinf(limit) && problem.num_operands >= 2)
    check_limit_reachable(problem, limit);
}

bool may_reuse_path(const EinsumOptions& options, const PlannerChoice& choice,
                    std::size_t operands) {
  // Greedy is the check itself; explicit paths and user planners are the caller's; with fewer
  // than three operands there is one order only.
  return options.reuse_path_across_shapes && !choice.user && operands >= 3 &&
         (choice.strategy == PathStrategy::Auto || choice.strategy == PathStrategy::Optimal ||
          choice.strategy == PathStrategy::Hyper);
}

std::optional<EinsumPath> reuse_path(const EinsumExpression& expr,
                                     std::span<const std::int64_t> sizes,
                                     const EinsumOptions& options, const PlannerChoice& choice,
                                     const EinsumPath& earlier, bool step_text) {
  const auto start = std::chrono::steady_clock::now();
  validate_options(options);
  PathProblem problem = make_path_problem(expr, sizes);
  if (options.interrupt) problem.interrupt = &options.interrupt;
  const int n = problem.num_operands;
  const SsaPath ssa = linear_to_ssa(earlier.steps, n);
  const SsaPath greedy = greedy_path(problem);
  const PathObjective objective =
      choice.strategy == PathStrategy::Optimal ? PathObjective::Flops : options.objective;
  const auto score = [&](const SsaPath& path) {
    const TreeCost cost =
        tree_cost(problem, path, tree_node_sets(problem, path), problem.search_extents);
    return objective_score(cost, objective, options.combo_factor);
  };
  if (score(greedy) < score(ssa)) return std::nullopt;
  EinsumPath path = evaluate_path(expr, problem, earlier.steps, false);
  path.method = earlier.method;
  apply_slicing(expr, problem, ssa, options.memory_limit, path);
  path.origin = PlanOrigin::Reused;
  path.planning_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (step_text) add_step_text(expr, sizes, options, path);
  return path;
}

EinsumPath plan_path(const EinsumExpression& expr, std::span<const std::int64_t> sizes,
                     const EinsumOptions& options, const PlannerChoice& choice, bool step_text) {
  const auto start = std::chrono::steady_clock::now();
  // The planner's own memory grows with the network (label sets per operand and per candidate):
  // running out is the Resource error every op gives, not a bare std::bad_alloc.
  EinsumPath path = runtime_internal::at_op_boundary(
      "einsum", [&] { return plan_path_untimed(expr, sizes, options, choice); });
  path.planning_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (step_text) add_step_text(expr, sizes, options, path);
  return path;
}

void add_step_text(const EinsumExpression& expr, std::span<const std::int64_t> sizes,
                   const EinsumOptions& options, EinsumPath& path) {
  const bool steps_lack_text = !path.details.empty() && path.details.front().subscripts.empty();
  if (!steps_lack_text && !path.expression.empty()) return;
  PathProblem problem = make_path_problem(expr, sizes);
  if (options.interrupt) problem.interrupt = &options.interrupt;
  const EinsumPath full = evaluate_path(expr, problem, path.steps);
  path.expression = full.expression;
  for (std::size_t s = 0; s < path.details.size() && s < full.details.size(); ++s) {
    path.details[s].subscripts = full.details[s].subscripts;
    path.details[s].remaining = full.details[s].remaining;
  }
}

}  // namespace tenferro::einsum_internal
