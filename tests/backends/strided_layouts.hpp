// Layouts the CPU strided-layer tests draw: a shape laid out compactly in some axis order.
#pragma once

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

namespace tenferro::testing {

// Strides of a compact layout of `shape` whose axes are laid out in `order` (fastest first),
// each element `gap` apart; extent-1 axes get stride 0.
inline std::vector<std::int64_t> strides_for(const std::vector<std::int64_t>& shape,
                                             const std::vector<std::size_t>& order,
                                             std::int64_t gap) {
  std::vector<std::int64_t> strides(shape.size());
  std::int64_t s = gap;
  for (std::size_t a : order) {
    strides[a] = shape[a] == 1 ? 0 : s;
    s *= shape[a];
  }
  return strides;
}

// The elements a buffer needs to hold every element of a view with these strides.
inline std::int64_t span_of(const std::vector<std::int64_t>& shape,
                            const std::vector<std::int64_t>& strides) {
  std::int64_t last = 0;
  for (std::size_t a = 0; a < shape.size(); ++a) last += (shape[a] - 1) * strides[a];
  return last + 1;
}

// A random shape of `rank` extents whose product is near `target_elements`: each extent but the
// last at most `cap`, and about one in `unit_one_in` of them 1.
inline std::vector<std::int64_t> random_shape(std::mt19937_64& rng, std::size_t rank,
                                              std::int64_t target_elements, std::int64_t cap,
                                              unsigned unit_one_in) {
  std::vector<std::int64_t> shape(rank, 1);
  std::int64_t total = 1;
  for (std::size_t a = 0; a < rank; ++a) {
    const std::int64_t remaining = std::max<std::int64_t>(1, target_elements / total);
    const std::int64_t limit = a + 1 == rank ? remaining : std::min(remaining, cap);
    std::uniform_int_distribution<std::int64_t> extent(1, std::max<std::int64_t>(1, limit));
    shape[a] = (rng() % unit_one_in == 0) ? 1 : extent(rng);
    total *= shape[a];
  }
  return shape;
}

}  // namespace tenferro::testing
