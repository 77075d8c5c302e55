// opt_einsum's greedy contraction order ("memory-removed" cost), see path_search.hpp.
//
// Complexity: O(P log P) with P the number of candidate pairs ever pushed. With L labels per
// tensor and K = kHyperHolders, P <= n * L * K (each new tensor pairs with at most K holders
// per label) + K^2 per label (see Hyperedges) + one representative per step and label:
// O(n log n) in the operand count whatever the labels' degrees. What makes it so:
//  * Label sets are sorted label lists, not bitsets over every label of the expression, so a
//    tensor costs its own labels, not the expression's.
//  * A candidate pair's cost never changes while both tensors live. The result of (x, y)
//    keeps a label of both iff the output or a third tensor holds it; contracting (a, b) into
//    c replaces a and b by c among the holders of every label c keeps, and drops only labels
//    nobody else holds. So "a third holder exists" is unchanged for every pair other than c's,
//    and the only new candidates after a step are c's pairs: one heap push each, with the cost
//    accumulated over c's labels and their holders. Entries naming a contracted tensor are
//    skipped when popped (lazy invalidation).
//  * Ties break as opt_einsum's: (cost, larger id, smaller id).
//  * Hyperedges: a contracted label held by more than kHyperHolders live tensors would make
//    every pair of its holders a candidate (h^2/2 heap entries, and again for each result:
//    10000 operands sharing one label meant 10^8 entries, seconds and gigabytes). Such a label
//    finds no partners; instead the heap holds one representative pair per hyperedge: its two
//    smallest holders by (size, id), re-pushed whenever a step changes its holders. For two
//    tensors that share only that label the cost size(x)*size(y)/e - size(x) - size(y) (e the
//    label's extent, e <= size of either) grows with both sizes, strictly when both exceed e,
//    so that pair is the cheapest such pair, with opt_einsum's tie order: where the holders
//    share nothing else and are all larger than e, or all equal ("i,i,...,i->", 10000
//    operands), the path is exactly opt_einsum's (greedy_test checks it). A holder that is the
//    label alone costs the same with every partner: opt_einsum then takes the lowest ids, this
//    search the smallest partner. Pairs that also share an ordinary label are found through
//    it, with every shared label's extent in their cost. A label stops being a hyperedge when
//    its holders drop to kHyperHolders (they only ever drop): then all pairs among them are
//    pushed once. An output label held by more than kHyperHolders tensors is not scanned for
//    partners either (it never makes a pair a candidate; "bi,bi,...->b" scanned n holders per
//    step).
//  * The randomised variant (random_greedy_path) only changes the cost's weighting of the
//    operands (alpha) and which of the cheapest valid pairs is taken; both keep the pair
//    cost a function of the three sizes, so the lazy queue stays exact.
#include <algorithm>
#include <cmath>
#include <queue>
#include <set>
#include <tuple>

#include "ops/einsum/interrupt_poll.hpp"
#include "ops/einsum/path_search.hpp"

namespace tenferro::einsum_internal {
namespace {

// Above this many live holders a contracted label is a hyperedge (see the file comment).
// Ordinary networks (and the random networks greedy_test compares with the definition) stay
// below it, so their paths are opt_einsum's exactly.
constexpr std::size_t kHyperHolders = 32;

struct Candidate {
  double cost;
  int high_id, low_id;  // larger and smaller SSA id
  bool operator>(const Candidate& o) const {
    return std::tie(cost, high_id, low_id) > std::tie(o.cost, o.high_id, o.low_id);
  }
};

using Labels = std::vector<Label>;  // sorted

// splitmix64: a tiny generator whose sequence is fixed by the seed on every platform (the
// standard distributions are not), so a trial reproduces bit for bit.
class SplitMix {
 public:
  explicit SplitMix(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }  // [0, 1)

 private:
  std::uint64_t state_;
};

class GreedySearch {
 public:
  GreedySearch(const PathProblem& p, const GreedyParams& params)
      : p_(p),
        params_(params),
        rng_(params.seed),
        holders_(static_cast<std::size_t>(p.num_labels)) {
    const auto total = static_cast<std::size_t>(2 * p.num_operands);
    sets_.reserve(total);
    sizes_.reserve(total);
    alive_.reserve(total);
    scratch_.assign(total, {});
    InterruptPoll poll(p.interrupt);
    for (int k = 0; k < p.num_operands; ++k) {
      poll();
      Labels labels;
      const auto in = p.input(k);
      for (std::size_t w = 0; w < in.size(); ++w) {
        for (Word bits = in[w]; bits; bits &= bits - 1) {
          labels.push_back(
              static_cast<Label>(w * 64 + static_cast<std::size_t>(__builtin_ctzll(bits))));
        }
      }
      add_tensor(std::move(labels));
    }
    hyper_.assign(static_cast<std::size_t>(p.num_labels), false);
    by_size_.resize(static_cast<std::size_t>(p.num_labels));
    for (Label l = 0; l < p.num_labels; ++l) {
      if (!contracted(l) || holders(l).size() <= kHyperHolders) continue;
      hyper_[static_cast<std::size_t>(l)] = true;
      for (int id : holders(l))
        by_size_[static_cast<std::size_t>(l)].emplace(sizes_[static_cast<std::size_t>(id)], id);
    }
  }

