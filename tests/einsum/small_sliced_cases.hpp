// The small expressions the CPU slicing tests slice in every possible way (executor, slice
// ranges, slice threads): one list, so the three suites cannot drift apart. Together they
// cover output and summed labels, a diagonal with a transposed output, a four-operand
// network, a scalar output and broadcast extents of 1; each is small enough that all 2^labels - 1
// slicings run.
#pragma once

#include <cstdint>
#include <vector>

#include "ops/einsum/expression.hpp"
#include "ops/einsum/path.hpp"
#include "tenferro/core/shape.hpp"
#include "tenferro/einsum.hpp"

namespace tenferro::testing {

// The operand ranks parse_subscripts wants for `shapes`.
inline std::vector<std::int64_t> ranks_of(const std::vector<Shape>& shapes) {
  std::vector<std::int64_t> ranks;
  for (const Shape& s : shapes) ranks.push_back(static_cast<std::int64_t>(s.size()));
  return ranks;
}

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
      // extents of 1 that broadcast (NumPy's rule): a sliced label some operand reads at 0 only
      {"ab,bc,cd->ad", {{3, 1}, {4, 5}, {1, 2}}},
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

// One case with one non-empty subset of its labels (bit l of `mask`: label l) sliced on the
// planner's unsliced path, as the executor sees it.
struct SmallSlicing {
  const char* subscripts;
  std::vector<Shape> shapes;
  einsum_internal::EinsumExpression expr;
  std::vector<std::int64_t> sizes;
  EinsumPath path;          // sliced
  std::int64_t slices = 1;  // the product of the sliced labels' sizes
  int mask = 0;
};

// Every slicing of every small case: 2^labels - 1 per case, case by case, mask by mask.
inline std::vector<SmallSlicing> every_small_slicing() {
  std::vector<SmallSlicing> out;
  for (const SmallSlicedCase& c : small_sliced_cases()) {
    auto expr = einsum_internal::parse_subscripts(c.subscripts, ranks_of(c.shapes));
    const auto sizes = einsum_internal::label_sizes(expr, c.shapes);
    const EinsumPath path = einsum_internal::plan_path(expr, sizes, {});
    const int labels = einsum_internal::num_labels(expr);
    for (int mask = 1; mask < (1 << labels); ++mask) {
      auto [sliced, slices] = slice_by_mask(path, sizes, mask);
      out.push_back({c.subscripts, c.shapes, expr, sizes, std::move(sliced), slices, mask});
    }
  }
  return out;
}

}  // namespace tenferro::testing
