// Exact contraction order by dynamic programming over operand subsets.
//
// The tensor that results from contracting a subset S of the operands is independent of the
// order used inside S: it keeps the labels of S that the output or an operand outside S
// still needs. So best(S) = min over splits S = A + B of best(A) + best(B) + cost(A, B),
// and the optimum over every pairwise tree (outer products included) costs O(3^n) split
// evaluations. Splits whose children alone already cost as much as the best split found so
// far (plus a lower bound of the step) are skipped before computing their step cost. A step
// writing its result costs write_weight per element on top (every split of S writes the same
// tensor, so the bound stays a lower bound).
#include <algorithm>
#include <cmath>
#include <limits>

#include "ops/einsum/interrupt_poll.hpp"
#include "ops/einsum/path_search.hpp"

namespace tenferro::einsum_internal {
namespace {

// The problems the DP sees are mostly parts of a large network (the leaves of a bisection tree,
// a reconfigured subtree): a few of its hundreds of labels. Renumbered densely they fit one word,
// and every set operation of the 3^n split loop is one instruction instead of a loop over the
// network's words. nullopt: already one word, or more than 64 labels in the problem.
std::optional<PathProblem> with_dense_labels(const PathProblem& p) {
  const auto words = static_cast<std::size_t>(p.words);
  if (words == 1) return std::nullopt;
  std::vector<Word> used(p.output);
  for (int k = 0; k < p.num_operands; ++k) {
    const auto in = p.input(k);
    for (std::size_t w = 0; w < words; ++w) used[w] |= in[w];
  }
  if (set_count(used) > 64) return std::nullopt;
  std::vector<int> dense(static_cast<std::size_t>(p.num_labels), -1);
  PathProblem c;
  c.num_operands = p.num_operands;
  c.words = 1;
  c.interrupt = p.interrupt;
  for (std::size_t w = 0; w < words; ++w) {
    for (Word bits = used[w]; bits; bits &= bits - 1) {
      const std::size_t l = w * 64 + static_cast<std::size_t>(__builtin_ctzll(bits));
      dense[l] = c.num_labels++;
      c.extents.push_back(p.extents[l]);
      c.search_extents.push_back(p.search_extents[l]);
    }
  }
  auto compact = [&](std::span<const Word> set) {
    Word out = 0;
    for (std::size_t w = 0; w < words; ++w)
      for (Word bits = set[w]; bits; bits &= bits - 1)
        out |= Word{1} << dense[w * 64 + static_cast<std::size_t>(__builtin_ctzll(bits))];
    return out;
  };
  c.output = {compact(p.output)};
  for (int k = 0; k < p.num_operands; ++k) c.inputs.push_back(compact(p.input(k)));
  c.full_inputs = c.inputs;
  c.reduction_flops.assign(static_cast<std::size_t>(p.num_operands), 0);
  return c;
}

std::optional<SsaPath> optimal_dp(const PathProblem& p,
                                  std::chrono::steady_clock::time_point deadline,
                                  double write_weight) {
  const int n = p.num_operands;
  const auto words = static_cast<std::size_t>(p.words);
  const std::uint32_t full = (std::uint32_t{1} << n) - 1;
  const std::size_t subsets = std::size_t{full} + 1;
  const std::span<const double> extents = p.search_extents;

  // labels[S]: union of the operands' (reduced) label sets; tensor[S]: the labels S's
  // result carries, those that the output or an operand outside S needs.
  std::vector<Word> labels(subsets * words, 0), tensor(subsets * words, 0);
  std::vector<double> tensor_size(subsets, 1);
  auto row = [words](std::vector<Word>& v, std::uint32_t s) { return v.data() + s * words; };
  for (std::uint32_t s = 1; s <= full; ++s) {
    const int k = __builtin_ctz(s);
    const Word* rest = row(labels, s & (s - 1));
    const auto in = p.input(k);
    for (std::size_t w = 0; w < words; ++w) row(labels, s)[w] = rest[w] | in[w];
  }
  for (std::uint32_t s = 1; s <= full; ++s) {
    Word* t = row(tensor, s);
    const Word* inside = row(labels, s);
    const Word* outside = row(labels, full ^ s);
    for (std::size_t w = 0; w < words; ++w) t[w] = inside[w] & (p.output[w] | outside[w]);
    tensor_size[s] = set_size({t, words}, extents);
  }

  constexpr double kInf = std::numeric_limits<double>::infinity();
  std::vector<double> best(subsets, kInf);
  std::vector<std::uint32_t> split(subsets, 0);
  std::uint64_t evaluations = 0;
  InterruptPoll poll(p.interrupt);
  for (std::uint32_t s = 1; s <= full; ++s) {
    if ((s & (s - 1)) == 0) {
      best[s] = 0;
      continue;
    }
    const std::uint32_t low = s & (~s + 1);
    const std::uint32_t rest = s ^ low;
    const Word* ts = row(tensor, s);
    // A always holds s's lowest operand, so each unordered split is seen once.
    for (std::uint32_t sub = (rest - 1) & rest;; sub = (sub - 1) & rest) {
      const std::uint32_t a = low | sub;
      const std::uint32_t b = s ^ a;
      const double children = best[a] + best[b];
      // The step loops over at least each operand's and the result's labels: a lower bound
      // that rejects most splits before their label sets are looked at.
      const double bound = children + std::max({tensor_size[a], tensor_size[b], tensor_size[s]});
      // split[s] == 0: no split taken yet. Sizes beyond the double range make every cost inf (or
      // NaN: inf / inf), which no comparison prefers; s still needs a split, or the walk below
      // would recurse into s forever. (A 3000-tensor bond-2 graph crashed auto's planner so.)
      if (bound < best[s] || split[s] == 0) {
        const Word* ta = row(tensor, a);
        const Word* tb = row(tensor, b);
        double shared = 1;
        bool sums = false;
        for (std::size_t w = 0; w < words; ++w) {
          for (Word bits = ta[w] & tb[w]; bits; bits &= bits - 1) {
            shared *= extents[w * 64 + static_cast<std::size_t>(__builtin_ctzll(bits))];
          }
          sums |= ((ta[w] | tb[w]) & ~ts[w]) != 0;
        }
        // The loop nest's size, |a| |b| / |shared|, divided first: |a| / |shared| is finite
        // whenever |a| is, so a finite step is not lost to an overflowing product.
        const double step = tensor_size[a] / shared * tensor_size[b] * (sums ? 2 : 1) +
                            write_weight * tensor_size[s];
        // Past the double range a cost is inf or NaN (inf / inf, 0 * inf): NaN counts as inf,
        // so that a finite split found later still replaces it.
        double cost = children + step;
        if (std::isnan(cost)) cost = std::numeric_limits<double>::infinity();
        if (cost < best[s] || split[s] == 0) {
          best[s] = cost;
          split[s] = a;
        }
      }
      if ((++evaluations & 0x7fff) == 0) {
        if (std::chrono::steady_clock::now() > deadline) return std::nullopt;
        poll.now();
      }
      if (sub == 0) break;
    }
  }

  // Post-order walk of the split tree gives the SSA path.
  SsaPath path;
  int next_id = n;
  auto emit = [&](auto&& self, std::uint32_t s) -> int {
    if ((s & (s - 1)) == 0) return __builtin_ctz(s);
    const int a = self(self, split[s]);
    const int b = self(self, s ^ split[s]);
    path.emplace_back(a, b);
    return next_id++;
  };
  emit(emit, full);
  return path;
}

}  // namespace

std::optional<SsaPath> optimal_path(const PathProblem& p,
                                    std::chrono::steady_clock::time_point deadline,
                                    double write_weight) {
  if (p.num_operands < 2) return SsaPath{};
  if (const auto dense = with_dense_labels(p)) return optimal_dp(*dense, deadline, write_weight);
  return optimal_dp(p, deadline, write_weight);
}

}  // namespace tenferro::einsum_internal
