// The one op list of the tenferro.prims.v1 family, as X-macros, and the PrimKind enum made from
// it. Everything that enumerates ops expands these lists instead of spelling the ops again:
//   the enum (here), the facts table kPrimInfo (prim_kind.cpp), the public functions
//   prims::<fn> (elementwise_api.cpp), the AD registry (src/ad/registry.cpp), and the Python
//   bindings and tenferro's NumPy names (python/src/prims.cpp, ad_ops.cpp, _namespace.py).
// X-macros rather than a constexpr table because the list must also *declare* things (enum
// entries, functions, bindings) and be read by nvcc as plain C++17, which cannot parse the
// C++20 host headers; a constexpr table can do neither. What stays per op: its math on each
// backend, its AD rule, its public declaration (with its comment) and its tests.
//
// Row columns:
//   unary and binary math:  X(Kind, fn, python_name, dtypes)
//     Kind: the enumerator; fn: the op name and the C++ function prims::fn / ad::fn;
//     python_name: its name in tenferro._tenferro.prims; dtypes: the kernel input dtypes its
//     semantics allow (kAll or kReal, resolved where the list is expanded).
//   the rest:               X(Kind, name, shape, arity, dtypes)
//     name: the op name in errors, admission tables and `tenferro info`; shape and arity: the
//     kernel that runs it (prim_kind.hpp's KernelShape).
#pragma once

#include <cstddef>
#include <cstdint>

// Unary element-wise math (same dtype in and out, but abs/real/imag: complex -> real). The
// inverse circular and hyperbolic functions are real-only for now (NumPy's take complex values
// too: their branch cuts need complex kernels of their own on each backend); floor, ceil, rint
// (to nearest, ties to even), trunc and cbrt are real-only in NumPy as well.
#define TENFERRO_PRIMS_UNARY_OPS(X)             \
  X(Neg, neg, "negative", kAll)                 \
  X(Conj, conj, "conj", kAll)                   \
  X(Abs, abs, "abs", kAll)                      \
  X(Real, real, "real", kAll)                   \
  X(Imag, imag, "imag", kAll)                   \
  X(Sqrt, sqrt, "sqrt", kAll)                   \
  X(Exp, exp, "exp", kAll)                      \
  X(Exp2, exp2, "exp2", kAll)                   \
  X(Expm1, expm1, "expm1", kAll)                \
  X(Log, log, "log", kAll)                      \
  X(Log1p, log1p, "log1p", kAll)                \
  X(Log2, log2, "log2", kAll)                   \
  X(Log10, log10, "log10", kAll)                \
  X(Sin, sin, "sin", kAll)                      \
  X(Cos, cos, "cos", kAll)                      \
  X(Tan, tan, "tan", kAll)                      \
  X(Sinh, sinh, "sinh", kAll)                   \
  X(Cosh, cosh, "cosh", kAll)                   \
  X(Tanh, tanh, "tanh", kAll)                   \
  X(Asin, asin, "arcsin", kReal)                \
  X(Acos, acos, "arccos", kReal)                \
  X(Atan, atan, "arctan", kReal)                \
  X(Asinh, asinh, "arcsinh", kReal)             \
  X(Acosh, acosh, "arccosh", kReal)             \
  X(Atanh, atanh, "arctanh", kReal)             \
  X(Floor, floor, "floor", kReal)               \
  X(Ceil, ceil, "ceil", kReal)                  \
  X(Rint, rint, "rint", kReal)                  \
  X(Trunc, trunc, "trunc", kReal)               \
  X(Cbrt, cbrt, "cbrt", kReal)                  \
  X(Reciprocal, reciprocal, "reciprocal", kAll) \
  X(Square, square, "square", kAll)             \
  X(Sign, sign, "sign", kAll)

// Binary element-wise math, with broadcasting and promotion (both kernel operands already share
// the compute dtype; Complex: re, im real -> complex). FloorDiv and Mod are NumPy's
// floor_divide and remainder (Python's // and %: the remainder takes the divisor's sign), Fmod
// C's fmod (the dividend's sign).
#define TENFERRO_PRIMS_BINARY_OPS(X)            \
  X(Add, add, "add", kAll)                      \
  X(Sub, sub, "subtract", kAll)                 \
  X(Mul, mul, "multiply", kAll)                 \
  X(Div, div, "divide", kAll)                   \
  X(FloorDiv, floor_div, "floor_divide", kReal) \
  X(Mod, mod, "remainder", kReal)               \
  X(Fmod, fmod, "fmod", kReal)                  \
  X(Maximum, maximum, "maximum", kReal)         \
  X(Minimum, minimum, "minimum", kReal)         \
  X(Pow, pow, "power", kReal)                   \
  X(Atan2, atan2, "arctan2", kReal)             \
  X(Hypot, hypot, "hypot", kReal)               \
  X(Copysign, copysign, "copysign", kReal)      \
  X(Complex, complex, "complex", kReal)

