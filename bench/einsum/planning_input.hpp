// What the planner takes for a benchmark network, built as the eager einsum builds it: the
// parsed expression and the size of every label.
#pragma once

#include <cstdint>
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

}  // namespace tenferro::bench
