// The real type of a host element type (float for std::complex<float>, itself for a real
// type): one definition for every CPU kernel family and the distributed layer.
#pragma once

#include <complex>
#include <type_traits>

namespace tenferro {

template <class T>
struct RealTypeOf {
  using type = T;
};
template <class R>
struct RealTypeOf<std::complex<R>> {
  using type = R;
};
template <class T>
using RealType = typename RealTypeOf<T>::type;
template <class T>
inline constexpr bool kIsComplexType = !std::is_same_v<T, RealType<T>>;

}  // namespace tenferro