// Every other op.
// Comparisons (arity 2): 0.0/1.0 in the operands' real dtype (tenferro has no bool dtype), IEEE:
// false with a NaN operand except NotEqual; ordering is real-only. Where (arity 3; all operands
// share the compute dtype): in1 where in0 != 0, else in2; the other branch is never read into
// the result, so its Inf/NaN never leak. Scalar forms: alpha * x + beta (Affine), alpha * x +
// beta * y (Axpby). Cast: copy with dtype conversion (cast, contiguous, concatenate). Then the
// reductions, the scans (an inclusive running sum or product along one axis) and the creation ops
// (Generate, arity 0; dtypes: the output's).
#define TENFERRO_PRIMS_OTHER_OPS(X)                       \
  X(Greater, "greater", Elementwise, 2, kReal)            \
  X(GreaterEqual, "greater_equal", Elementwise, 2, kReal) \
  X(Less, "less", Elementwise, 2, kReal)                  \
  X(LessEqual, "less_equal", Elementwise, 2, kReal)       \
  X(Equal, "equal", Elementwise, 2, kAll)                 \
  X(NotEqual, "not_equal", Elementwise, 2, kAll)          \
  X(Where, "where", Elementwise, 3, kAll)                 \
  X(Affine, "affine", Elementwise, 1, kAll)               \
  X(Axpby, "axpby", Elementwise, 2, kAll)                 \
  X(Cast, "cast", Elementwise, 1, kAll)                   \
  X(Flip, "flip", Elementwise, 1, kAll)                   \
  X(Sum, "sum", Reduce, 1, kAll)                          \
  X(Mean, "mean", Reduce, 1, kAll)                        \
  X(Prod, "prod", Reduce, 1, kAll)                        \
  X(Max, "max", Reduce, 1, kReal)                         \
  X(Min, "min", Reduce, 1, kReal)                         \
  X(Norm, "norm", Reduce, 1, kAll)                        \
  X(ArgMax, "argmax", Reduce, 1, kReal)                   \
  X(ArgMin, "argmin", Reduce, 1, kReal)                   \
  X(CumSum, "cumsum", Scan, 1, kAll)                      \
  X(CumProd, "cumprod", Scan, 1, kAll)                    \
  X(Fill, "full", Generate, 0, kAll)                      \
  X(Eye, "eye", Generate, 0, kAll)                        \
  X(Arange, "arange", Generate, 0, kAll)                  \
  X(RandomUniform, "random_uniform", Generate, 0, kAll)   \
  X(RandomNormal, "random_normal", Generate, 0, kAll)

namespace tenferro::prims_internal {

#define TENFERRO_PRIMS_ENUMERATOR_MATH(Kind, fn, python_name, dtypes) Kind,
#define TENFERRO_PRIMS_ENUMERATOR_OTHER(Kind, name, shape, arity, dtypes) Kind,
enum class PrimKind : std::uint8_t {
  TENFERRO_PRIMS_UNARY_OPS(TENFERRO_PRIMS_ENUMERATOR_MATH)
      TENFERRO_PRIMS_BINARY_OPS(TENFERRO_PRIMS_ENUMERATOR_MATH)
          TENFERRO_PRIMS_OTHER_OPS(TENFERRO_PRIMS_ENUMERATOR_OTHER)
};
#undef TENFERRO_PRIMS_ENUMERATOR_MATH
#undef TENFERRO_PRIMS_ENUMERATOR_OTHER

// Whether a math op of the lists is defined for real dtypes only (its dtypes column is kReal):
// the backends instantiate no complex kernel for it (the registration table admits none).
constexpr bool same_token(const char* a, const char* b) {
  return *a == *b && (*a == '\0' || same_token(a + 1, b + 1));
}
constexpr bool real_only_math(PrimKind kind) {
  switch (kind) {
#define TENFERRO_PRIMS_REAL_ONLY(Kind, fn, python_name, dtypes) \
  case PrimKind::Kind:                                          \
    return same_token(#dtypes, "kReal");
    TENFERRO_PRIMS_UNARY_OPS(TENFERRO_PRIMS_REAL_ONLY)
    TENFERRO_PRIMS_BINARY_OPS(TENFERRO_PRIMS_REAL_ONLY)
#undef TENFERRO_PRIMS_REAL_ONLY
    default:
      return false;
  }
}

#define TENFERRO_PRIMS_COUNT_MATH(...) +1
#define TENFERRO_PRIMS_COUNT_OTHER(...) +1
inline constexpr std::size_t kPrimKindCount = 0 TENFERRO_PRIMS_UNARY_OPS(TENFERRO_PRIMS_COUNT_MATH)
    TENFERRO_PRIMS_BINARY_OPS(TENFERRO_PRIMS_COUNT_MATH)
        TENFERRO_PRIMS_OTHER_OPS(TENFERRO_PRIMS_COUNT_OTHER);
#undef TENFERRO_PRIMS_COUNT_MATH
#undef TENFERRO_PRIMS_COUNT_OTHER

}  // namespace tenferro::prims_internal
