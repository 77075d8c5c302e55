// The tensor networks used to measure contraction-order planning (planning_bench) and path
// quality against opt_einsum (print_paths + bench/peers/einsum_paths.py). Integer-label form;
// every network is deterministic (the random ones use a fixed seed).
#pragma once

#include <cstdint>
#include <map>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "tenferro/einsum.hpp"

namespace tenferro::bench {

struct BenchNetwork {
  std::string name;
  EinsumLabels labels;
  std::map<int, std::int64_t> extents;  // label -> extent
  std::vector<Shape> shapes() const {
    std::vector<Shape> out;
    for (const auto& in : labels.inputs) {
      Shape s;
      for (int l : in) s.push_back(extents.at(l));
      out.push_back(s);
    }
    return out;
  }
  int operands() const { return static_cast<int>(labels.inputs.size()); }
};

// <psi|psi> of an open-boundary MPS with `sites` sites (bond D, physical d), optionally with
// a one-site operator on the middle site: 2*sites (+1) operands.
inline BenchNetwork mps_chain(int sites, bool with_operator, std::int64_t bond = 32,
                              std::int64_t phys = 2) {
  BenchNetwork net;
  net.name = "mps" + std::to_string(2 * sites + (with_operator ? 1 : 0));
  int next = 0;
  auto label = [&](std::int64_t extent) {
    net.extents[next] = extent;
    return next++;
  };
  std::vector<int> ket_bond, bra_bond, ket_phys, bra_phys;
  for (int s = 0; s + 1 < sites; ++s) ket_bond.push_back(label(bond));
  for (int s = 0; s + 1 < sites; ++s) bra_bond.push_back(label(bond));
  for (int s = 0; s < sites; ++s) ket_phys.push_back(label(phys));
  bra_phys = ket_phys;
  const int op_site = sites / 2;
  if (with_operator) bra_phys[op_site] = label(phys);
  for (int layer = 0; layer < 2; ++layer) {
    const auto& bonds = layer == 0 ? ket_bond : bra_bond;
    const auto& physical = layer == 0 ? ket_phys : bra_phys;
    for (int s = 0; s < sites; ++s) {
      std::vector<int> in;
      if (s > 0) in.push_back(bonds[s - 1]);
      in.push_back(physical[s]);
      if (s + 1 < sites) in.push_back(bonds[s]);
      net.labels.inputs.push_back(in);
    }
  }
  if (with_operator) net.labels.inputs.push_back({ket_phys[op_site], bra_phys[op_site]});
  return net;
}

// A single-layer PEPS-like rows x cols grid: bonds of extent `bond` between neighbours and
// one physical leg per site, summed (a closed network; the output is a scalar).
inline BenchNetwork peps_grid(int rows, int cols, std::int64_t bond = 4, std::int64_t phys = 2) {
  BenchNetwork net;
  net.name = "peps" + std::to_string(rows) + "x" + std::to_string(cols);
  int next = 0;
  auto label = [&](std::int64_t extent) {
    net.extents[next] = extent;
    return next++;
  };
  std::vector<std::vector<int>> site(static_cast<std::size_t>(rows * cols));
  for (int r = 0; r < rows; ++r) {
    for (int c = 0; c < cols; ++c) {
      const int k = r * cols + c;
      if (c + 1 < cols) {
        const int b = label(bond);
        site[k].push_back(b);
        site[k + 1].push_back(b);
      }
      if (r + 1 < rows) {
        const int b = label(bond);
        site[k].push_back(b);
        site[k + cols].push_back(b);
      }
    }
  }
  for (auto& s : site) s.push_back(label(phys));
  net.labels.inputs = site;
  return net;
}

// A random connected network: a random spanning tree plus extra edges for an average
// degree about 3, bond extents 2..8, and a few open legs that form the output.
inline BenchNetwork random_network(int operands, unsigned seed) {
  BenchNetwork net;
  net.name = "random" + std::to_string(operands);
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> extent(2, 8);
  int next = 0;
  net.labels.inputs.resize(static_cast<std::size_t>(operands));
  auto connect = [&](int a, int b) {
    net.extents[next] = extent(rng);
    net.labels.inputs[a].push_back(next);
    net.labels.inputs[b].push_back(next);
    ++next;
  };
  for (int k = 1; k < operands; ++k) connect(std::uniform_int_distribution<int>(0, k - 1)(rng), k);
  std::uniform_int_distribution<int> any(0, operands - 1);
  for (int e = 0; e < operands / 2; ++e) {
    const int a = any(rng), b = any(rng);
    if (a != b) connect(a, b);
  }
  for (int o = 0; o < 3; ++o) {
    net.extents[next] = extent(rng);
    net.labels.inputs[any(rng)].push_back(next);
    net.labels.output.push_back(next++);
  }
  return net;
}

// The benchmark set: about 5, 10 and 20 operands of each family.
inline std::vector<BenchNetwork> benchmark_networks() {
  return {mps_chain(2, true),    mps_chain(5, false),    mps_chain(10, false),
          peps_grid(2, 3),       peps_grid(2, 5),        peps_grid(4, 5),
          random_network(5, 11), random_network(10, 12), random_network(20, 13)};
}

}  // namespace tenferro::bench
