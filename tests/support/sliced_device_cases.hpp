// The sliced contractions every device backend's einsum tests run: each needs slicing under its
// memory limit with its explicit path (the tests assert it), summed labels sliced and, in the
// second, an intermediate above the limit whose output fits (an output or a summed label is
// sliced).
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "tenferro/einsum.hpp"

namespace tenferro::testing {

struct SlicedCase {
  std::string subscripts;
  std::vector<Shape> shapes;
  EinsumOptions options;  // explicit path and memory limit
};

inline std::vector<SlicedCase> sliced_device_cases() {
  auto with = [](std::vector<std::pair<int, int>> path, double memory_limit) {
    EinsumOptions o;
    o.strategy = PathStrategy::Explicit;
    o.path = std::move(path);
    o.memory_limit = memory_limit;
    return o;
  };
  // ab,bc -> ac (32 elements) first: b or c is sliced, both summed.
  return {{"ab,bc,cd,de->ae", {{4, 2}, {2, 8}, {8, 2}, {2, 4}}, with({{0, 1}, {0, 1}, {0, 1}}, 16)},
          // ai,bi -> abi (48 elements) above the limit of 32, the output (32) within it.
          {"ai,bi,xi->abx", {{4, 3}, {4, 3}, {2, 3}}, with({{0, 1}, {0, 1}}, 32)}};
}

}  // namespace tenferro::testing
