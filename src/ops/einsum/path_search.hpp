// Internals of contraction-order planning shared by path.cpp, path_greedy.cpp,
// path_optimal.cpp and path_cost.cpp: label sets as fixed-width bitsets, the cost model,
// and the search algorithms' entry points.
//
// Cost model: opt_einsum's flop_count, so our figures compare 1:1 with opt_einsum/NumPy.
//  * A pairwise step over the union U of its two operands' label sets costs
//      size(U) * (2 if the step sums away any label, else 1)
//    where size(U) is the product of the label extents. Its result keeps exactly the labels
//    the output or some operand not yet contracted still needs.
//  * An input operand with private labels (in no other operand and not in the output) is
//    first reduced on its own, as the executor does (a GEMM cannot sum a label only one side
//    has): opt_einsum's single-term count, 2 * size(operand), charged to the step that
//    consumes the operand; that step then sees the reduced label set. In opt_einsum terms
//    the path is our pairwise steps preceded by a (k,) step per such operand
//    (bench/peers/einsum_paths.py checks our figures against opt_einsum's on that path).
//    The reductions cost the same for every order, so the searches work on reduced sets.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "ops/einsum/expression.hpp"
#include "tenferro/einsum.hpp"

namespace tenferro::einsum_internal {

// A set of labels: `words` 64-bit words per set, stored contiguously by the owner.
using Word = std::uint64_t;

inline int words_for(int num_labels) {
  return num_labels <= 0 ? 1 : (num_labels + 63) / 64;
}

// The search-facing form of a contraction.
struct PathProblem {
  int num_operands = 0;
  int num_labels = 0;
  int words = 1;
  std::vector<Word> inputs;       // num_operands * words: each operand's label set after reduction
  std::vector<Word> full_inputs;  // num_operands * words: each operand's own label set
  std::vector<double> reduction_flops;  // per operand: 2 * size when it has private labels
  std::vector<Word> output;             // words
  std::vector<double> extents;          // real label extents (may be 0), for reported costs
  std::vector<double> search_extents;   // extents clamped to >= 1 so costs stay comparable
  // EinsumOptions::interrupt of the call (null: none), polled through InterruptPoll by the
  // searches' loops. Problems a search builds for its parts leave it null: their loops are
  // short, and the search polls between them.
  const std::function<void()>* interrupt = nullptr;

