// tenferro::einsum_path: parse, size and plan without touching any tensor data.
#include <vector>

#include "ops/einsum/expression.hpp"
#include "ops/einsum/path.hpp"
#include "tenferro/einsum.hpp"

namespace tenferro {

EinsumPath einsum_path(std::string_view subscripts, std::span<const Shape> shapes,
                       const EinsumOptions& options) {
  std::vector<std::int64_t> ranks;
  ranks.reserve(shapes.size());
  for (const Shape& shape : shapes) ranks.push_back(static_cast<std::int64_t>(shape.size()));
  const auto expr = einsum_internal::parse_subscripts(subscripts, ranks);
  const auto sizes = einsum_internal::label_sizes(expr, shapes);
  return einsum_internal::plan_path(expr, sizes, options);
}

}  // namespace tenferro
