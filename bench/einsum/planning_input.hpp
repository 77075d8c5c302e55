// What the planner takes for a benchmark network, built as the eager einsum builds it: the
// parsed expression and the size of every label.
#pragma once

#include <algorithm>
#include <cstdint>
#include <istream>
#include <vector>

#include "benchmark_networks.hpp"
#include "ops/einsum/expression.hpp"

namespace tenferro::bench {

struct PlanningInput {
  einsum_internal::EinsumExpression expr;
  std::vector<std::int64_t> sizes;
};

inline PlanningInput planning_input(const BenchNetwork& net) {
  const std::vector<Shape> shapes = net.shapes();
  std::vector<std::int64_t> ranks;
  for (const Shape& s : shapes) ranks.push_back(static_cast<std::int64_t>(s.size()));
  PlanningInput in{einsum_internal::from_labels(net.labels, ranks), {}};
  in.sizes = einsum_internal::label_sizes(in.expr, shapes);
  return in;
}

// A network in the text form bench/peers/planning_peers.py writes: the number of tensors, then
// one line per tensor "k l1 .. lk", one line for the output "k o1 .. ok", one line
// "L e0 .. e(L-1)" with every label's extent.
inline BenchNetwork read_network(std::istream& in) {
  auto read_list = [&] {
    int k = 0;
    in >> k;
    std::vector<int> v(static_cast<std::size_t>(std::max(k, 0)));
    for (int& x : v) in >> x;
    return v;
  };
  BenchNetwork net;
  int n = 0;
  in >> n;
  for (int t = 0; t < n; ++t) net.labels.inputs.push_back(read_list());
  net.labels.output = read_list();
  const std::vector<int> extents = read_list();
  for (std::size_t l = 0; l < extents.size(); ++l) net.extents[static_cast<int>(l)] = extents[l];
  return net;
}

}  // namespace tenferro::bench
