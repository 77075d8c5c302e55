// Multilevel bisection of a weighted hypergraph: the partitioner behind the recursive-bisection
// contraction trees (path_partition.cpp). Our own, not KaHyPar or METIS: it keeps the library
// free of another dependency, and the hypergraphs it sees (one node per tensor, one net per
// shared label) have tens to a few thousand nodes.
//
// The scheme is the classic multilevel one (as in hMETIS and KaHyPar, written from the
// published descriptions):
//  1. coarsen: pair each node with the unpaired neighbour it shares the heaviest nets with
//     (rating sum of w(e) / (|e| - 1), divided by the product of the node weights, so clusters
//     stay even), contract the pairs, and repeat until `coarsest` nodes are left or a level
//     shrinks by less than a tenth;
//  2. split the coarsest hypergraph: grow side 0 from a random node by connectivity, then
//     Fiduccia-Mattheyses (FM) passes; the lightest of `initial_tries` such splits is kept;
//  3. uncoarsen: project the split onto each finer level and improve it there with FM passes.
// The whole V-cycle runs `cycles` times with different random pairings; the lightest cut wins.
// A single level (step 2 on the hypergraph itself) is what `coarsest` >= node count gives.
//
// Balance: side 0's node weight aims for W/2 +- imbalance * W/2 (W the total weight; imbalance
// clamped to [0, 0.9], the band to [1, W - 1]); when heavy nodes leave no split inside the band,
// the split least outside it.
#pragma once

#include <cstdint>
#include <vector>

namespace tenferro::einsum_internal {

// Nets in compressed form: net e's pins are pins[pin_start[e] .. pin_start[e + 1]). A net's
// pins must be distinct and its weight positive; node weights positive.
struct Hypergraph {
  std::vector<int> node_weight;
  std::vector<double> net_weight;
  std::vector<int> pin_start{0};
  std::vector<int> pins;

  int num_nodes() const { return static_cast<int>(node_weight.size()); }
  int num_nets() const { return static_cast<int>(net_weight.size()); }
  void add_net(double weight, const std::vector<int>& net_pins) {
    net_weight.push_back(weight);
    pins.insert(pins.end(), net_pins.begin(), net_pins.end());
    pin_start.push_back(static_cast<int>(pins.size()));
  }
};

struct BisectionParams {
  double imbalance = 0.2;
  int passes = 4;         // FM passes per level
  int cycles = 3;         // independent V-cycles, the lightest cut kept
  int initial_tries = 4;  // growth + FM splits of the coarsest level
  int coarsest = 24;      // stop coarsening at this many nodes
};

// Splits `graph` in two. side[v] is 0 or 1; returns the cut weight (sum over nets with pins on
// both sides). `rng` is a splitmix64 state, advanced by the draws. A hypergraph of fewer than
// two nodes gets every node on side 0.
double bisect_hypergraph(const Hypergraph& graph, const BisectionParams& params, std::uint64_t& rng,
                         std::vector<signed char>& side);

// The cut weight of a split (nets with pins on both sides).
double cut_weight(const Hypergraph& graph, const std::vector<signed char>& side);

}  // namespace tenferro::einsum_internal
