// Slicing a contraction tree under a memory limit (see choose_slices in path_search.hpp).
//
// Slicing label l runs the whole tree once per value of l with l's extent set to 1, so every
// node holding l shrinks by extent(l) while every step not holding l is repeated extent(l)
// times: the FLOP overhead.
//
// The search is a few greedy runs, each slicing one label per round until every node fits:
//  * run 0 is the deterministic greedy that picks the label with the best ratio of "excess
//    removed" to "log FLOP overhead added", where the excess of a tree is the sum over its
//    nodes of log(size / limit) above the limit: unlike the largest node alone, it drops for
//    every label of an oversize node, so ties between several equally large nodes cannot
//    stall the search;
//  * runs 1 and 2 pick, among the labels of oversize nodes (run 1) or of the largest node
//    (run 2), the one that adds the least FLOPs (cotengra's SliceFinder score);
//  * later runs draw with Boltzmann weights around those three scores, from fixed seeds.
// A greedy run often slices a label early that later picks make unnecessary, so each run
// ends by un-slicing every label the limit lets go (the one that saves the most first):
// un-slicing never adds FLOPs. The least total FLOPs wins (ties: fewer slices, then the
// earlier run), so the result is deterministic and never costlier than run 0's greedy.
//
// Each run keeps every step's per-slice FLOPs and every node's size at the current extents,
// and per label the steps and nodes that hold it (as SliceFinder does): judging a label is a
// sum over what holds it, not a re-costing of the tree. Labels of extent <= 1 are never sliced
// (nothing to gain; extent 0 would mean zero slices).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>

#include "ops/einsum/interrupt_poll.hpp"
#include "ops/einsum/path_search.hpp"
#include "tenferro/core/error.hpp"

