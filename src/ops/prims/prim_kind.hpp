// The ops of the tenferro.prims.v1 family: the enum (prim_kind_enum.hpp) and one table of facts per
// op (its name, the kernel shape that runs it, the dtypes its semantics allow). Backends list which
// of these they run (registration.hpp); everything else is derived.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "ops/prims/prim_kind_enum.hpp"
#include "runtime/dtype_mask.hpp"
#include "tenferro/core/dtype.hpp"

namespace tenferro::prims_internal {

// The kernel shape a backend provides for an op.
enum class KernelShape : std::uint8_t { Elementwise, Reduce, Scan, Generate };

// Dtype sets are the registration tables' masks (runtime/dtype_mask.hpp).
using runtime_internal::dtype_bit;
using runtime_internal::DTypeMask;
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
