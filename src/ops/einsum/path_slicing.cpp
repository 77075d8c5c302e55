// Slicing a contraction tree under a memory limit (see choose_slices in path_search.hpp).
//
// Slicing label l runs the whole tree once per value of l with l's extent set to 1, so every
// node holding l shrinks by extent(l) while every step not holding l is repeated extent(l)
// times: the FLOP overhead. The greedy picks, each round, the label with the best ratio of
// "excess removed" to "log FLOP overhead added", where the excess of a tree is the sum over
// its nodes of log(size / limit) above the limit: unlike the largest node alone, it drops
// for every label of an oversize node, so ties between several equally large nodes cannot
// stall the search. Labels of extent <= 1 are never sliced (nothing to gain; extent 0 would
// mean zero slices).
#include <cmath>
#include <string>

#include "ops/einsum/path_search.hpp"
#include "tenferro/core/error.hpp"

namespace tenferro::einsum_internal {
namespace {

struct Measure {
  TreeCost cost;
  double excess = 0;
};

}  // namespace

SlicePlan choose_slices(const PathProblem& p, const SsaPath& ssa, double limit) {
  const auto words = static_cast<std::size_t>(p.words);
  const auto n = static_cast<std::size_t>(p.num_operands);
  const std::vector<Word> sets = tree_node_sets(p, ssa);
  // The nodes that are intermediates: reduced leaves and every step's result.
  std::vector<std::size_t> nodes;
  for (std::size_t k = 0; k < n; ++k)
    if (p.reduction_flops[k] != 0) nodes.push_back(k);
  for (std::size_t v = n; v < n + ssa.size(); ++v) nodes.push_back(v);
  auto node_set = [&](std::size_t v) {
    return std::span<const Word>(sets).subspan(v * words, words);
  };

  std::vector<double> extents = p.extents;
  auto measure = [&] {
    Measure m;
    m.cost = tree_cost(p, ssa, sets, extents);
    for (std::size_t v : nodes) {
      const double size = set_size(node_set(v), extents);
      if (size > limit) m.excess += std::log(size / limit);
    }
    return m;
  };

  SlicePlan plan;
  Measure now = measure();
  plan.flops = now.cost.flops;
  while (now.cost.largest > limit) {
    // Candidates: the labels of oversize nodes that can still shrink.
    std::vector<Word> candidates(words, 0);
    for (std::size_t v : nodes) {
      const auto set = node_set(v);
      if (set_size(set, extents) <= limit) continue;
      for (std::size_t w = 0; w < words; ++w) candidates[w] |= set[w];
    }
    Label pick = -1;
    double pick_score = -1, pick_flops = 0;
    Measure pick_measure;
    for (std::size_t w = 0; w < words; ++w) {
      for (Word bits = candidates[w]; bits; bits &= bits - 1) {
        const auto l = static_cast<Label>(w * 64 + static_cast<std::size_t>(__builtin_ctzll(bits)));
        const double extent = extents[static_cast<std::size_t>(l)];
        if (extent <= 1) continue;
        extents[static_cast<std::size_t>(l)] = 1;
        const Measure m = measure();
        extents[static_cast<std::size_t>(l)] = extent;
        const double total = m.cost.flops * plan.slices * extent;
        const double before = std::max(plan.flops, 1e-300);
        const double overhead = std::log(std::max(total, before) / before);
        const double score = (now.excess - m.excess) / (overhead + 1e-9);
        if (score > pick_score) {  // strict: ties keep the smaller label id
          pick = l;
          pick_score = score;
          pick_flops = total;
          pick_measure = m;
        }
      }
    }
    if (pick < 0) {
      throw_validation("einsum", "memory limit of " + std::to_string(limit) +
                                     " elements: no label is left to slice and an intermediate "
                                     "still holds " +
                                     std::to_string(now.cost.largest) + " elements");
    }
    plan.slices *= extents[static_cast<std::size_t>(pick)];
    extents[static_cast<std::size_t>(pick)] = 1;
    plan.labels.push_back(pick);
    plan.flops = pick_flops;
    now = pick_measure;
  }
  plan.largest = now.cost.largest;
  return plan;
}

}  // namespace tenferro::einsum_internal
