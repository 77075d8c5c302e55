// PathStrategy::Auto's planning effort (path_auto.cpp): how much search a contraction is worth,
// from a cheap estimate of its cost, expressed as work (hyper trials) rather than wall-clock
// time so that the same network and seed give the same path on any machine and under any load.
#pragma once

namespace tenferro::einsum_internal {

struct AutoEffort {
  double estimated_seconds = 0;  // execution time of the refined greedy path (cost model)
  double planning_seconds = 0;   // the planning time the model allows (after the user's budget)
  int hyper_trials = 0;          // 0: keep the refined greedy path
  int refine_trees = 0;          // hyper's reconfigured trees, in proportion to the trials
};

// `flops`: the refined greedy path's FLOPs; `time_budget_seconds`: EinsumOptions' (0 or
// infinite: no cap). Deterministic: a function of its arguments only.
AutoEffort auto_effort(double flops, int num_operands, double time_budget_seconds);

}  // namespace tenferro::einsum_internal
