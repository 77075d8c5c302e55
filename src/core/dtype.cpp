#include "tenferro/core/dtype.hpp"

#include <string>

#include "core/dtype_check.hpp"
#include "tenferro/core/error.hpp"

namespace tenferro {

std::string_view dtype_name(DType d) {
  switch (d) {
    case DType::F32:
      return "F32";
    case DType::F64:
      return "F64";
    case DType::C32:
      return "C32";
    case DType::C64:
      return "C64";
  }
  return "?";
}

void throw_unknown_dtype(DType d, const char* op) {
  throw_validation(op, "unknown dtype " + std::to_string(static_cast<int>(d)) +
                           " (the dtypes are F32, F64, C32 and C64)");
}

bool parse_dtype(std::string_view text, DType& out) {
  struct Alias {
    std::string_view name;
    DType dtype;
  };
  static constexpr Alias kAliases[] = {
      {"F32", DType::F32}, {"f32", DType::F32}, {"float32", DType::F32},
      {"F64", DType::F64}, {"f64", DType::F64}, {"float64", DType::F64},
      {"C32", DType::C32}, {"c32", DType::C32}, {"complex64", DType::C32},
      {"C64", DType::C64}, {"c64", DType::C64}, {"complex128", DType::C64},
  };
  for (const Alias& a : kAliases) {
    if (a.name == text) {
      out = a.dtype;
      return true;
    }
  }
  return false;
}

}  // namespace tenferro
