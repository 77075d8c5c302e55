// opt_einsum's greedy contraction order ("memory-removed" cost), see path_search.hpp.
//
// Candidate pairs (tensors sharing a label the output does not keep) live in a lazy min-heap
// keyed (cost, larger id, smaller id), opt_einsum's tie-break. Unlike opt_einsum, costs are
// kept exact: a contraction changes the reference counts of its labels, so every pair that
// touches a tensor holding one of them is re-pushed with a new version and the old entries
// are skipped when popped. Work per step is proportional to the neighbourhood of the
// contracted pair, so planning stays fast for hundreds of operands.
#include <algorithm>
#include <queue>
#include <tuple>

#include "ops/einsum/path_search.hpp"

namespace tenferro::einsum_internal {
namespace {

struct Candidate {
  double cost;
  int high_id, low_id;         // larger and smaller SSA id
  unsigned high_ver, low_ver;  // the tensors' versions when the cost was computed
  bool operator>(const Candidate& o) const {
    return std::tie(cost, high_id, low_id) > std::tie(o.cost, o.high_id, o.low_id);
  }
};

template <class Fn>
void for_each_label(std::span<const Word> set, Fn&& fn) {
  for (std::size_t w = 0; w < set.size(); ++w) {
    for (Word bits = set[w]; bits; bits &= bits - 1) {
      fn(static_cast<Label>(w * 64 + static_cast<std::size_t>(__builtin_ctzll(bits))));
    }
  }
}

class GreedySearch {
 public:
  explicit GreedySearch(const PathProblem& p)
      : p_(p),
        words_(static_cast<std::size_t>(p.words)),
        holders_(static_cast<std::size_t>(p.num_labels)) {
    for (int k = 0; k < p.num_operands; ++k) {
      const auto in = p.input(k);
      add_tensor(std::vector<Word>(in.begin(), in.end()));
    }
  }

  SsaPath run() {
    for (int id = 0; id < static_cast<int>(sets_.size()); ++id)
      push_pairs_of(id, /*only_higher=*/true);
    while (!queue_.empty()) {
      const Candidate c = queue_.top();
      queue_.pop();
      if (!alive_[c.high_id] || !alive_[c.low_id] || version_[c.high_id] != c.high_ver ||
          version_[c.low_id] != c.low_ver) {
        continue;  // stale
      }
      contract(c.low_id, c.high_id);
    }
    outer_products();
    return std::move(path_);
  }

 private:
  std::span<const Word> set(int id) const {
    return {sets_[static_cast<std::size_t>(id)].data(), words_};
  }
  bool contracted(Label l) const {
    return !((p_.output[static_cast<std::size_t>(l) / 64] >> (l % 64)) & 1);
  }

  int add_tensor(std::vector<Word> set) {
    const int id = static_cast<int>(sets_.size());
    sizes_.push_back(set_size(set, p_.search_extents));
    sets_.push_back(std::move(set));
    alive_.push_back(true);
    version_.push_back(0);
    for_each_label(this->set(id), [&](Label l) {
      if (contracted(l)) holders_[static_cast<std::size_t>(l)].push_back(id);
    });
    return id;
  }

  void remove_tensor(int id) {
    alive_[static_cast<std::size_t>(id)] = false;
    for_each_label(set(id), [&](Label l) {
      auto& h = holders_[static_cast<std::size_t>(l)];
      if (contracted(l)) h.erase(std::find(h.begin(), h.end(), id));
    });
  }

  // Live tensors sharing a contracted label with `id`.
  std::vector<int> neighbours(int id) const {
    std::vector<int> out;
    for_each_label(set(id), [&](Label l) {
      if (!contracted(l)) return;
      for (int other : holders_[static_cast<std::size_t>(l)]) {
        if (other != id && std::find(out.begin(), out.end(), other) == out.end())
          out.push_back(other);
      }
    });
    return out;
  }

