// Element types: the four dtypes every operation supports.
#pragma once

#include <complex>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <type_traits>

// The public API: exported from the shared library (the rest of it is hidden).
#pragma GCC visibility push(default)

namespace tenferro {

enum class DType : std::uint8_t { F32, F64, C32, C64 };

inline constexpr DType kAllDTypes[] = {DType::F32, DType::F64, DType::C32, DType::C64};

constexpr std::size_t dtype_size(DType d) {
  switch (d) {
    case DType::F32:
      return 4;
    case DType::F64:
      return 8;
    case DType::C32:
      return 8;
    case DType::C64:
      return 16;
  }
  return 0;
}
constexpr bool is_complex(DType d) {
  return d == DType::C32 || d == DType::C64;
}
constexpr bool is_double(DType d) {
  return d == DType::F64 || d == DType::C64;
}
// F32 <-> C32 and F64 <-> C64: the real type of a complex dtype and vice versa.
constexpr DType real_dtype(DType d) {
  return is_double(d) ? DType::F64 : DType::F32;
}
constexpr DType complex_dtype(DType d) {
  return is_double(d) ? DType::C64 : DType::C32;
}
// Alignment we keep for buffers (16 bytes covers C64; we use a cache line).
inline constexpr std::size_t kBufferAlignment = 64;

std::string_view dtype_name(DType d);  // "F32", ...
// Parses "F32"/"f32"/"float32" etc. Returns false when unknown.
bool parse_dtype(std::string_view text, DType& out);

template <class T>
struct dtype_of;
template <>
struct dtype_of<float> {
  static constexpr DType value = DType::F32;
};
template <>
struct dtype_of<double> {
  static constexpr DType value = DType::F64;
};
template <>
struct dtype_of<std::complex<float>> {
  static constexpr DType value = DType::C32;
};
template <>
struct dtype_of<std::complex<double>> {
  static constexpr DType value = DType::C64;
};
template <class T>
inline constexpr DType dtype_of_v = dtype_of<T>::value;

template <class T>
concept Element = std::is_same_v<T, float> || std::is_same_v<T, double> ||
    std::is_same_v<T, std::complex<float>> || std::is_same_v<T, std::complex<double>>;

// Calls f(T{}) with the C++ element type of `d`: the one switch that turns a runtime
// dtype into a template instantiation.
template <class F>
decltype(auto) visit_dtype(DType d, F&& f) {
  switch (d) {
    case DType::F32:
      return f(float{});
    case DType::F64:
      return f(double{});
    case DType::C32:
      return f(std::complex<float>{});
    case DType::C64:
      break;
  }
  return f(std::complex<double>{});
}

}  // namespace tenferro

#pragma GCC visibility pop
