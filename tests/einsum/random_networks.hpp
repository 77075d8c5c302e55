// Generated tensor networks for the planner tests: random regular graphs (one tensor per
// vertex, one label per edge, optionally some open legs that stay in the output), written as
// letter subscripts when they fit in 52 labels and as integer labels otherwise.
#pragma once

#include <algorithm>
#include <random>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "ops/einsum/expression.hpp"
#include "ops/einsum/path.hpp"
#include "tenferro/core/shape.hpp"
#include "tenferro/einsum.hpp"

namespace tenferro::testing {

struct GeneratedNetwork {
  EinsumLabels labels;                // integer labels
  std::vector<std::int64_t> extents;  // per label
  std::vector<Shape> shapes() const {
    std::vector<Shape> out;
    for (const auto& in : labels.inputs) {
      Shape s;
      for (int l : in) s.push_back(extents[static_cast<std::size_t>(l)]);
      out.push_back(s);
    }
    return out;
  }
  // Letter subscripts (at most 52 labels).
  std::string subscripts() const {
    const std::string letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
    auto text = [&](const std::vector<int>& ls) {
      std::string s;
      for (int l : ls) s += letters.at(static_cast<std::size_t>(l));
      return s;
    };
    std::string s;
    for (std::size_t k = 0; k < labels.inputs.size(); ++k)
      s += (k ? "," : "") + text(labels.inputs[k]);
    return s + "->" + text(labels.output);
  }
};

// A random `degree`-regular simple graph on `n` vertices (configuration model with restarts;
// n * degree must be even), every edge of extent `extent`, plus `open` dangling output legs
// of extent `open_extent` on random vertices.
inline GeneratedNetwork random_regular_network(std::mt19937_64& rng, int n, int degree,
                                               std::int64_t extent, int open = 0,
                                               std::int64_t open_extent = 2) {
  std::vector<std::pair<int, int>> edges;
  for (int attempt = 0; attempt < 1000; ++attempt) {
    std::vector<int> stubs;
    for (int v = 0; v < n; ++v)
      for (int d = 0; d < degree; ++d) stubs.push_back(v);
    std::shuffle(stubs.begin(), stubs.end(), rng);
    std::set<std::pair<int, int>> seen;
    edges.clear();
    bool ok = true;
    for (std::size_t k = 0; k + 1 < stubs.size() && ok; k += 2) {
      const int a = std::min(stubs[k], stubs[k + 1]), b = std::max(stubs[k], stubs[k + 1]);
      ok = a != b && seen.insert({a, b}).second;
      edges.emplace_back(a, b);
    }
    if (ok) break;
  }
  GeneratedNetwork net;
  net.labels.inputs.assign(static_cast<std::size_t>(n), {});
  for (const auto& [a, b] : edges) {
    const int l = static_cast<int>(net.extents.size());
    net.extents.push_back(extent);
    net.labels.inputs[static_cast<std::size_t>(a)].push_back(l);
    net.labels.inputs[static_cast<std::size_t>(b)].push_back(l);
  }
  std::uniform_int_distribution<int> vertex(0, n - 1);
  for (int k = 0; k < open; ++k) {
    const int l = static_cast<int>(net.extents.size());
    net.extents.push_back(open_extent);
    net.labels.inputs[static_cast<std::size_t>(vertex(rng))].push_back(l);
    net.labels.output.push_back(l);
  }
  return net;
}

// The planner's path for a generated network (integer labels, any count).
inline EinsumPath plan_generated(const GeneratedNetwork& net, const EinsumOptions& options) {
  const std::vector<Shape> shapes = net.shapes();
  std::vector<std::int64_t> ranks;
  for (const Shape& s : shapes) ranks.push_back(static_cast<std::int64_t>(s.size()));
  const auto expr = einsum_internal::from_labels(net.labels, ranks);
  const auto sizes = einsum_internal::label_sizes(expr, shapes);
  return einsum_internal::plan_path(expr, sizes, options);
}

}  // namespace tenferro::testing
