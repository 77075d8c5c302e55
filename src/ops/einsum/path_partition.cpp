// Contraction trees by recursive bisection (cotengra's partition trees, with our own small
// partitioner instead of KaHyPar): split the operands into two parts whose shared labels
// weigh little (weight log2(extent): the cut is the log-size of the tensor that joins the
// parts), recurse into each part, and contract the two results last. Parts of up to
// `cutoff` operands are contracted optimally (exact DP) or, above 8, greedily.
//
// The partitioner is hypergraph_bisection.cpp's multilevel one: one node per operand, one net
// per label shared inside the part (labels with more than two holders are hyperedges, cut while
// any holder is on each side), sides within the sampled imbalance.
#include <algorithm>
#include <cmath>

#include "ops/einsum/hypergraph_bisection.hpp"
#include "ops/einsum/interrupt_poll.hpp"
#include "ops/einsum/path_search.hpp"

namespace tenferro::einsum_internal {
namespace {

class Bisection {
 public:
  Bisection(const PathProblem& p, const PartitionParams& params)
      : p_(p),
        params_(params),
        rng_(params.seed),
        labels_of_(static_cast<std::size_t>(p.num_operands)),
        holders_(static_cast<std::size_t>(p.num_labels)),
        weight_(static_cast<std::size_t>(p.num_labels)),
        in_part_(static_cast<std::size_t>(p.num_operands), -1),
        visited_(static_cast<std::size_t>(p.num_labels), -1) {
    for (int k = 0; k < p.num_operands; ++k) {
      const auto in = p.input(k);
      for (std::size_t w = 0; w < in.size(); ++w) {
        for (Word bits = in[w]; bits; bits &= bits - 1) {
          const auto l =
              static_cast<Label>(w * 64 + static_cast<std::size_t>(__builtin_ctzll(bits)));
          labels_of_[static_cast<std::size_t>(k)].push_back(l);
          holders_[static_cast<std::size_t>(l)].push_back(k);
        }
      }
    }
    for (int l = 0; l < p.num_labels; ++l)  // extent-1 labels still tie operands, faintly
      weight_[static_cast<std::size_t>(l)] =
          std::log2(p.search_extents[static_cast<std::size_t>(l)]) + 1e-3;
  }

  SsaPath run() {
    std::vector<int> all(static_cast<std::size_t>(p_.num_operands));
    for (int k = 0; k < p_.num_operands; ++k) all[static_cast<std::size_t>(k)] = k;
    next_id_ = p_.num_operands;
    build(all);
    return std::move(path_);
  }

 private:
  // Contracts `part` into one tensor; returns its SSA id.
  int build(const std::vector<int>& part) {
    if (part.size() == 1) return part.front();
    poll_.now();  // a bisection's work grows with the part: the clock every time
    if (static_cast<int>(part.size()) <= std::max(2, params_.cutoff)) return solve_small(part);
    std::vector<int> a, b;
    bisect(part, a, b);
    if (a.empty() || b.empty()) {  // no split found: halve in order
      a.assign(part.begin(), part.begin() + static_cast<std::ptrdiff_t>(part.size() / 2));
      b.assign(part.begin() + static_cast<std::ptrdiff_t>(part.size() / 2), part.end());
    }
    const int ia = build(a);
    const int ib = build(b);
    path_.emplace_back(ia, ib);
    return next_id_++;
  }

