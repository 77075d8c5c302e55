// Multilevel hypergraph bisection (see hypergraph_bisection.hpp for the scheme).
//
// Costs, for a hypergraph of n nodes and p pins: a coarsening level is O(p * pins per net);
// an FM pass is O(n) per move for the best-gain scan plus O(pins of the moved node's nets)
// for the incremental gain update, so O(n^2) per pass. The partitioner sees parts of at most a
// few thousand tensors, where the scan is cheap next to building the trees themselves; gain
// buckets would make it O(p) per pass if larger networks ever need it.
#include "ops/einsum/hypergraph_bisection.hpp"

#include <algorithm>
#include <cmath>
#include <memory>

namespace tenferro::einsum_internal {
namespace {

std::uint64_t next_random(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

int random_below(std::uint64_t& rng, int n) {
  return static_cast<int>(next_random(rng) % static_cast<std::uint64_t>(n));
}

// Nets of each node, compressed like the pins: node v's nets are nets[start[v] .. start[v+1]).
struct Incidence {
  std::vector<int> start, nets;
};

Incidence incidence_of(const Hypergraph& g) {
  const int n = g.num_nodes();
  Incidence inc;
  inc.start.assign(static_cast<std::size_t>(n) + 1, 0);
  for (int v : g.pins) ++inc.start[static_cast<std::size_t>(v) + 1];
  for (int v = 0; v < n; ++v)
    inc.start[static_cast<std::size_t>(v) + 1] += inc.start[static_cast<std::size_t>(v)];
  inc.nets.resize(g.pins.size());
  std::vector<int> fill(inc.start.begin(), inc.start.end() - 1);
  for (int e = 0; e < g.num_nets(); ++e)
    for (int k = g.pin_start[static_cast<std::size_t>(e)];
         k < g.pin_start[static_cast<std::size_t>(e) + 1]; ++k)
      inc.nets[static_cast<std::size_t>(fill[static_cast<std::size_t>(g.pins[k])]++)] = e;
  return inc;
}

// Iteration helpers over the compressed arrays.
struct Range {
  const int* first;
  const int* last;
  const int* begin() const { return first; }
  const int* end() const { return last; }
};
Range pins_of(const Hypergraph& g, int e) {
  return {g.pins.data() + g.pin_start[static_cast<std::size_t>(e)],
          g.pins.data() + g.pin_start[static_cast<std::size_t>(e) + 1]};
}
Range nets_of(const Incidence& inc, int v) {
  return {inc.nets.data() + inc.start[static_cast<std::size_t>(v)],
          inc.nets.data() + inc.start[static_cast<std::size_t>(v) + 1]};
}
int net_size(const Hypergraph& g, int e) {
  return g.pin_start[static_cast<std::size_t>(e) + 1] - g.pin_start[static_cast<std::size_t>(e)];
}

// Nets larger than this take no part in the pairing ratings: they tie everything to
// everything faintly, and rating them would cost O(size^2).
constexpr int kLargestRatedNet = 128;

struct Coarsening {
  Hypergraph coarse;
  std::vector<int> cluster;  // per fine node: its coarse node
};

// One level of heavy-edge pairing (see the header).
Coarsening coarsen(const Hypergraph& g, const Incidence& inc, int max_weight, std::uint64_t& rng) {
  const int n = g.num_nodes();
  std::vector<int> order(static_cast<std::size_t>(n));
  for (int v = 0; v < n; ++v) order[static_cast<std::size_t>(v)] = v;
  for (int k = n - 1; k > 0; --k)
    std::swap(order[static_cast<std::size_t>(k)],
              order[static_cast<std::size_t>(random_below(rng, k + 1))]);
  Coarsening c;
  c.cluster.assign(static_cast<std::size_t>(n), -1);
  std::vector<double> rating(static_cast<std::size_t>(n), 0);
  std::vector<int> touched;
  int clusters = 0;
  for (int u : order) {
    if (c.cluster[static_cast<std::size_t>(u)] >= 0) continue;
    for (int e : nets_of(inc, u)) {
      const int size = net_size(g, e);
      if (size < 2 || size > kLargestRatedNet) continue;
      const double r = g.net_weight[static_cast<std::size_t>(e)] / (size - 1);
      for (int v : pins_of(g, e)) {
        if (v == u || c.cluster[static_cast<std::size_t>(v)] >= 0) continue;
        if (rating[static_cast<std::size_t>(v)] == 0) touched.push_back(v);
        rating[static_cast<std::size_t>(v)] += r;
      }
    }
    int mate = -1;
    double mate_score = 0;
    const int wu = g.node_weight[static_cast<std::size_t>(u)];
    for (int v : touched) {  // first-touched wins ties: deterministic for a given order
      const int wv = g.node_weight[static_cast<std::size_t>(v)];
      const double score = rating[static_cast<std::size_t>(v)] / (double(wu) * wv);
      if (wu + wv <= max_weight && score > mate_score) {
        mate = v;
        mate_score = score;
      }
      rating[static_cast<std::size_t>(v)] = 0;
    }
    touched.clear();
    c.cluster[static_cast<std::size_t>(u)] = clusters;
    if (mate >= 0) c.cluster[static_cast<std::size_t>(mate)] = clusters;
    ++clusters;
  }
  c.coarse.node_weight.assign(static_cast<std::size_t>(clusters), 0);
  for (int v = 0; v < n; ++v)
    c.coarse.node_weight[static_cast<std::size_t>(c.cluster[static_cast<std::size_t>(v)])] +=
        g.node_weight[static_cast<std::size_t>(v)];
  // Coarse nets: each fine net's distinct clusters; nets left inside one cluster vanish.
  std::vector<int> seen(static_cast<std::size_t>(clusters), -1), net_pins;
  for (int e = 0; e < g.num_nets(); ++e) {
    net_pins.clear();
    for (int v : pins_of(g, e)) {
      const int cv = c.cluster[static_cast<std::size_t>(v)];
      if (seen[static_cast<std::size_t>(cv)] == e) continue;
      seen[static_cast<std::size_t>(cv)] = e;
      net_pins.push_back(cv);
    }
    if (net_pins.size() >= 2) c.coarse.add_net(g.net_weight[static_cast<std::size_t>(e)], net_pins);
  }
  return c;
}

// A split of one level with its per-net side counts and per-node FM gains, kept exact under
// single-node moves (the classic FM update rules).
class Split {
 public:
  Split(const Hypergraph& g, const Incidence& inc, std::vector<signed char>& side)
      : g_(g), inc_(inc), side_(side) {
    count_.assign(static_cast<std::size_t>(g.num_nets()) * 2, 0);
    for (int e = 0; e < g.num_nets(); ++e)
      for (int v : pins_of(g, e)) ++count(e, side_[static_cast<std::size_t>(v)]);
    gain_.assign(static_cast<std::size_t>(g.num_nodes()), 0);
    stamp_.assign(static_cast<std::size_t>(g.num_nodes()), 0);
    for (int v = 0; v < g.num_nodes(); ++v) {
      if (side_[static_cast<std::size_t>(v)] == 0)
        weight0_ += g.node_weight[static_cast<std::size_t>(v)];
      gain_[static_cast<std::size_t>(v)] = gain_of(v);
    }
  }

  long weight0() const { return weight0_; }
  double gain(int v) const { return gain_[static_cast<std::size_t>(v)]; }
  // When v's gain last changed: among equal gains FM prefers the latest (LIFO), which keeps
  // its moves local, around the nodes it just moved (Hagen, Huang and Kahng, 1997, found LIFO
  // ties better than FIFO or random ones; here it lowered the mean top-level cut of rrg4-100).
  std::uint64_t touched(int v) const { return stamp_[static_cast<std::size_t>(v)]; }

  void move(int v) {
    const int from = side_[static_cast<std::size_t>(v)], to = 1 - from;
    for (int e : nets_of(inc_, v)) {
      if (net_size(g_, e) < 2) continue;
      const double w = g_.net_weight[static_cast<std::size_t>(e)];
      if (count(e, to) == 0) {
        add_to_all(e, w);  // e enters the cut: nobody loses it by moving any more
      } else if (count(e, to) == 1) {
        add_to_lone(e, to, v, -w);  // the lone pin on `to` no longer takes e out of the cut
      }
      --count(e, from);
      ++count(e, to);
      if (count(e, from) == 0) {
        add_to_all(e, -w);  // e leaves the cut: moving any pin would put it back
      } else if (count(e, from) == 1) {
        add_to_lone(e, from, v, w);  // the lone pin left on `from` would take e out of the cut
      }
    }
    side_[static_cast<std::size_t>(v)] = static_cast<signed char>(to);
    weight0_ += (to == 0 ? 1 : -1) * g_.node_weight[static_cast<std::size_t>(v)];
    gain_[static_cast<std::size_t>(v)] = gain_of(v);
  }

 private:
  int& count(int e, int s) {
    return count_[static_cast<std::size_t>(e) * 2 + static_cast<std::size_t>(s)];
  }
  double gain_of(int v) {
    const int s = side_[static_cast<std::size_t>(v)];
    double g = 0;
    for (int e : nets_of(inc_, v)) {
      if (net_size(g_, e) < 2) continue;
      if (count(e, s) == 1) g += g_.net_weight[static_cast<std::size_t>(e)];
      if (count(e, 1 - s) == 0) g -= g_.net_weight[static_cast<std::size_t>(e)];
    }
    return g;
  }
  void add_to_all(int e, double w) {
    for (int u : pins_of(g_, e)) {
      gain_[static_cast<std::size_t>(u)] += w;
      stamp_[static_cast<std::size_t>(u)] = ++clock_;
    }
  }
  // The one pin of e on side s other than `mover` (whose side is updated after its nets).
  void add_to_lone(int e, int s, int mover, double w) {
    for (int u : pins_of(g_, e))
      if (u != mover && side_[static_cast<std::size_t>(u)] == s) {
        gain_[static_cast<std::size_t>(u)] += w;
        stamp_[static_cast<std::size_t>(u)] = ++clock_;
        return;
      }
  }

  const Hypergraph& g_;
  const Incidence& inc_;
  std::vector<signed char>& side_;
  std::vector<int> count_;
  std::vector<double> gain_;
  std::vector<std::uint64_t> stamp_;
  std::uint64_t clock_ = 0;
  long weight0_ = 0;
};

struct Band {
  long low, high;
  long off(long w0) const { return w0 < low ? low - w0 : w0 > high ? w0 - high : 0; }
};

// FM passes: each moves every node at most once, best gain first, then rolls back to the best
// prefix. Moves may leave the band by up to one node's weight (else no single move could be
// made when the band is one value wide, as at imbalance 0), but only prefixes that end within
// the band count: the best prefix is the least off the band, then the largest gain. A pass
// stops early after a run of moves that found nothing better.
void refine(const Hypergraph& g, const Incidence& inc, std::vector<signed char>& side, Band band,
            int passes) {
  const int n = g.num_nodes();
  Split split(g, inc, side);
  const long heaviest = *std::max_element(g.node_weight.begin(), g.node_weight.end());
  const Band relaxed{band.low - heaviest, band.high + heaviest};
  std::vector<char> locked(static_cast<std::size_t>(n));
  std::vector<int> moves;
  const std::size_t patience = static_cast<std::size_t>(std::max(50, n / 4));
  for (int pass = 0; pass < passes; ++pass) {
    std::fill(locked.begin(), locked.end(), 0);
    moves.clear();
    double total = 0, best_total = 0;
    long best_off = band.off(split.weight0());
    std::size_t best_prefix = 0;
    for (int step = 0; step < n && moves.size() - best_prefix <= patience; ++step) {
      const long w0 = split.weight0();
      const long off = relaxed.off(w0);
      int choice = -1;
      for (int v = 0; v < n; ++v) {
        if (locked[static_cast<std::size_t>(v)]) continue;
        const long after = w0 + (side[static_cast<std::size_t>(v)] == 0 ? -1 : 1) *
                                    g.node_weight[static_cast<std::size_t>(v)];
        const long after_off = relaxed.off(after);
        if (after_off > 0 && after_off >= off) continue;  // outside and not getting closer
        if (choice < 0 || split.gain(v) > split.gain(choice) ||
            (split.gain(v) == split.gain(choice) && split.touched(v) > split.touched(choice)))
          choice = v;
      }
      if (choice < 0) break;
      total += split.gain(choice);
      split.move(choice);
      locked[static_cast<std::size_t>(choice)] = 1;
      moves.push_back(choice);
      const long now_off = band.off(split.weight0());
      if (now_off < best_off || (now_off == best_off && total > best_total + 1e-9)) {
        best_off = now_off;
        best_total = total;
        best_prefix = moves.size();
      }
    }
    for (std::size_t r = moves.size(); r > best_prefix; --r) split.move(moves[r - 1]);
    if (best_prefix == 0) break;  // no improving sequence: converged
  }
}

// Side 0 grown from a random node, always adding the node most connected to it, until it
// holds half the weight (never every node).
void grow(const Hypergraph& g, const Incidence& inc, std::uint64_t& rng,
          std::vector<signed char>& side) {
  const int n = g.num_nodes();
  long total = 0;
  for (int w : g.node_weight) total += w;
  side.assign(static_cast<std::size_t>(n), 1);
  std::vector<double> conn(static_cast<std::size_t>(n), 0);
  long weight0 = 0;
  int left = n, pick = random_below(rng, n);
  while (left > 1 && 2 * weight0 < total) {
    side[static_cast<std::size_t>(pick)] = 0;
    weight0 += g.node_weight[static_cast<std::size_t>(pick)];
    --left;
    for (int e : nets_of(inc, pick))
      for (int u : pins_of(g, e))
        conn[static_cast<std::size_t>(u)] += g.net_weight[static_cast<std::size_t>(e)];
    pick = -1;
    for (int v = 0; v < n; ++v)
      if (side[static_cast<std::size_t>(v)] == 1 &&
          (pick < 0 || conn[static_cast<std::size_t>(v)] > conn[static_cast<std::size_t>(pick)]))
        pick = v;
    if (conn[static_cast<std::size_t>(pick)] <= 0) {  // nothing connected left: jump anywhere
      for (int skip = random_below(rng, left), v = 0;; ++v)
        if (side[static_cast<std::size_t>(v)] == 1 && skip-- == 0) {
          pick = v;
          break;
        }
    }
  }
}

Band band_of(const Hypergraph& g, double imbalance) {
  long total = 0;
  for (int w : g.node_weight) total += w;
  const double slack = std::clamp(imbalance, 0.0, 0.9) * static_cast<double>(total) / 2;
  return {std::max(1L, static_cast<long>(std::floor(total / 2.0 - slack))),
          std::min(total - 1, static_cast<long>(std::ceil(total / 2.0 + slack)))};
}

double v_cycle(const Hypergraph& graph, const Incidence& graph_inc, const BisectionParams& params,
               std::uint64_t& rng, std::vector<signed char>& side) {
  // Coarsen. levels[0] is the input; level k+1 is level k with clusters[k] contracted.
  long total = 0;
  for (int w : graph.node_weight) total += w;
  const int coarsest = std::max(2, params.coarsest);
  const int max_weight = std::max(1, static_cast<int>(std::ceil(1.5 * total / coarsest)));
  std::vector<std::unique_ptr<Hypergraph>> owned;
  std::vector<const Hypergraph*> levels{&graph};
  std::vector<Incidence> incidences;
  incidences.push_back(graph_inc);
  std::vector<std::vector<int>> clusters;
  while (levels.back()->num_nodes() > coarsest) {
    Coarsening c = coarsen(*levels.back(), incidences.back(), max_weight, rng);
    if (c.coarse.num_nodes() * 10 > levels.back()->num_nodes() * 9) break;  // stalled
    owned.push_back(std::make_unique<Hypergraph>(std::move(c.coarse)));
    levels.push_back(owned.back().get());
    incidences.push_back(incidence_of(*levels.back()));
    clusters.push_back(std::move(c.cluster));
  }
  // Split the coarsest level: the lightest of a few grown + refined splits.
  const Hypergraph& top = *levels.back();
  const Band band = band_of(graph, params.imbalance);  // weights are the same on every level
  std::vector<signed char> trial;
  double best = -1;
  for (int t = 0; t < std::max(1, params.initial_tries); ++t) {
    grow(top, incidences.back(), rng, trial);
    refine(top, incidences.back(), trial, band, params.passes);
    const double cut = cut_weight(top, trial);
    if (best < 0 || cut < best) {
      best = cut;
      side = trial;
    }
  }
  // Project and refine, coarse to fine.
  for (std::size_t k = clusters.size(); k-- > 0;) {
    std::vector<signed char> fine(clusters[k].size());
    for (std::size_t v = 0; v < fine.size(); ++v)
      fine[v] = side[static_cast<std::size_t>(clusters[k][v])];
    side.swap(fine);
    refine(*levels[k], incidences[k], side, band, params.passes);
  }
  return cut_weight(graph, side);
}

}  // namespace

double cut_weight(const Hypergraph& g, const std::vector<signed char>& side) {
  double cut = 0;
  for (int e = 0; e < g.num_nets(); ++e) {
    bool on[2] = {false, false};
    for (int v : pins_of(g, e)) on[side[static_cast<std::size_t>(v)]] = true;
    if (on[0] && on[1]) cut += g.net_weight[static_cast<std::size_t>(e)];
  }
  return cut;
}

double bisect_hypergraph(const Hypergraph& graph, const BisectionParams& params, std::uint64_t& rng,
                         std::vector<signed char>& side) {
  if (graph.num_nodes() < 2) {
    side.assign(static_cast<std::size_t>(graph.num_nodes()), 0);
    return 0;
  }
  const Incidence inc = incidence_of(graph);
  std::vector<signed char> trial;
  double best = -1;
  for (int c = 0; c < std::max(1, params.cycles); ++c) {
    const double cut = v_cycle(graph, inc, params, rng, trial);
    if (best < 0 || cut < best) {  // ties: the first
      best = cut;
      side = trial;
    }
  }
  return best;
}

}  // namespace tenferro::einsum_internal
