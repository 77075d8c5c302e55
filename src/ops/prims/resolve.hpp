// Argument resolution shared by the prims public functions: NumPy broadcasting and promotion,
// axis normalisation. Every failure is a Validation error naming the op, operand and axis.
#pragma once

#include <array>
#include <complex>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include "ops/prims/prim_kind.hpp"
#include "tenferro/core/dtype.hpp"
#include "tenferro/core/shape.hpp"
#include "tenferro/prims.hpp"
#include "tenferro/runtime/eager_tensor.hpp"

namespace tenferro::prims_internal {

// The broadcast shape of `a` and `b` (aligned from the last axis).
Shape broadcast_shapes(std::string_view op, const Shape& a, const Shape& b);
// The smallest dtype that holds both (NumPy's promotion on our four dtypes).
DType promote(DType a, DType b);
// A ContextMismatchError naming `op` for a default-constructed (undefined) tensor.
void require_defined(std::string_view op, const EagerTensor& x);
// `axis` in [-rank, rank) as a non-negative axis.
std::int64_t normalize_axis(std::string_view op, std::int64_t axis, std::int64_t rank);
// The axes an op works on (a reduction's, flip's) as a mask by axis: all of them for nullopt;
// Validation for an axis out of range, one listed twice, or a tensor of rank above 64.
std::array<std::uint8_t, 64> axes_mask(std::string_view op, const std::optional<prims::Axes>& axes,
                                       std::int64_t rank);
// a (op) b after broadcasting, both cast to `dtype` first (one runtime checked before any
// cast runs); alpha/beta for Axpby. The output dtype is kernel_output_dtype(kind, dtype).
EagerTensor elementwise_binary(PrimKind kind, const EagerTensor& a, const EagerTensor& b,
                               DType dtype, std::complex<double> alpha = 1.0,
                               std::complex<double> beta = 0.0);
// `x` as an operand of `dtype` for one call: x itself borrowed (runtime_internal::BorrowedTensor,
// no reference count touched) when it has that dtype, else x converted on its own runtime (a
// kernel, not a transfer). Only for the array a call hands to run_operands, with the caller's
// own runtime pointer.
EagerTensor kernel_operand(const EagerTensor& x, DType dtype);
// Validation unless `shape` can be the shape of a tensor of `dtype`.
void check_shape(std::string_view op, const Shape& shape, DType dtype);
// prims::reshape's view of x (column-major order, -1 inferred, Validation for a shape that does
// not hold x's elements), or nullopt where x's strides cannot express it: the caller copies
// without a thrown error to catch (the Python layer's row-major reshape of a broadcast or
// transposed view spent more on the exception than on the copy).
std::optional<EagerTensor> reshape_view(const EagerTensor& x, Shape shape);

}  // namespace tenferro::prims_internal