  std::size_t pushed() const { return pushed_; }

  SsaPath run() {
    InterruptPoll poll(p_.interrupt);
    for (int id = 0; id < static_cast<int>(sets_.size()); ++id) {
      poll();
      push_pairs_of(id, /*only_higher=*/true);
    }
    for (Label l = 0; l < p_.num_labels; ++l) push_representative(l);
    const bool thermal = params_.temperature > 0 && params_.branches > 1;
    while (!queue_.empty()) {
      poll();
      if (thermal) {
        if (!thermal_step()) break;
        continue;
      }
      const Candidate c = queue_.top();
      queue_.pop();
      if (!valid(c)) continue;  // one side was contracted since this pair was pushed
      contract(c.low_id, c.high_id);
    }
    outer_products(poll);
    return std::move(path_);
  }

 private:
  bool valid(const Candidate& c) const {
    return alive_[static_cast<std::size_t>(c.high_id)] &&
           alive_[static_cast<std::size_t>(c.low_id)];
  }

  // Draws one of the `branches` cheapest valid pairs with Boltzmann weights relative to the
  // cheapest one's magnitude (opt_einsum's thermal_chooser); the others go back.
  bool thermal_step() {
    choices_.clear();
    while (!queue_.empty() && static_cast<int>(choices_.size()) < params_.branches) {
      const Candidate c = queue_.top();
      queue_.pop();
      if (valid(c)) choices_.push_back(c);
    }
    if (choices_.empty()) return false;
    std::size_t pick = 0;
    if (choices_.size() > 1) {
      const double cmin = choices_.front().cost;
      const double scale = params_.temperature * std::max(1.0, std::abs(cmin));
      double total = 0;
      weights_.clear();
      for (const Candidate& c : choices_) {
        weights_.push_back(std::exp(-(c.cost - cmin) / scale));
        total += weights_.back();
      }
      double r = rng_.uniform() * total;
      for (pick = 0; pick + 1 < choices_.size(); ++pick) {
        if (r < weights_[pick]) break;
        r -= weights_[pick];
      }
    }
    for (std::size_t k = 0; k < choices_.size(); ++k)
      if (k != pick) queue_.push(choices_[k]);
    contract(choices_[pick].low_id, choices_[pick].high_id);
    return true;
  }

  bool contracted(Label l) const {
    return !((p_.output[static_cast<std::size_t>(l) / 64] >> (l % 64)) & 1);
  }
  double extent(Label l) const { return p_.search_extents[static_cast<std::size_t>(l)]; }
  std::vector<int>& holders(Label l) { return holders_[static_cast<std::size_t>(l)]; }
  bool hyper(Label l) const { return hyper_[static_cast<std::size_t>(l)]; }

  int add_tensor(Labels labels) {
    const int id = static_cast<int>(sets_.size());
    double size = 1;
    std::vector<int> positions;
    positions.reserve(labels.size());
    for (Label l : labels) {
      size *= extent(l);
      positions.push_back(static_cast<int>(holders(l).size()));
      holders(l).push_back(id);
    }
    holder_pos_.push_back(std::move(positions));
    sizes_.push_back(size);
    for (Label l : labels)
      if (!hyper_.empty() && hyper(l)) by_size_[static_cast<std::size_t>(l)].emplace(size, id);
    sets_.push_back(std::move(labels));
    alive_.push_back(true);
    return id;
  }

