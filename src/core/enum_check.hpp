// A public enum's value from the caller, checked against its last enumerator: an integer cast
// to the enum type was accepted and read as some default (fft::Norm(9) scaled as no norm at
// all, TriangularOp(9) solved untransposed while its AD rule took it as a conjugate transpose).
#pragma once

#include <string>
#include <string_view>
#include <type_traits>

#include "tenferro/core/error.hpp"

namespace tenferro {

template <class E>
void require_enumerator(E value, E last, std::string_view op, const char* what) {
  using U = std::underlying_type_t<E>;
  if (static_cast<U>(value) > static_cast<U>(last)) {
    throw_validation(std::string(op), std::string(what) + " " +
                                          std::to_string(static_cast<int>(value)) +
                                          " is none of its enumerators (a cast integer?)");
  }
}

}  // namespace tenferro
