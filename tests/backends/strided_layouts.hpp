// Layouts the CPU strided-layer tests draw: a shape laid out compactly in some axis order.
#pragma once

#include <cstdint>
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

}  // namespace tenferro::testing
