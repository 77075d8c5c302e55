// The ops of the tenferro.prims.v1 family as one enum, and nothing else: plain C++17 with no
// library type, so that the CUDA kernels (compiled by nvcc as C++17, which cannot parse the
// C++20 host headers) switch on the same enum as the host. Everything else about an op (its
// name, kernel shape, dtypes) is in prim_kind.hpp's table.
#pragma once

#include <cstddef>
#include <cstdint>

namespace tenferro::prims_internal {

enum class PrimKind : std::uint8_t {
  // Unary (Elementwise, arity 1).
  Neg,
  Conj,
  Abs,
  Real,
  Imag,
  Sqrt,
  Exp,
  Log,
  Sin,
  Cos,
  Tanh,
  Reciprocal,
  Square,
  Sign,
  // Binary (Elementwise, arity 2; both operands already share the compute dtype).
  Add,
  Sub,
  Mul,
  Div,
  Maximum,
  Minimum,
  Pow,
  Complex,  // re, im real -> complex
  // Comparisons (Elementwise, arity 2): 0.0/1.0 in the operands' real dtype (tenferro has no
  // bool dtype), IEEE: false with a NaN operand except NotEqual. Ordering is real-only.
  Greater,
  GreaterEqual,
  Less,
  LessEqual,
  Equal,
  NotEqual,
  // Selection (Elementwise, arity 3; all operands share the compute dtype): in1 where in0 != 0,
  // else in2. The other branch is never read into the result, so its Inf/NaN never leak.
  Where,
  // Scalar forms (Elementwise): alpha * x + beta (Affine, arity 1), alpha * x + beta * y (Axpby).
  Affine,
  Axpby,
  // Copy with dtype conversion (Elementwise, arity 1): cast, contiguous, concatenate.
  Cast,
  // Reductions (Reduce).
  Sum,
  Mean,
  Prod,
  Max,
  Min,
  Norm,
  // Creation (Generate, arity 0).
  Fill,
  Eye,
  Arange,
  RandomUniform,
  RandomNormal,
};
inline constexpr std::size_t kPrimKindCount = static_cast<std::size_t>(PrimKind::RandomNormal) + 1;

}  // namespace tenferro::prims_internal