  // Pushes `id`'s pairs with the live tensors sharing a contracted label (only those with a
  // larger id when `only_higher`). Per other tensor y the extents of the labels both hold
  // multiply into `shared`, those of the contracted labels nobody else holds into `removed`:
  // the result is x's and y's labels less the removed ones, of size
  // (size(x) / shared) * (size(y) / removed) -- exact quotients of products of the extents,
  // so the cost is the exact figure while sizes stay below 2^53.
  // A hyperedge label finds no partners here (push_representative stands for it); when `id`
  // holds one, each partner's cost is recomputed over all shared labels by push_pair.
  void push_pairs_of(int id, bool only_higher) {
    ++stamp_;
    others_.clear();
    bool exact_costs = false;
    for (Label l : sets_[static_cast<std::size_t>(id)]) {
      const std::vector<int>& h = holders(l);
      // A hyperedge, or an output label that many tensors hold ("bi,bi,...->b"), never makes
      // a pair a candidate here; scanning its holders for each new tensor was O(n) per step.
      if (hyper(l) || (!contracted(l) && h.size() > kHyperHolders)) {
        exact_costs = true;
        continue;
      }
      const bool summed = contracted(l);
      const bool private_pair = summed && h.size() == 2;  // only id and y: summed away
      for (int y : h) {
        if (y == id || (only_higher && y < id)) continue;
        Scratch& s = scratch_[static_cast<std::size_t>(y)];
        if (s.stamp != stamp_) {
          s = {stamp_, 1, 1, false};
          others_.push_back(y);
        }
        s.shared *= extent(l);
        if (private_pair) s.removed *= extent(l);
        s.neighbour |= summed;
      }
    }
    for (int y : others_) {
      const Scratch& s = scratch_[static_cast<std::size_t>(y)];
      // Shares only output labels (not a candidate, as in opt_einsum), or only hyperedges
      // (their representatives stand for those pairs).
      if (!s.neighbour) continue;
      if (exact_costs) {
        push_pair(id, y);  // the skipped labels' extents count too
      } else {
        push_cost(id, y, s.shared, s.removed);
      }
    }
  }

  void push_cost(int x, int y, double shared, double removed) {
    const double size_x = sizes_[static_cast<std::size_t>(x)];
    const double size_y = sizes_[static_cast<std::size_t>(y)];
    const double result = (size_x / shared) * (size_y / removed);
    // alpha == 1 keeps greedy_path's exact arithmetic (and so its ties).
    const double cost =
        params_.alpha == 1 ? result - size_x - size_y : result - params_.alpha * (size_x + size_y);
    queue_.push({cost, std::max(x, y), std::min(x, y)});
    ++pushed_;
  }

  // The pair (x, y) with its cost from the intersection of their sorted label lists, the same
  // products as push_pairs_of's; nothing when they share no contracted label.
  void push_pair(int x, int y) {
    const Labels& lx = sets_[static_cast<std::size_t>(x)];
    const Labels& ly = sets_[static_cast<std::size_t>(y)];
    double shared = 1, removed = 1;
    bool neighbour = false;
    for (auto i = lx.begin(), j = ly.begin(); i != lx.end() && j != ly.end();) {
      if (*i < *j) {
        ++i;
      } else if (*j < *i) {
        ++j;
      } else {
        const bool summed = contracted(*i);
        shared *= extent(*i);
        if (summed && holders(*i).size() == 2) removed *= extent(*i);
        neighbour |= summed;
        ++i;
        ++j;
      }
    }
    if (neighbour) push_cost(x, y, shared, removed);
  }

  // A hyperedge's representative: its two smallest live holders by (size, id).
  void push_representative(Label l) {
    if (!hyper(l)) return;
    const auto& ordered = by_size_[static_cast<std::size_t>(l)];
    if (ordered.size() < 2) return;
    push_pair(ordered.begin()->second, std::next(ordered.begin())->second);
  }

  void contract(int a, int b) {
    path_.emplace_back(a, b);
    alive_[static_cast<std::size_t>(a)] = false;
    alive_[static_cast<std::size_t>(b)] = false;
    const Labels& la = sets_[static_cast<std::size_t>(a)];
    const Labels& lb = sets_[static_cast<std::size_t>(b)];
    for (const Labels* side : {&la, &lb}) {
      const int gone = side == &la ? a : b;
      for (std::size_t k = 0; k < side->size(); ++k) {
        const Label l = (*side)[k];
        drop_holder(l, gone, k);
        if (hyper(l))
          by_size_[static_cast<std::size_t>(l)].erase(
              {sizes_[static_cast<std::size_t>(gone)], gone});
      }
    }
    // The result keeps the output's labels and those a third (live) tensor still holds.
    Labels kept;
    kept.reserve(la.size() + lb.size());
    std::set_union(la.begin(), la.end(), lb.begin(), lb.end(), std::back_inserter(kept));
    std::erase_if(kept, [&](Label l) { return contracted(l) && holders(l).empty(); });
    Labels touched;
    std::set_union(la.begin(), la.end(), lb.begin(), lb.end(), std::back_inserter(touched));
    const int c = add_tensor(std::move(kept));
    // A hyperedge that dropped to kHyperHolders holders becomes an ordinary label: every pair
    // of its holders becomes a candidate (once per label, as holders only ever drop).
    for (Label l : touched) {
      if (!hyper(l) || holders(l).size() > kHyperHolders) continue;
      hyper_[static_cast<std::size_t>(l)] = false;
      by_size_[static_cast<std::size_t>(l)].clear();
      const std::vector<int> h = holders(l);
      for (std::size_t u = 0; u < h.size(); ++u)
        for (std::size_t v = u + 1; v < h.size(); ++v) push_pair(h[u], h[v]);
    }
    push_pairs_of(c, /*only_higher=*/false);
    for (Label l : touched) push_representative(l);
  }

