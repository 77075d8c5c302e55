#include "ops/prims/prim_kind.hpp"

namespace tenferro::prims_internal {
namespace {
using enum PrimKind;
using enum KernelShape;
constexpr DTypeMask kAll = kAllDTypeMask;
constexpr DTypeMask kReal = kRealDTypes;

constexpr std::array<PrimInfo, kPrimKindCount> kTable = {{
    {Neg, "neg", Elementwise, 1, kAll},
    {Conj, "conj", Elementwise, 1, kAll},
    {Abs, "abs", Elementwise, 1, kAll},
    {Real, "real", Elementwise, 1, kAll},
    {Imag, "imag", Elementwise, 1, kAll},
    {Sqrt, "sqrt", Elementwise, 1, kAll},
    {Exp, "exp", Elementwise, 1, kAll},
    {Log, "log", Elementwise, 1, kAll},
    {Sin, "sin", Elementwise, 1, kAll},
    {Cos, "cos", Elementwise, 1, kAll},
    {Tanh, "tanh", Elementwise, 1, kAll},
    {Reciprocal, "reciprocal", Elementwise, 1, kAll},
    {Square, "square", Elementwise, 1, kAll},
    {Sign, "sign", Elementwise, 1, kAll},
    {Add, "add", Elementwise, 2, kAll},
    {Sub, "sub", Elementwise, 2, kAll},
    {Mul, "mul", Elementwise, 2, kAll},
    {Div, "div", Elementwise, 2, kAll},
    {Maximum, "maximum", Elementwise, 2, kReal},
    {Minimum, "minimum", Elementwise, 2, kReal},
    {Pow, "pow", Elementwise, 2, kReal},
    {Complex, "complex", Elementwise, 2, kReal},
    {Greater, "greater", Elementwise, 2, kReal},
    {GreaterEqual, "greater_equal", Elementwise, 2, kReal},
    {Less, "less", Elementwise, 2, kReal},
    {LessEqual, "less_equal", Elementwise, 2, kReal},
    {Equal, "equal", Elementwise, 2, kAll},
    {NotEqual, "not_equal", Elementwise, 2, kAll},
    {Where, "where", Elementwise, 3, kAll},
    {Affine, "affine", Elementwise, 1, kAll},
    {Axpby, "axpby", Elementwise, 2, kAll},
    {Cast, "cast", Elementwise, 1, kAll},
    {Sum, "sum", Reduce, 1, kAll},
    {Mean, "mean", Reduce, 1, kAll},
    {Prod, "prod", Reduce, 1, kAll},
    {Max, "max", Reduce, 1, kReal},
    {Min, "min", Reduce, 1, kReal},
    {Norm, "norm", Reduce, 1, kAll},
    {Fill, "full", Generate, 0, kAll},
    {Eye, "eye", Generate, 0, kAll},
    {Arange, "arange", Generate, 0, kAll},
    {RandomUniform, "random_uniform", Generate, 0, kAll},
    {RandomNormal, "random_normal", Generate, 0, kAll},
}};

constexpr bool indexed_by_kind() {
  for (std::size_t i = 0; i < kPrimKindCount; ++i) {
    if (static_cast<std::size_t>(kTable[i].kind) != i) return false;
  }
  return true;
}
static_assert(indexed_by_kind(), "kPrimInfo rows must follow the PrimKind order");
}  // namespace

const std::array<PrimInfo, kPrimKindCount> kPrimInfo = kTable;

DType kernel_output_dtype(PrimKind k, DType input) {
  switch (k) {
    case Abs:
    case Real:
    case Imag:
    case Norm:
    case Greater:
    case GreaterEqual:
    case Less:
    case LessEqual:
    case Equal:
    case NotEqual:
      return real_dtype(input);
    case Complex:
      return complex_dtype(input);
    default:
      return input;
  }
}

}  // namespace tenferro::prims_internal