  // The result's labels: kept by the output, or still held by a third tensor.
  std::vector<Word> result_set(int a, int b) const {
    std::vector<Word> k12(words_, 0);
    const auto sa = set(a), sb = set(b);
    for (std::size_t w = 0; w < words_; ++w) k12[w] = (sa[w] | sb[w]) & p_.output[w];
    auto keep_if_shared = [&](Label l) {
      const auto& h = holders_[static_cast<std::size_t>(l)];
      const std::size_t mine = static_cast<std::size_t>(std::count(h.begin(), h.end(), a) +
                                                        std::count(h.begin(), h.end(), b));
      if (h.size() > mine) k12[static_cast<std::size_t>(l) / 64] |= Word{1} << (l % 64);
    };
    for_each_label(sa, [&](Label l) {
      if (contracted(l)) keep_if_shared(l);
    });
    for_each_label(sb, [&](Label l) {
      if (contracted(l)) keep_if_shared(l);
    });
    return k12;
  }

  void push_pair(int a, int b) {
    const double cost = set_size(result_set(a, b), p_.search_extents) -
                        sizes_[static_cast<std::size_t>(a)] - sizes_[static_cast<std::size_t>(b)];
    const int high = std::max(a, b), low = std::min(a, b);
    queue_.push({cost, high, low, version_[static_cast<std::size_t>(high)],
                 version_[static_cast<std::size_t>(low)]});
  }

  void push_pairs_of(int id, bool only_higher) {
    for (int other : neighbours(id)) {
      if (!only_higher || other > id) push_pair(id, other);
    }
  }

  void contract(int a, int b) {
    path_.emplace_back(a, b);
    std::vector<Word> k12 = result_set(a, b);
    // Tensors whose pair costs change: those holding a contracted label of a or b.
    std::vector<int> touched = neighbours(a);
    for (int x : neighbours(b)) {
      if (std::find(touched.begin(), touched.end(), x) == touched.end()) touched.push_back(x);
    }
    remove_tensor(a);
    remove_tensor(b);
    const int c = add_tensor(std::move(k12));
    for (int x : touched) {
      if (x == a || x == b) continue;
      ++version_[static_cast<std::size_t>(x)];
    }
    for (int x : touched) {
      if (x == a || x == b) continue;
      for (int y : neighbours(x)) {
        if (y == c) continue;  // pushed below with c's pairs
        // Each pair once: when both ends were touched, only from the smaller id.
        const bool y_touched = std::find(touched.begin(), touched.end(), y) != touched.end();
        if (!y_touched || x < y) push_pair(x, y);
      }
    }
    push_pairs_of(c, /*only_higher=*/false);
  }

  // Stage 2: what is left shares no contracted label; outer products, smallest first.
  void outer_products() {
    using Entry = std::tuple<double, int, std::vector<Word>>;
    std::priority_queue<Entry, std::vector<Entry>, std::greater<>> queue;
    auto kept = [&](std::span<const Word> s) {
      std::vector<Word> out(words_);
      for (std::size_t w = 0; w < words_; ++w) out[w] = s[w] & p_.output[w];
      return out;
    };
    for (int id = 0; id < static_cast<int>(sets_.size()); ++id) {
      if (!alive_[static_cast<std::size_t>(id)]) continue;
      auto k = kept(set(id));
      queue.emplace(set_size(k, p_.search_extents), id, std::move(k));
    }
    int next_id = static_cast<int>(sets_.size());
    while (queue.size() > 1) {
      auto [size1, id1, set1] = queue.top();
      queue.pop();
      auto [size2, id2, set2] = queue.top();
      queue.pop();
      path_.emplace_back(std::min(id1, id2), std::max(id1, id2));
      for (std::size_t w = 0; w < words_; ++w) set1[w] |= set2[w];
      queue.emplace(set_size(set1, p_.search_extents), next_id++, std::move(set1));
    }
  }

  const PathProblem& p_;
  std::size_t words_;
  std::vector<std::vector<Word>> sets_;
  std::vector<double> sizes_;
  std::vector<bool> alive_;
  std::vector<unsigned> version_;
  std::vector<std::vector<int>> holders_;  // per contracted label: live tensors holding it
  std::priority_queue<Candidate, std::vector<Candidate>, std::greater<>> queue_;
  SsaPath path_;
};

}  // namespace

SsaPath greedy_path(const PathProblem& p) {
  if (p.num_operands < 2) return {};
  return GreedySearch(p).run();
}

}  // namespace tenferro::einsum_internal
