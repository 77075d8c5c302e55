// opt_einsum's greedy contraction order ("memory-removed" cost), see path_search.hpp.
// Pair costs are re-evaluated over all live pairs each step (O(n^2) per step), which for the
// tens of operands einsum sees is a few microseconds and needs no stale-heap bookkeeping.
#include <limits>
#include <queue>
#include <tuple>

#include "ops/einsum/path_search.hpp"

namespace tenferro::einsum_internal {
namespace {

struct LiveTensor {
  int id = 0;
  std::vector<Word> set;
  double size = 0;
};

}  // namespace

SsaPath greedy_path(const PathProblem& p) {
  SsaPath path;
  const int n = p.num_operands;
  if (n < 2) return path;
  const auto words = static_cast<std::size_t>(p.words);
  const std::span<const double> extents = p.search_extents;

  std::vector<LiveTensor> live;
  std::vector<int> count(static_cast<std::size_t>(p.num_labels), 0);  // live tensors per label
  auto add_counts = [&](const std::vector<Word>& set, int delta) {
    for (std::size_t w = 0; w < words; ++w) {
      for (Word bits = set[w]; bits; bits &= bits - 1) {
        count[w * 64 + static_cast<std::size_t>(__builtin_ctzll(bits))] += delta;
      }
    }
  };
  for (int k = 0; k < n; ++k) {
    const auto in = p.input(k);
    LiveTensor t{k, std::vector<Word>(in.begin(), in.end()), set_size(in, extents)};
    add_counts(t.set, +1);
    live.push_back(std::move(t));
  }
  int next_id = n;

  std::vector<Word> ge2(words), ge3(words), k12(words), best_k12(words);
  // Stage 1: contractions of pairs that share a label the output does not keep.
  while (live.size() > 1) {
    std::fill(ge2.begin(), ge2.end(), 0);
    std::fill(ge3.begin(), ge3.end(), 0);
    for (std::size_t l = 0; l < count.size(); ++l) {
      const Word bit = Word{1} << (l % 64);
      if (count[l] >= 2) ge2[l / 64] |= bit;
      if (count[l] >= 3) ge3[l / 64] |= bit;
    }
    // Lexicographic (cost, larger id, smaller id), as opt_einsum breaks ties.
    std::tuple<double, int, int> best{std::numeric_limits<double>::infinity(), 0, 0};
    std::size_t best_i = 0, best_j = 0;
    bool found = false;
    for (std::size_t i = 0; i < live.size(); ++i) {
      for (std::size_t j = i + 1; j < live.size(); ++j) {
        const auto& a = live[i].set;
        const auto& b = live[j].set;
        bool shares_contracted = false;
        for (std::size_t w = 0; w < words; ++w) {
          const Word two = a[w] & b[w];
          const Word one = (a[w] | b[w]) & ~two;
          shares_contracted |= (two & ~p.output[w]) != 0;
          k12[w] = ((a[w] | b[w]) & p.output[w]) | (two & ge3[w]) | (one & ge2[w]);
        }
        if (!shares_contracted) continue;
        const double cost = set_size(k12, extents) - live[i].size - live[j].size;
        const std::tuple<double, int, int> key{cost, std::max(live[i].id, live[j].id),
                                               std::min(live[i].id, live[j].id)};
        if (!found || key < best) {
          best = key;
          best_i = i;
          best_j = j;
          best_k12 = k12;
          found = true;
        }
      }
    }
    if (!found) break;
    path.emplace_back(std::min(live[best_i].id, live[best_j].id),
                      std::max(live[best_i].id, live[best_j].id));
    add_counts(live[best_i].set, -1);
    add_counts(live[best_j].set, -1);
    live.erase(live.begin() + static_cast<std::ptrdiff_t>(best_j));  // best_j > best_i
    live.erase(live.begin() + static_cast<std::ptrdiff_t>(best_i));
    LiveTensor result{next_id++, best_k12, set_size(best_k12, extents)};
    add_counts(result.set, +1);
    live.push_back(std::move(result));
  }

  // Stage 2: outer products of what is left, smallest (by kept size) first.
  using Entry = std::tuple<double, int, std::vector<Word>>;
  std::priority_queue<Entry, std::vector<Entry>, std::greater<>> queue;
  auto kept = [&](const std::vector<Word>& set) {
    std::vector<Word> out(words);
    for (std::size_t w = 0; w < words; ++w) out[w] = set[w] & p.output[w];
    return out;
  };
  for (auto& t : live) {
    auto k = kept(t.set);
    queue.emplace(set_size(k, extents), t.id, std::move(k));
  }
  while (queue.size() > 1) {
    auto [size1, id1, set1] = queue.top();
    queue.pop();
    auto [size2, id2, set2] = queue.top();
    queue.pop();
    path.emplace_back(std::min(id1, id2), std::max(id1, id2));
    for (std::size_t w = 0; w < words; ++w) set1[w] |= set2[w];
    queue.emplace(set_size(set1, extents), next_id++, std::move(set1));
  }
  return path;
}

}  // namespace tenferro::einsum_internal