  // Removes `gone` (whose k-th label is l) from l's holders in O(log): the last holder takes
  // its place (the holders' order never matters: candidates are ordered by the heap alone).
  // An erase in place moved the whole list, O(n) per step on a label all n operands hold.
  void drop_holder(Label l, int gone, std::size_t k) {
    std::vector<int>& h = holders(l);
    const int at = holder_pos_[static_cast<std::size_t>(gone)][k];
    const int last = h.back();
    h[static_cast<std::size_t>(at)] = last;
    h.pop_back();
    if (last == gone) return;
    const Labels& moved = sets_[static_cast<std::size_t>(last)];
    const auto kk = std::lower_bound(moved.begin(), moved.end(), l) - moved.begin();
    holder_pos_[static_cast<std::size_t>(last)][static_cast<std::size_t>(kk)] = at;
  }

  // Stage 2: what is left shares no contracted label; outer products, smallest first.
  void outer_products(InterruptPoll& poll) {
    using Entry = std::tuple<double, int, Labels>;
    std::priority_queue<Entry, std::vector<Entry>, std::greater<>> queue;
    auto kept_size = [&](Labels& s) {
      std::erase_if(s, [&](Label l) { return contracted(l); });
      double size = 1;
      for (Label l : s) size *= extent(l);
      return size;
    };
    for (int id = 0; id < static_cast<int>(sets_.size()); ++id) {
      if (!alive_[static_cast<std::size_t>(id)]) continue;
      Labels k = sets_[static_cast<std::size_t>(id)];
      const double size = kept_size(k);
      queue.emplace(size, id, std::move(k));
    }
    int next_id = static_cast<int>(sets_.size());
    while (queue.size() > 1) {
      poll();
      auto [size1, id1, set1] = queue.top();
      queue.pop();
      auto [size2, id2, set2] = queue.top();
      queue.pop();
      path_.emplace_back(std::min(id1, id2), std::max(id1, id2));
      Labels merged;
      std::set_union(set1.begin(), set1.end(), set2.begin(), set2.end(),
                     std::back_inserter(merged));
      const double size = kept_size(merged);
      queue.emplace(size, next_id++, std::move(merged));
    }
  }

  struct Scratch {
    unsigned stamp = 0;
    double shared = 1, removed = 1;
    bool neighbour = false;  // shares a contracted label
  };

  const PathProblem& p_;
  GreedyParams params_;
  SplitMix rng_;
  std::vector<Candidate> choices_;
  std::vector<double> weights_;
  std::vector<Labels> sets_;
  std::vector<double> sizes_;
  std::vector<bool> alive_;
  std::vector<std::vector<int>> holders_;     // per label: live tensors holding it
  std::vector<std::vector<int>> holder_pos_;  // per tensor, per label: its index in holders
  std::vector<bool> hyper_;                   // per label: a hyperedge (see the file comment)
  std::vector<std::set<std::pair<double, int>>> by_size_;  // per hyperedge: (size, id) of holders
  std::vector<Scratch> scratch_;  // per tensor id, valid when stamp == stamp_
  std::vector<int> others_;       // tensors sharing a label with the current one
  unsigned stamp_ = 0;
  std::priority_queue<Candidate, std::vector<Candidate>, std::greater<>> queue_;
  std::size_t pushed_ = 0;  // candidates ever pushed (greedy_path's work figure)
  SsaPath path_;
};

}  // namespace

SsaPath greedy_path(const PathProblem& p, std::size_t* pushed) {
  if (p.num_operands < 2) return {};
  GreedySearch search(p, GreedyParams{});
  SsaPath path = search.run();
  if (pushed != nullptr) *pushed = search.pushed();
  return path;
}

SsaPath random_greedy_path(const PathProblem& p, const GreedyParams& params) {
  if (p.num_operands < 2) return {};
  return GreedySearch(p, params).run();
}

}  // namespace tenferro::einsum_internal