  std::span<const Word> input(int k) const {
    return {inputs.data() + static_cast<std::size_t>(k) * words, static_cast<std::size_t>(words)};
  }
  std::span<const Word> full_input(int k) const {
    return {full_inputs.data() + static_cast<std::size_t>(k) * words,
            static_cast<std::size_t>(words)};
  }
};

PathProblem make_path_problem(const EinsumExpression& expr, std::span<const std::int64_t> sizes);

// Product of `extents` over the labels in `set`.
inline double set_size(std::span<const Word> set, std::span<const double> extents) {
  double size = 1;
  for (std::size_t w = 0; w < set.size(); ++w) {
    for (Word bits = set[w]; bits; bits &= bits - 1) {
      size *= extents[w * 64 + static_cast<std::size_t>(__builtin_ctzll(bits))];
    }
  }
  return size;
}

inline int set_count(std::span<const Word> set) {
  int n = 0;
  for (Word w : set) n += __builtin_popcountll(w);
  return n;
}

// Pairwise steps in static-single-assignment ids: leaves are 0..n-1 and the k-th step's
// result is n+k (opt_einsum's "ssa path").
using SsaPath = std::vector<std::pair<int, int>>;

// opt_einsum's greedy: repeatedly contract the pair, among pairs sharing a label not in the
// output, that minimises size(result) - size(a) - size(b) (ties: the pair with the smaller
// ids, as opt_einsum); when no such pair is left, outer products smallest first.
// O(P log P) for P candidate pairs (path_greedy.cpp): P grows like n * labels per operand,
// whatever the labels' degrees (a label held by more than 32 tensors keeps one representative
// pair instead of all pairs of its holders), so it needs no time guard. `pushed`, when given,
// receives P: the work figure the tests bound.
SsaPath greedy_path(const PathProblem& problem, std::size_t* pushed = nullptr);

// The randomised greedy that PathStrategy::Hyper samples (cotengra's / opt_einsum's
// RandomGreedy idea): a pair's cost is size(result) - alpha * (size(a) + size(b)), and when
// `temperature` > 0 each step draws among the `branches` cheapest pairs with Boltzmann
// weights exp(-(cost - cost_min) / (temperature * max(1, |cost_min|))). alpha = 1 and
// temperature = 0 is greedy_path exactly. Draws come from `seed` alone (splitmix64), so a
// trial is reproducible on any thread.
struct GreedyParams {
  double alpha = 1;
  double temperature = 0;
  int branches = 8;
  std::uint64_t seed = 0;
};
SsaPath random_greedy_path(const PathProblem& problem, const GreedyParams& params);

// Exact minimum-flop path by dynamic programming over operand subsets (outer products
// included, so the optimum is over every pairwise tree). With `write_weight` > 0 it minimises
// FLOPs + write_weight * the elements of every intermediate written instead. Returns nullopt
// when `deadline` passes first. Requires num_operands <= kMaxOptimalOperands.
inline constexpr int kMaxOptimalOperands = 16;
std::optional<SsaPath> optimal_path(const PathProblem& problem,
                                    std::chrono::steady_clock::time_point deadline,
                                    double write_weight = 0);

// Improves `ssa` by re-solving, with the exact DP, every subtree cut at a frontier of up to
// `max_frontier` tensors; at most `max_passes` sweeps over the tree (path_refine.cpp). When
// `deadline` passes it stops and returns the tree as improved so far (never costlier than
// `ssa`), setting *stopped_early.
SsaPath refine_path(const PathProblem& problem, const SsaPath& ssa, int max_frontier,
                    int max_passes, std::chrono::steady_clock::time_point deadline,
                    bool* stopped_early = nullptr);

// A recursive-bisection tree (path_partition.cpp): operands split into two parts of nearly
// equal count (within `imbalance`) with light shared labels by a multilevel hypergraph
// partitioner (hypergraph_bisection.hpp), recursively; parts of up to
// `cutoff` operands are contracted by the exact DP (<= 8) or greedy.
struct PartitionParams {
  double imbalance = 0.2;  // at the top split; see imbalance_decay
  // How the imbalance changes with depth, as cotengra's partition trees do: a part holding the
  // fraction s of all operands is split with s^d * imbalance for d >= 0 (tighter below), and
  // 1 - s^-d * (1 - imbalance) for d < 0 (looser below). 0: the same at every depth.
  double imbalance_decay = 0;
  int cutoff = 6;
  int passes = 4;     // Fiduccia-Mattheyses passes per level of a split
  int starts = 3;     // independent multilevel cycles per split, the lightest cut kept
  int coarsest = 24;  // coarsening stops at this many nodes (>= the part size: single-level)
  std::uint64_t seed = 0;
};
SsaPath partition_path(const PathProblem& problem, const PartitionParams& params);

// The figures of a contraction tree, from its nodes' label sets (leaves: the reduced inputs).
// `flops` includes the single-operand reductions, so it equals evaluate_path's count with the
// same extents.
struct TreeCost {
  double flops = 0;
  double largest = 0;  // largest node: reduced inputs and every step's result
  double write = 0;    // elements written by the steps (cotengra's "write")
};
// Label sets of every node of `ssa` (leaves 0..n-1 then one per step), `words` words each.
std::vector<Word> tree_node_sets(const PathProblem& problem, const SsaPath& ssa);
TreeCost tree_cost(const PathProblem& problem, const SsaPath& ssa, std::span<const Word> node_sets,
                   std::span<const double> extents);
// The score PathStrategy::Hyper minimises (lexicographic where it says so).
struct ObjectiveScore {
  double primary = 0, secondary = 0;
  bool operator<(const ObjectiveScore& o) const {
    return primary < o.primary || (primary == o.primary && secondary < o.secondary);
  }
};
ObjectiveScore objective_score(const TreeCost& cost, PathObjective objective, double combo_factor);

// Hyper-optimised search (path_hyper.cpp): random_greedy_path and partition_path trials in
// rounds on hardware_concurrency threads, then subtree reconfiguration of the best trees. Trial 0
// is greedy_path itself, so the result never scores worse than greedy. *note receives what happened
// (trials run, whether the budget cut it short).
struct HyperSettings {
  int trials = 128;
  double time_budget_seconds = 1.0;  // 0: none
  std::uint64_t seed = 0;
  PathObjective objective = PathObjective::Flops;
  double combo_factor = 64;
  int refine_frontier = 8;
  int refine_trees = 6;        // how many of the best sampled trees are reconfigured (+ greedy's)
  double sample_share = 0.75;  // of a time budget: no trial starts after it (then reconfiguration)
};
SsaPath hyper_path(const PathProblem& problem, const HyperSettings& settings, std::string* note);

// Slicing (path_slicing.cpp): labels to slice so that every node of `ssa` (real extents, the
// sliced ones set to 1) holds at most `limit` elements, with as few total FLOPs as the search
// finds. Run 0 is a deterministic greedy: each round slices the label that removes the most
// excess (sum over oversize nodes of log(size / limit)) per unit of log FLOP overhead. The
// `restarts` further runs score by least added FLOPs and draw with Boltzmann weights from fixed
// seeds; `prune` ends each run by un-slicing the labels the limit lets go. The least total
// FLOPs wins (ties: fewer slices, then the earlier run): deterministic, and never costlier than
// run 0 alone. Throws Validation when no label is left to slice.
// The most slices a plan may have: a run counts them in int64 and splits them over threads.
inline constexpr double kMaxSlices = 4611686018427387904.0;  // 2^62
struct SlicePlan {
  std::vector<Label> labels;
  double slices = 1;
  double flops = 0;    // all slices together
  double largest = 0;  // within one slice
};
struct SliceSettings {
  int restarts = 15;  // runs after run 0
  bool prune = true;
};
SlicePlan choose_slices(const PathProblem& problem, const SsaPath& ssa, double limit,
                        const SliceSettings& settings = {});

// opt_einsum's linear convention -> SSA ids (the inverse of ssa_to_linear).
SsaPath linear_to_ssa(std::span<const std::pair<int, int>> linear, int num_operands);

// SSA ids -> opt_einsum's linear convention (positions in the current operand list; each
// step removes both and appends the result).
std::vector<std::pair<int, int>> ssa_to_linear(const SsaPath& ssa, int num_operands);

// Validates `steps` (linear convention) against the expression and computes its costs and
// report. Throws Validation naming the bad step. Without `step_text` the complete expression
// and the steps' subscripts and remaining expressions stay empty: an einsum call's plan does
// not print them, and on 200
// operands writing up to 64 terms of "remaining" per step was a quarter of a first call beside
// the planner (add_step_text fills them in when einsum_path reports a cached plan).
EinsumPath evaluate_path(const EinsumExpression& expr, const PathProblem& problem,
                         std::span<const std::pair<int, int>> steps, bool step_text = true);

}  // namespace tenferro::einsum_internal
