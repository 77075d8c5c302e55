#include "ops/prims/prim_kind.hpp"

namespace tenferro::prims_internal {
namespace {
using enum PrimKind;
using enum KernelShape;
constexpr DTypeMask kAll = kAllDTypeMask;
constexpr DTypeMask kReal = kRealDTypes;

// The table is the op list (prim_kind_enum.hpp) expanded: unary and binary math rows are
// element-wise of arity 1 and 2, named after their function.
#define TENFERRO_PRIMS_ROW_UNARY(Kind, fn, python_name, dtypes) {Kind, #fn, Elementwise, 1, dtypes},
#define TENFERRO_PRIMS_ROW_BINARY(Kind, fn, python_name, dtypes) \
  {Kind, #fn, Elementwise, 2, dtypes},
#define TENFERRO_PRIMS_ROW_OTHER(Kind, name, shape, arity, dtypes) \
  {Kind, name, shape, arity, dtypes},
constexpr std::array<PrimInfo, kPrimKindCount> kTable = {
    {TENFERRO_PRIMS_UNARY_OPS(TENFERRO_PRIMS_ROW_UNARY) TENFERRO_PRIMS_BINARY_OPS(
        TENFERRO_PRIMS_ROW_BINARY) TENFERRO_PRIMS_OTHER_OPS(TENFERRO_PRIMS_ROW_OTHER)}};
#undef TENFERRO_PRIMS_ROW_UNARY
#undef TENFERRO_PRIMS_ROW_BINARY
#undef TENFERRO_PRIMS_ROW_OTHER

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
