// Local improvement of a contraction tree by exact re-optimisation of small subtrees
// ("subtree reconfiguration"): for each internal node v, cut v's subtree at a frontier of up
// to `max_frontier` nodes (expanding the largest-cost interior node first), and re-solve the
// contraction of that frontier into v with the exact DP. The frontier tensors and v's result
// do not depend on the order inside, so a cheaper order found there lowers the whole path's
// cost by the same amount. A few passes over the tree, stopping when nothing improves.
#include <algorithm>
#include <limits>

#include "ops/einsum/interrupt_poll.hpp"
#include "ops/einsum/path_search.hpp"

namespace tenferro::einsum_internal {
namespace {

struct Tree {
  int leaves = 0;
  std::vector<int> left, right;  // per node; -1 for leaves
  int root = 0;
};

Tree tree_of(const SsaPath& ssa, int n) {
  Tree t;
  t.leaves = n;
  t.left.assign(static_cast<std::size_t>(n), -1);
  t.right.assign(static_cast<std::size_t>(n), -1);
  for (const auto& [a, b] : ssa) {
    t.left.push_back(a);
    t.right.push_back(b);
  }
  t.root = static_cast<int>(t.left.size()) - 1;
  return t;
}

// Children before parents, from the root (node ids lose that order once rewired).
std::vector<int> post_order(const Tree& t) {
  std::vector<int> order, stack{t.root};
  while (!stack.empty()) {  // reverse of a (node, right, left) pre-order is a post-order
    const int v = stack.back();
    stack.pop_back();
    order.push_back(v);
    if (t.left[static_cast<std::size_t>(v)] >= 0) {
      stack.push_back(t.left[static_cast<std::size_t>(v)]);
      stack.push_back(t.right[static_cast<std::size_t>(v)]);
    }
  }
  std::reverse(order.begin(), order.end());
  return order;
}

// T(v): the labels each node's result carries (the labels in v's leaves that the output or a
// leaf outside v needs). Bottom-up unions, then top-down "outside" unions.
std::vector<Word> node_sets(const PathProblem& p, const Tree& t) {
  const auto words = static_cast<std::size_t>(p.words);
  const std::size_t nodes = t.left.size();
  const std::vector<int> order = post_order(t);
  std::vector<Word> inside(nodes * words, 0), outside(nodes * words, 0), sets(nodes * words, 0);
  for (int node : order) {
    const auto v = static_cast<std::size_t>(node);
    for (std::size_t w = 0; w < words; ++w) {
      inside[v * words + w] = t.left[v] < 0
                                  ? p.input(node)[w]
                                  : inside[static_cast<std::size_t>(t.left[v]) * words + w] |
                                        inside[static_cast<std::size_t>(t.right[v]) * words + w];
    }
  }
  for (auto it = order.rbegin(); it != order.rend(); ++it) {
    const auto v = static_cast<std::size_t>(*it);
    if (t.left[v] < 0) continue;
    const auto a = static_cast<std::size_t>(t.left[v]), b = static_cast<std::size_t>(t.right[v]);
    for (std::size_t w = 0; w < words; ++w) {
      outside[a * words + w] = outside[v * words + w] | inside[b * words + w];
      outside[b * words + w] = outside[v * words + w] | inside[a * words + w];
    }
  }
  for (std::size_t v = 0; v < nodes; ++v) {
    for (std::size_t w = 0; w < words; ++w) {
      sets[v * words + w] = inside[v * words + w] & (p.output[w] | outside[v * words + w]);
    }
  }
  return sets;
}

double step_cost(const Word* a, const Word* b, const Word* result, std::size_t words,
                 std::span<const double> extents, std::vector<Word>& scratch) {
  bool sums = false;
  for (std::size_t w = 0; w < words; ++w) {
    scratch[w] = a[w] | b[w];
    sums |= (scratch[w] & ~result[w]) != 0;
  }
  return set_size(scratch, extents) * (sums ? 2 : 1);
}

}  // namespace

SsaPath refine_path(const PathProblem& p, const SsaPath& ssa, int max_frontier, int max_passes,
                    std::chrono::steady_clock::time_point deadline, bool* stopped_early) {
  if (stopped_early != nullptr) *stopped_early = false;
  const int n = p.num_operands;
  if (n < 3 || max_frontier < 3) return ssa;
  const auto words = static_cast<std::size_t>(p.words);
  Tree t = tree_of(ssa, n);
  std::vector<Word> scratch(words);

  bool out_of_time = false;
  InterruptPoll poll(p.interrupt);
  for (int pass = 0; pass < max_passes && !out_of_time; ++pass) {
    bool improved = false;
    std::vector<Word> sets = node_sets(p, t);
    for (int v = n; v < static_cast<int>(t.left.size()); ++v) {
      poll();
      // Each node's work is bounded (a DP over <= max_frontier tensors) but reaches a
      // millisecond on networks of hundreds of labels: checking every 64 nodes overran a 1 s
      // budget by 90 ms on a 200-tensor 4-regular graph, every 8 nodes by 3 ms.
      if ((v & 7) == 0 && std::chrono::steady_clock::now() > deadline) {
        out_of_time = true;
        break;
      }
      auto set_of = [&](int node) { return sets.data() + static_cast<std::size_t>(node) * words; };
      auto cost_of = [&](int node) {
        return step_cost(set_of(t.left[static_cast<std::size_t>(node)]),
                         set_of(t.right[static_cast<std::size_t>(node)]), set_of(node), words,
                         p.search_extents, scratch);
      };
      // Grow the frontier from v's children, always opening the costliest interior node.
      std::vector<int> frontier{t.left[static_cast<std::size_t>(v)],
                                t.right[static_cast<std::size_t>(v)]};
      std::vector<int> interior{v};
      double old_cost = cost_of(v);
      while (static_cast<int>(frontier.size()) < max_frontier) {
        int pick = -1;
        double pick_cost = -1;
        for (std::size_t f = 0; f < frontier.size(); ++f) {
          if (frontier[f] < n) continue;
          const double c = cost_of(frontier[f]);
          if (c > pick_cost) {
            pick_cost = c;
            pick = static_cast<int>(f);
          }
        }
        if (pick < 0) break;
        const int node = frontier[static_cast<std::size_t>(pick)];
        frontier.erase(frontier.begin() + pick);
        frontier.push_back(t.left[static_cast<std::size_t>(node)]);
        frontier.push_back(t.right[static_cast<std::size_t>(node)]);
        interior.push_back(node);
        old_cost += pick_cost;
      }
      if (frontier.size() < 3) continue;

      // The frontier as its own contraction problem with v's labels as the output.
      PathProblem sub;
      sub.num_operands = static_cast<int>(frontier.size());
      sub.num_labels = p.num_labels;
      sub.words = p.words;
      sub.output.assign(set_of(v), set_of(v) + words);
      for (int f : frontier) sub.inputs.insert(sub.inputs.end(), set_of(f), set_of(f) + words);
      sub.full_inputs = sub.inputs;
      sub.reduction_flops.assign(frontier.size(), 0);
      sub.extents = p.search_extents;
      sub.search_extents = p.search_extents;
      const auto sub_path = optimal_path(sub, std::chrono::steady_clock::time_point::max());
      if (!sub_path) continue;
      // Cost of the new order, from the sub-problem's own node sets.
      Tree st = tree_of(*sub_path, sub.num_operands);
      const std::vector<Word> sub_sets = node_sets(sub, st);
      double new_cost = 0;
      for (std::size_t u = frontier.size(); u < st.left.size(); ++u) {
        new_cost += step_cost(sub_sets.data() + static_cast<std::size_t>(st.left[u]) * words,
                              sub_sets.data() + static_cast<std::size_t>(st.right[u]) * words,
                              sub_sets.data() + u * words, words, p.search_extents, scratch);
      }
      if (!(new_cost < old_cost * (1 - 1e-12))) continue;

      // Rewire: v stays the sub-tree's root (its parent points at it); the other internal
      // nodes of the new order reuse the remaining interior ids.
      const int root_u = static_cast<int>(st.left.size()) - 1;
      auto node_id = [&](int u) {
        if (u < sub.num_operands) return frontier[static_cast<std::size_t>(u)];
        if (u == root_u) return v;
        return interior[static_cast<std::size_t>(u - sub.num_operands + 1)];  // interior[0] is v
      };
      for (std::size_t u = frontier.size(); u < st.left.size(); ++u) {
        const auto id = static_cast<std::size_t>(node_id(static_cast<int>(u)));
        t.left[id] = node_id(st.left[u]);
        t.right[id] = node_id(st.right[u]);
      }
      improved = true;
      sets = node_sets(p, t);  // only the rewired interior's sets changed, but this is cheap
    }
    if (!improved) break;
  }
  if (stopped_early != nullptr) *stopped_early = out_of_time;

  // Post-order walk (node ids are no longer in dependency order) back to an SSA path.
  SsaPath out;
  int next_id = n;
  auto emit = [&](auto&& self, int node) -> int {
    if (node < n) return node;
    const int a = self(self, t.left[static_cast<std::size_t>(node)]);
    const int b = self(self, t.right[static_cast<std::size_t>(node)]);
    out.emplace_back(a, b);
    return next_id++;
  };
  emit(emit, t.root);
  return out;
}

}  // namespace tenferro::einsum_internal