  // A part as its own problem whose output is what the rest of the network needs from it.
  int solve_small(const std::vector<int>& part) {
    const auto words = static_cast<std::size_t>(p_.words);
    PathProblem sub;
    sub.num_operands = static_cast<int>(part.size());
    sub.num_labels = p_.num_labels;
    sub.words = p_.words;
    sub.output.assign(words, 0);
    mark(part, 0);
    for (int k : part) {
      const auto in = p_.input(k);
      sub.inputs.insert(sub.inputs.end(), in.begin(), in.end());
      for (Label l : labels_of_[static_cast<std::size_t>(k)]) {
        bool needed = ((p_.output[static_cast<std::size_t>(l) / 64] >> (l % 64)) & 1) != 0;
        for (int h : holders_[static_cast<std::size_t>(l)])
          needed |= in_part_[static_cast<std::size_t>(h)] < 0;
        if (needed) sub.output[static_cast<std::size_t>(l) / 64] |= Word{1} << (l % 64);
      }
    }
    unmark(part);
    sub.full_inputs = sub.inputs;
    sub.reduction_flops.assign(part.size(), 0);
    sub.extents = p_.search_extents;
    sub.search_extents = p_.search_extents;
    std::optional<SsaPath> local;
    if (part.size() <= 8) local = optimal_path(sub, std::chrono::steady_clock::time_point::max());
    if (!local) local = greedy_path(sub);
    std::vector<int> ids(part);
    for (const auto& [x, y] : *local) {
      path_.emplace_back(ids[static_cast<std::size_t>(x)], ids[static_cast<std::size_t>(y)]);
      ids.push_back(next_id_++);
    }
    return ids.back();
  }

  // The imbalance of a split of `size` operands (PartitionParams::imbalance_decay).
  double imbalance_at(std::size_t size) const {
    const double s = static_cast<double>(size) / p_.num_operands;
    const double d = params_.imbalance_decay;
    return d >= 0 ? std::pow(s, d) * params_.imbalance
                  : 1 - std::pow(s, -d) * (1 - params_.imbalance);
  }

  void mark(const std::vector<int>& part, int side) {
    for (int k : part) in_part_[static_cast<std::size_t>(k)] = side;
  }
  void unmark(const std::vector<int>& part) {
    for (int k : part) in_part_[static_cast<std::size_t>(k)] = -1;
  }
  // Splits `part` with the multilevel partitioner (hypergraph_bisection.hpp): one node per
  // operand, one net per label with at least two holders in the part, weighing log2(extent).
  void bisect(const std::vector<int>& part, std::vector<int>& a, std::vector<int>& b) {
    const int m = static_cast<int>(part.size());
    for (int i = 0; i < m; ++i)
      in_part_[static_cast<std::size_t>(part[static_cast<std::size_t>(i)])] = i;
    Hypergraph graph;
    graph.node_weight.assign(static_cast<std::size_t>(m), 1);
    std::vector<int> pins;
    for (int k : part) {
      for (Label l : labels_of_[static_cast<std::size_t>(k)]) {
        if (visited_[static_cast<std::size_t>(l)] == visit_) continue;
        visited_[static_cast<std::size_t>(l)] = visit_;
        pins.clear();
        for (int h : holders_[static_cast<std::size_t>(l)])
          if (in_part_[static_cast<std::size_t>(h)] >= 0)
            pins.push_back(in_part_[static_cast<std::size_t>(h)]);
        if (pins.size() >= 2) graph.add_net(weight_[static_cast<std::size_t>(l)], pins);
      }
    }
    ++visit_;
    unmark(part);
    BisectionParams bp;
    bp.imbalance = imbalance_at(part.size());
    bp.passes = params_.passes;
    bp.cycles = params_.starts;
    bp.coarsest = params_.coarsest;
    std::vector<signed char> side;
    bisect_hypergraph(graph, bp, rng_, side);
    a.clear();
    b.clear();
    for (int i = 0; i < m; ++i)
      (side[static_cast<std::size_t>(i)] == 0 ? a : b).push_back(part[static_cast<std::size_t>(i)]);
  }

  const PathProblem& p_;
  PartitionParams params_;
  std::uint64_t rng_;
  std::vector<std::vector<Label>> labels_of_;
  std::vector<std::vector<int>> holders_;
  std::vector<double> weight_;
  InterruptPoll poll_{p_.interrupt};
  std::vector<int> in_part_;  // per operand: >= 0 while its part is being split or solved, else -1
  std::vector<int> visited_;  // per label: the visit_ stamp of the last split that saw it
  int visit_ = 0;
  SsaPath path_;
  int next_id_ = 0;
};

}  // namespace

SsaPath partition_path(const PathProblem& p, const PartitionParams& params) {
  if (p.num_operands < 2) return {};
  return Bisection(p, params).run();
}

}  // namespace tenferro::einsum_internal
