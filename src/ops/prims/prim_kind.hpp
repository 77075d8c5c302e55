// The ops of the tenferro.prims.v1 family: one enum and one table of facts per op (its name,
// the kernel shape that runs it, the dtypes its semantics allow). Backends list which of these
// they run (registration.hpp); everything else is derived.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "tenferro/core/dtype.hpp"

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

// The kernel shape a backend provides for an op.
enum class KernelShape : std::uint8_t { Elementwise, Reduce, Generate };

// A set of dtypes as a bit mask over DType values.
using DTypeMask = std::uint8_t;
constexpr DTypeMask dtype_bit(DType d) {
  return static_cast<DTypeMask>(1u << static_cast<unsigned>(d));
}
inline constexpr DTypeMask kRealDTypes = dtype_bit(DType::F32) | dtype_bit(DType::F64);
inline constexpr DTypeMask kAllDTypeMask =
    kRealDTypes | dtype_bit(DType::C32) | dtype_bit(DType::C64);
inline constexpr DTypeMask kSinglePrecision = dtype_bit(DType::F32) | dtype_bit(DType::C32);

struct PrimInfo {
  PrimKind kind;
  std::string_view name;  // the op name in errors, admission tables and `tenferro info`
  KernelShape shape;
  int arity;  // inputs of one kernel call (Generate: 0)
  // The dtypes of the op's *kernel input* its semantics allow (Complex: the real inputs;
  // Generate: the output). The registration table admits a backend for the intersection of
  // this mask and the dtypes the backend's kernel runs for the op.
  DTypeMask dtypes;
};

// Indexed by PrimKind (checked by a static_assert in prim_kind.cpp).
extern const std::array<PrimInfo, kPrimKindCount> kPrimInfo;

inline const PrimInfo& info(PrimKind k) {
  return kPrimInfo[static_cast<std::size_t>(k)];
}
inline std::string_view prim_name(PrimKind k) {
  return info(k).name;
}

// The output dtype of one kernel call given its input (compute) dtype: the real dtype for
// abs/real/imag/norm, the complex dtype for Complex, else the same. (Cast and Generate carry
// their output dtype explicitly.)
DType kernel_output_dtype(PrimKind k, DType input);

}  // namespace tenferro::prims_internal