namespace tenferro::einsum_internal {
namespace {

// The tree as the slicer sees it: cost terms (single-operand reductions and steps, per slice)
// and intermediate nodes, each with the labels it holds.
struct SliceModel {
  double limit = 0;
  std::vector<double> extents;
  std::vector<double> terms;                    // FLOPs at the full extents
  std::vector<double> sizes;                    // elements at the full extents
  std::vector<std::vector<int>> label_terms;    // per label: the terms holding it
  std::vector<std::vector<int>> label_nodes;    // per label: the nodes holding it
  std::vector<std::vector<Label>> node_labels;  // per node: its labels
};

SliceModel make_model(const PathProblem& p, const SsaPath& ssa, double limit) {
  const auto words = static_cast<std::size_t>(p.words);
  const auto n = static_cast<std::size_t>(p.num_operands);
  const std::vector<Word> sets = tree_node_sets(p, ssa);
  SliceModel m;
  m.limit = limit;
  m.extents = p.extents;
  m.label_terms.resize(p.extents.size());
  m.label_nodes.resize(p.extents.size());
  auto labels_of = [&](std::span<const Word> set) {
    std::vector<Label> out;
    for (std::size_t w = 0; w < set.size(); ++w)
      for (Word bits = set[w]; bits; bits &= bits - 1)
        out.push_back(static_cast<Label>(w * 64 + static_cast<std::size_t>(__builtin_ctzll(bits))));
    return out;
  };
  auto add_term = [&](std::span<const Word> set, double factor) {
    const int t = static_cast<int>(m.terms.size());
    m.terms.push_back(set_size(set, p.extents) * factor);
    for (Label l : labels_of(set)) m.label_terms[static_cast<std::size_t>(l)].push_back(t);
  };
  auto add_node = [&](std::span<const Word> set) {
    const int v = static_cast<int>(m.sizes.size());
    m.sizes.push_back(set_size(set, p.extents));
    m.node_labels.push_back(labels_of(set));
    for (Label l : m.node_labels.back()) m.label_nodes[static_cast<std::size_t>(l)].push_back(v);
  };
  auto node_set = [&](std::size_t v) {
    return std::span<const Word>(sets).subspan(v * words, words);
  };
  // The same terms and nodes as tree_cost.
  for (std::size_t k = 0; k < n; ++k) {
    if (p.reduction_flops[k] == 0) continue;
    add_term(p.full_input(static_cast<int>(k)), 2);
    add_node(node_set(k));
  }
  std::vector<Word> merged(words);
  for (std::size_t k = 0; k < ssa.size(); ++k) {
    const auto a = node_set(static_cast<std::size_t>(ssa[k].first));
    const auto b = node_set(static_cast<std::size_t>(ssa[k].second));
    const auto r = node_set(n + k);
    bool sums = false;
    for (std::size_t w = 0; w < words; ++w) {
      merged[w] = a[w] | b[w];
      sums |= merged[w] != r[w];
    }
    add_term(merged, sums ? 2 : 1);
    add_node(r);
  }
  return m;
}

// One run's state: the terms and sizes at the current extents (sliced labels at 1).
struct SliceState {
  std::vector<double> terms, sizes;
  std::vector<char> sliced;  // per label
  std::vector<Label> labels;
  double slices = 1;
  double flops = 0;   // per slice
  double excess = 0;  // sum over oversize nodes of log(size / limit)
  double largest = 0;
  double total() const { return flops * slices; }
};

void refresh(const SliceModel& m, SliceState& s) {
  s.flops = 0;
  for (double t : s.terms) s.flops += t;
  s.excess = 0;
  s.largest = 0;
  for (double size : s.sizes) {
    if (size > m.limit) s.excess += std::log(size / m.limit);
    s.largest = std::max(s.largest, size);
  }
}

SliceState initial_state(const SliceModel& m) {
  SliceState s;
  s.terms = m.terms;
  s.sizes = m.sizes;
  s.sliced.assign(m.extents.size(), 0);
  refresh(m, s);
  return s;
}

// Slices label l (factor = its extent) or un-slices it (factor = 1 / its extent).
void rescale(const SliceModel& m, SliceState& s, Label l, double factor) {
  const auto li = static_cast<std::size_t>(l);
  for (int t : m.label_terms[li]) s.terms[static_cast<std::size_t>(t)] /= factor;
  for (int v : m.label_nodes[li]) s.sizes[static_cast<std::size_t>(v)] /= factor;
  refresh(m, s);
}

void slice(const SliceModel& m, SliceState& s, Label l) {
  const double e = m.extents[static_cast<std::size_t>(l)];
  rescale(m, s, l, e);
  s.slices *= e;
  s.sliced[static_cast<std::size_t>(l)] = 1;
  s.labels.push_back(l);
}

// Total FLOPs (all slices) after slicing l, without changing s.
double total_if_sliced(const SliceModel& m, const SliceState& s, Label l) {
  const double e = m.extents[static_cast<std::size_t>(l)];
  double held = 0;
  for (int t : m.label_terms[static_cast<std::size_t>(l)])
    held += s.terms[static_cast<std::size_t>(t)];
  return (s.flops - held + held / e) * s.slices * e;
}

double excess_removed(const SliceModel& m, const SliceState& s, Label l) {
  const double e = m.extents[static_cast<std::size_t>(l)];
  double removed = 0;
  for (int v : m.label_nodes[static_cast<std::size_t>(l)]) {
    const double size = s.sizes[static_cast<std::size_t>(v)];
    if (size <= m.limit) continue;
    removed += std::log(size / m.limit) - std::max(0.0, std::log(size / e / m.limit));
  }
  return removed;
}

enum class Score { Ratio, LeastFlops, LeastFlopsOnLargest };

struct RunParams {
  Score score = Score::Ratio;
  double temperature = 0;  // 0: deterministic
  std::uint64_t seed = 0;
};

// splitmix64: the draws are fixed by the seed on every platform (std distributions are not).
double uniform(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return static_cast<double>((z ^ (z >> 31)) >> 11) * 0x1.0p-53;
}

// One greedy run to the limit; false when an oversize node has no label left to slice.
bool greedy_run(const SliceModel& m, const RunParams& params, SliceState& s) {
  std::uint64_t rng = params.seed;
  std::vector<char> candidate(m.extents.size());
  while (s.largest > m.limit) {
    std::fill(candidate.begin(), candidate.end(), 0);
    std::size_t largest_node = 0;
    for (std::size_t v = 0; v < s.sizes.size(); ++v) {
      if (s.sizes[v] > s.sizes[largest_node]) largest_node = v;
      if (s.sizes[v] <= m.limit || params.score == Score::LeastFlopsOnLargest) continue;
      for (Label l : m.node_labels[v]) candidate[static_cast<std::size_t>(l)] = 1;
    }
    if (params.score == Score::LeastFlopsOnLargest)
      for (Label l : m.node_labels[largest_node]) candidate[static_cast<std::size_t>(l)] = 1;
    Label pick = -1;
    double pick_score = -HUGE_VAL;
    const double before = std::max(s.total(), 1e-300);
    for (std::size_t li = 0; li < candidate.size(); ++li) {
      if (!candidate[li] || s.sliced[li] || m.extents[li] <= 1) continue;
      const auto l = static_cast<Label>(li);
      const double total = total_if_sliced(m, s, l);
      double score;  // a log: larger is better
      if (params.score == Score::Ratio) {
        const double overhead = std::log(std::max(total, before) / before);
        score = std::log(excess_removed(m, s, l) / (overhead + 1e-9));
      } else {
        score = -std::log(std::max(total, 1e-300));
      }
      // Gumbel noise on a log score draws label l with weight score^(1 / temperature).
      if (params.temperature > 0)
        score -= params.temperature * std::log(-std::log(std::max(uniform(rng), 1e-300)));
      if (score > pick_score) {  // strict: ties keep the smaller label id
        pick = l;
        pick_score = score;
      }
    }
    if (pick < 0) return false;
    slice(m, s, pick);
  }
  return true;
}

// Un-slices, while the limit allows, the sliced label whose return saves the most FLOPs.
// Un-slicing never adds FLOPs: the steps holding the label were all repeated anyway.
void prune(const SliceModel& m, SliceState& s) {
  for (;;) {
    Label best = -1;
    double best_total = s.total();
    for (Label l : s.labels) {
      const auto li = static_cast<std::size_t>(l);
      const double e = m.extents[li];
      bool fits = true;
      for (int v : m.label_nodes[li])
        fits = fits && s.sizes[static_cast<std::size_t>(v)] * e <= m.limit;
      if (!fits) continue;
      double held = 0;
      for (int t : m.label_terms[li]) held += s.terms[static_cast<std::size_t>(t)];
      const double total = (s.flops - held + held * e) * s.slices / e;
      if (best < 0 || total < best_total) {
        best = l;
        best_total = total;
      }
    }
    if (best < 0) return;
    const double e = m.extents[static_cast<std::size_t>(best)];
    rescale(m, s, best, 1 / e);
    s.slices /= e;
    s.sliced[static_cast<std::size_t>(best)] = 0;
    s.labels.erase(std::find(s.labels.begin(), s.labels.end(), best));
  }
}

RunParams run_params(int run) {
  constexpr Score kScores[] = {Score::Ratio, Score::LeastFlops, Score::LeastFlopsOnLargest};
  RunParams params;
  params.score = kScores[run % 3];
  if (run >= 3) {
    params.temperature = 0.02 * static_cast<double>(1 + (run / 3) % 4);
    params.seed = static_cast<std::uint64_t>(run);
  }
  return params;
}

}  // namespace

SlicePlan choose_slices(const PathProblem& p, const SsaPath& ssa, double limit,
                        const SliceSettings& settings) {
  const SliceModel model = make_model(p, ssa, limit);
  SliceState best;
  bool found = false;
  InterruptPoll poll(p.interrupt);
  for (int run = 0; run <= std::max(0, settings.restarts); ++run) {
    poll.now();
    SliceState s = initial_state(model);
    if (!greedy_run(model, run_params(run), s)) {
      if (run == 0) {
        throw_validation("einsum", "memory limit of " + std::to_string(limit) +
                                       " elements: no label is left to slice and an "
                                       "intermediate still holds " +
                                       std::to_string(s.largest) + " elements");
      }
      continue;
    }
    if (settings.prune) prune(model, s);
    if (!found || s.total() < best.total() ||
        (s.total() == best.total() && s.slices < best.slices)) {
      best = std::move(s);
      found = true;
    }
  }
  // The reported figures come from tree_cost, the costing the rest of the planner uses.
  std::vector<double> extents = p.extents;
  for (Label l : best.labels) extents[static_cast<std::size_t>(l)] = 1;
  const TreeCost cost = tree_cost(p, ssa, tree_node_sets(p, ssa), extents);
  if (cost.largest > limit)  // the model and tree_cost disagree: a bug, never a silent overrun
    throw_error(ErrorKind::RuntimeState, ErrorPhase::Input, "einsum",
                "internal: the chosen slicing leaves an intermediate of " +
                    std::to_string(cost.largest) + " elements above the limit of " +
                    std::to_string(limit));
  SlicePlan plan;
  plan.labels = best.labels;
  plan.slices = best.slices;
  plan.flops = cost.flops * best.slices;
  plan.largest = cost.largest;
  return plan;
}

}  // namespace tenferro::einsum_internal
