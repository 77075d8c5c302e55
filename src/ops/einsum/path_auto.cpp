// Auto's effort model: plan for a fixed share of the estimated execution time, counted in
// hyper trials through a per-trial cost model, so the result is reproducible (no clock).
//
//  estimated execution   = refined greedy FLOPs / kAssumedFlopRate
//  planning allowance    = kPlanningShare * estimated execution, capped by the user's
//                          time_budget_seconds when finite and non-zero
//  trials                = allowance / (kTrialSecondsPerOperand * operands), at most kMaxTrials;
//                          below one round of kMinTrials, one probing round when it costs at
//                          most kProbeShare of the estimate, else none (refined greedy stays).
// Networks of kHyperFloorOperands..kHyperMaxOperands operands keep the kMinTrials that auto ran
// there before this model existed (still within the user's budget), and beyond
// kHyperMaxOperands auto never runs hyper (a bisection trial's FM scan is O(n^2): see path.cpp).
#include "ops/einsum/path_auto.hpp"

#include <algorithm>
#include <cmath>

namespace tenferro::einsum_internal {
namespace {

// opt_einsum FLOPs per second of execution: auto_planner_bench measured 5.1-30 GFLOP/s (float64,
// 2-core machine) on 20-30 tensor graphs, 5.1-5.8 on the costliest rrg4 ones where planning
// matters most (docs/perf/planning.md, "auto scales with the stakes"). The low end is taken:
// it overestimates execution, so errs towards planning more (complex128 runs ~4x fewer).
constexpr double kAssumedFlopRate = 5e9;
// 5%: planning is paid once per expression and shapes (the plan is cached) while the hyper
// search cut execution 5-14x on the 20-24 operand networks of issue #33; if the search finds
// nothing the contraction costs at most 5% more (25% for the probing round below).
constexpr double kPlanningShare = 0.05;
// One round of kMinTrials is tried up to this share: on the 20-30 tensor rrg4 graphs a first
// round cut the refined greedy's FLOPs 4-8x (auto_planner_bench), far more than it costs.
constexpr double kProbeShare = 0.25;
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
  if (wanted >= kMinTrials) {
    trials = static_cast<int>(std::min<double>(wanted, kMaxTrials));
  } else if (kProbeShare * e.estimated_seconds >= kMinTrials * trial_seconds) {
    trials = kMinTrials;
  }
  if (num_operands >= kHyperFloorOperands) trials = std::max(trials, kMinTrials);
  trials = static_cast<int>(std::min<double>(trials, affordable));
  if (trials < kMinTrials / 2) trials = 0;  // the budget does not pay for a useful search
  e.hyper_trials = trials;
  e.refine_trees = trials == 0 ? 0 : std::clamp(trials / kTrialsPerRefinedTree, 2, kMaxRefineTrees);
  return e;
}

}  // namespace tenferro::einsum_internal
