// A dtype from outside the library's code checked before anything is sized by it.
#pragma once

#include <cstddef>

#include "tenferro/core/dtype.hpp"

namespace tenferro {

// The bytes of one element of `d`; a Validation error naming `op` for a value outside the enum
// (an integer cast to DType), for which dtype_size gives 0: such a tensor was sized at 0 bytes
// and copied as complex128 past its end, and its views divided by zero (a SIGILL).
// Inline: EagerTensor::fresh sizes every op's output by it.
[[noreturn]] void throw_unknown_dtype(DType d, const char* op);
inline std::size_t checked_dtype_size(DType d, const char* op) {
  const std::size_t size = dtype_size(d);
  if (size == 0) [[unlikely]]
    throw_unknown_dtype(d, op);
  return size;
}

}  // namespace tenferro
