// Auto's effort model: plan for a fixed share of the estimated execution time, counted in
// hyper trials through a per-trial cost model, so the result is reproducible (no clock).
//
//  estimated execution   = refined greedy FLOPs / kAssumedFlopRate
//  planning allowance    = kPlanningShare * estimated execution, capped by the user's
//                          time_budget_seconds when finite and non-zero
//  trials                = allowance / (kTrialSecondsPerOperand * operands), at most kMaxTrials;
//                          fewer than kMinTrials / 2: not worth a search (refined greedy stays),
//                          otherwise at least one round of kMinTrials.
// Networks of kHyperFloorOperands..kHyperMaxOperands operands keep the kMinTrials that auto ran
// there before this model existed (still within the user's budget), and beyond
// kHyperMaxOperands auto never runs hyper (a bisection trial's FM scan is O(n^2): see path.cpp).
#include "ops/einsum/path_auto.hpp"

#include <algorithm>
#include <cmath>

namespace tenferro::einsum_internal {
namespace {

// opt_einsum FLOPs per second that execution reaches on the contractions worth planning for
// (large pairwise GEMM-like steps, 2-core machine, float64/complex128): bench/einsum/
// auto_planner_bench measures it (docs/perf/planning.md, "auto scales with the stakes").
// A low figure overestimates execution and so errs towards more planning.
constexpr double kAssumedFlopRate = 1e9;
// 5%: planning is paid once per expression and shapes (the plan is cached) while the hyper
// search cut execution 5-14x on the 20-24 operand networks of issue #33; if the search finds
// nothing the contraction costs at most 5% more (10% in the one-round borderline case).
constexpr double kPlanningShare = 0.05;
// Wall time of one hyper trial (its share of reconfiguration included) per operand: 16 trials
// at 100 operands took 13-29 ms on the 2-core machine (large_planning_bench, planning.md), ~20 us.
constexpr double kTrialSecondsPerOperand = 20e-6;
constexpr int kMinTrials = 16;  // one round of hyper_path
constexpr int kMaxTrials = 256;
constexpr int kHyperFloorOperands = 40;
constexpr int kHyperMaxOperands = 200;
// Reconfigured trees per sampled trial: 2 per 16 as auto's fixed search had, at most 6.
constexpr int kTrialsPerRefinedTree = 8;
constexpr int kMaxRefineTrees = 6;

}  // namespace

AutoEffort auto_effort(double flops, int num_operands, double time_budget_seconds) {
  AutoEffort e;
  e.estimated_seconds = std::max(0.0, flops) / kAssumedFlopRate;
  e.planning_seconds = kPlanningShare * e.estimated_seconds;
  if (time_budget_seconds > 0 && std::isfinite(time_budget_seconds)) {
    e.planning_seconds = std::min(e.planning_seconds, time_budget_seconds);
  }
  if (num_operands < 3 || num_operands > kHyperMaxOperands) return e;
  const double trial_seconds = kTrialSecondsPerOperand * num_operands;
  // The most trials the user's budget pays for (the share does not cap the legacy floor).
  double affordable = static_cast<double>(kMaxTrials);
  if (time_budget_seconds > 0 && std::isfinite(time_budget_seconds)) {
    affordable = std::min(affordable, std::floor(time_budget_seconds / trial_seconds));
  }
  const double wanted = std::floor(e.planning_seconds / trial_seconds);
  int trials = 0;
  if (wanted >= kMinTrials / 2) trials = static_cast<int>(std::max<double>(wanted, kMinTrials));
  if (num_operands >= kHyperFloorOperands) trials = std::max(trials, kMinTrials);
  trials = static_cast<int>(std::min<double>(trials, affordable));
  if (trials < kMinTrials / 2) trials = 0;  // the budget does not pay for a useful search
  e.hyper_trials = trials;
  e.refine_trees = trials == 0 ? 0 : std::clamp(trials / kTrialsPerRefinedTree, 2, kMaxRefineTrees);
  return e;
}

}  // namespace tenferro::einsum_internal
