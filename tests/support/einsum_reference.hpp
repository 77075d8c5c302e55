// A naive, loop-based einsum over host tensors for tests: its own small subscript parser
// (independent of the library's), NumPy semantics (implicit output = ellipsis dims, then the
// labels used once in ASCII order; "..." broadcasting aligned to the right; size-1 extents
// broadcast), accumulation in double precision.
#pragma once

#include <span>
#include <string_view>
#include <vector>

#include "tenferro/core/tensor.hpp"

namespace tenferro::testing {

// Labels of every operand axis and of the output (letters are their character codes,
// ellipsis dimensions are 1000 + k, k counted from the right).
struct ReferenceExpression {
  std::vector<std::vector<int>> inputs;
  std::vector<int> output;
};
ReferenceExpression reference_parse(std::string_view subscripts,
                                    std::span<const std::int64_t> ranks);

struct ReferenceResult {
  Tensor value;                   // of the operands' dtype
  std::vector<double> magnitude;  // sum of |products| per output element (column-major)
};

// Evaluates an expression whose labels are already known (see reference_parse).
ReferenceResult reference_einsum(const ReferenceExpression& expr, std::span<const Tensor> operands);
ReferenceResult reference_einsum(std::string_view subscripts, std::span<const Tensor> operands);

// Max over elements of |got - want| / (magnitude + 1), and whether it is within the dtype's
// tolerance (F32/C32: 1e-4, F64/C64: 1e-12, relative to the magnitude bound).
struct Agreement {
  bool ok = false;
  double worst = 0;
  std::string detail;
};
Agreement compare_with_reference(const Tensor& got, const ReferenceResult& want);
double reference_tolerance(DType dtype);

}  // namespace tenferro::testing
