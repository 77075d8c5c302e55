// A set of dtypes as a bit mask (bit = DType value): what a registration row claims and what a
// prims kernel set runs. One definition for every family.
#pragma once

#include <cstdint>
#include <initializer_list>

#include "tenferro/core/dtype.hpp"

namespace tenferro::runtime_internal {

using DTypeMask = std::uint8_t;

constexpr DTypeMask dtype_bit(DType d) {
  return static_cast<DTypeMask>(1u << static_cast<unsigned>(d));
}
constexpr DTypeMask dtypes(std::initializer_list<DType> list) {
  DTypeMask m = 0;
  for (DType d : list) m = static_cast<DTypeMask>(m | dtype_bit(d));
  return m;
}
inline constexpr DTypeMask kAllFloatDTypes =
    dtypes({DType::F32, DType::F64, DType::C32, DType::C64});

}  // namespace tenferro::runtime_internal
