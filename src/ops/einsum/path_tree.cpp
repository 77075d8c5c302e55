// Costs of a contraction tree given as an SSA path, computed from its nodes' label sets so
// that the hyper search can score thousands of trees and the slicer can re-cost one tree
// under many extent vectors without rebuilding anything. Same model as evaluate_path.
#include <algorithm>

#include "ops/einsum/path_search.hpp"

namespace tenferro::einsum_internal {

std::vector<Word> tree_node_sets(const PathProblem& p, const SsaPath& ssa) {
  const auto words = static_cast<std::size_t>(p.words);
  const auto n = static_cast<std::size_t>(p.num_operands);
  const std::size_t nodes = n + ssa.size();
  // inside[v]: labels of v's leaves; outside[v]: labels of every leaf not under v. A node
  // keeps the labels it holds that the output or an outside leaf needs.
  std::vector<Word> inside(nodes * words, 0), outside(nodes * words, 0), sets(nodes * words, 0);
  std::copy(p.inputs.begin(), p.inputs.end(), inside.begin());
  for (std::size_t k = 0; k < ssa.size(); ++k) {
    const auto a = static_cast<std::size_t>(ssa[k].first),
               b = static_cast<std::size_t>(ssa[k].second);
    for (std::size_t w = 0; w < words; ++w)
      inside[(n + k) * words + w] = inside[a * words + w] | inside[b * words + w];
  }
  for (std::size_t k = ssa.size(); k-- > 0;) {  // parents before children
    const auto a = static_cast<std::size_t>(ssa[k].first),
               b = static_cast<std::size_t>(ssa[k].second);
    const std::size_t v = n + k;
    for (std::size_t w = 0; w < words; ++w) {
      outside[a * words + w] = outside[v * words + w] | inside[b * words + w];
      outside[b * words + w] = outside[v * words + w] | inside[a * words + w];
    }
  }
  for (std::size_t v = 0; v < nodes; ++v)
    for (std::size_t w = 0; w < words; ++w)
      sets[v * words + w] = inside[v * words + w] & (p.output[w] | outside[v * words + w]);
  // Leaves keep their reduced sets (a leaf never loses a label another leaf or the output
  // needs, so this only matters for a single-operand tree).
  std::copy(p.inputs.begin(), p.inputs.end(), sets.begin());
  return sets;
}

TreeCost tree_cost(const PathProblem& p, const SsaPath& ssa, std::span<const Word> sets,
                   std::span<const double> extents) {
  const auto words = static_cast<std::size_t>(p.words);
  const auto n = static_cast<std::size_t>(p.num_operands);
  auto set = [&](std::size_t v) { return sets.subspan(v * words, words); };
  TreeCost cost;
  for (std::size_t k = 0; k < n; ++k) {
    if (p.reduction_flops[k] == 0) continue;  // only reduced leaves are intermediates
    cost.flops += 2 * set_size(p.full_input(static_cast<int>(k)), extents);
    cost.largest = std::max(cost.largest, set_size(set(k), extents));
  }
  std::vector<Word> merged(words);
  for (std::size_t k = 0; k < ssa.size(); ++k) {
    const auto a = set(static_cast<std::size_t>(ssa[k].first));
    const auto b = set(static_cast<std::size_t>(ssa[k].second));
    const auto r = set(n + k);
    bool sums = false;
    for (std::size_t w = 0; w < words; ++w) {
      merged[w] = a[w] | b[w];
      sums |= merged[w] != r[w];
    }
    const double result = set_size(r, extents);
    cost.flops += set_size(merged, extents) * (sums ? 2 : 1);
    cost.largest = std::max(cost.largest, result);
    cost.write += result;
  }
  return cost;
}

ObjectiveScore objective_score(const TreeCost& cost, PathObjective objective, double factor) {
  switch (objective) {
    case PathObjective::Size:
      return {cost.largest, cost.flops};
    case PathObjective::Combo:
      return {cost.flops + factor * cost.write, cost.flops};
    case PathObjective::Flops:
      break;
  }
  return {cost.flops, cost.largest};
}

SsaPath linear_to_ssa(std::span<const std::pair<int, int>> linear, int num_operands) {
  std::vector<int> ids(static_cast<std::size_t>(num_operands));
  for (int k = 0; k < num_operands; ++k) ids[static_cast<std::size_t>(k)] = k;
  SsaPath ssa;
  int next_id = num_operands;
  for (const auto& [i, j] : linear) {  // already validated by evaluate_path
    ssa.emplace_back(ids[static_cast<std::size_t>(i)], ids[static_cast<std::size_t>(j)]);
    ids.erase(ids.begin() + std::max(i, j));
    ids.erase(ids.begin() + std::min(i, j));
    ids.push_back(next_id++);
  }
  return ssa;
}

}  // namespace tenferro::einsum_internal
