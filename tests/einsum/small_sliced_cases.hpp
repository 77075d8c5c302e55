// The small expressions the CPU slicing tests slice in every possible way (executor, slice
// ranges, slice threads): one list, so the three suites cannot drift apart. Together they
// cover output and summed labels, a diagonal with a transposed output, a four-operand
// network and a scalar output; each is small enough that all 2^labels - 1 slicings run.
#pragma once

#include <cstdint>
#include <vector>

#include "tenferro/core/shape.hpp"
#include "tenferro/einsum.hpp"

namespace tenferro::testing {

struct SmallSlicedCase {
  const char* subscripts;
  std::vector<Shape> shapes;
};

inline std::vector<SmallSlicedCase> small_sliced_cases() {
  return {
      {"ab,bc,cd->ad", {{3, 4}, {4, 5}, {5, 2}}},
      {"iab,bc,cdi,ei->ade", {{2, 3, 4}, {4, 3}, {3, 2, 2}, {3, 2}}},
      {"aab,bc,cd->da", {{3, 3, 2}, {2, 4}, {4, 3}}},  // a diagonal, output transposed
      {"ab,bc,ca->", {{3, 4}, {4, 2}, {2, 3}}},        // a scalar output
  };
}

// `path` with the labels whose bits are set in `mask` sliced; `slices` is their product.
struct MaskSlicing {
  EinsumPath path;
  std::int64_t slices = 1;
};

inline MaskSlicing slice_by_mask(const EinsumPath& path, const std::vector<std::int64_t>& sizes,
                                 int mask) {
  MaskSlicing out{path, 1};
  for (int l = 0; l < static_cast<int>(sizes.size()); ++l) {
    if ((mask >> l) & 1) {
      out.path.sliced_labels.push_back(l);
      out.slices *= sizes[static_cast<std::size_t>(l)];
    }
  }
  return out;
}

// The operand ranks parse_subscripts wants for `shapes`.
inline std::vector<std::int64_t> ranks_of(const std::vector<Shape>& shapes) {
  std::vector<std::int64_t> ranks;
  for (const Shape& s : shapes) ranks.push_back(static_cast<std::int64_t>(s.size()));
  return ranks;
}

}  // namespace tenferro::testing
