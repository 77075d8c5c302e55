// The element functions of the CPU prims kernels, for T in float, double, complex<float>,
// complex<double>. std::complex's functions follow C99 Annex G, whose branch cuts and signed
// zeros are NumPy's.
#pragma once

#include <cmath>
#include <complex>
#include <type_traits>

#include "core/real_type.hpp"
#include "ops/prims/prim_kind.hpp"

namespace tenferro::prims_cpu {

template <class T>
inline constexpr bool kIsComplex = kIsComplexType<T>;
template <class T>
using Real = RealType<T>;

// alpha * x with a scalar given in double precision: a real scalar multiplies each part (so
// 1 * (inf + 0i) stays inf + 0i, as NumPy), a complex one multiplies as complex numbers.
template <class T>
T scale_by(std::complex<double> alpha, T x) {
  if constexpr (kIsComplex<T>) {
    using R = Real<T>;
    if (alpha.imag() == 0.0) return x * static_cast<R>(alpha.real());
    return x * T(static_cast<R>(alpha.real()), static_cast<R>(alpha.imag()));
  } else {
    return x * static_cast<T>(alpha.real());
  }
}

template <class T>
T add_scalar(T x, std::complex<double> beta) {
  if constexpr (kIsComplex<T>) {
    using R = Real<T>;
    return T(x.real() + static_cast<R>(beta.real()), x.imag() + static_cast<R>(beta.imag()));
  } else {
    return x + static_cast<T>(beta.real());
  }
}

template <class R>
R nan_max(R a, R b) {
  if (std::isnan(a)) return a;
  if (std::isnan(b)) return b;
  if (a == b) return std::signbit(a) ? b : a;  // -0 < +0, as IEEE 754-2019's maximum
  return a < b ? b : a;
}
template <class R>
R nan_min(R a, R b) {
  if (std::isnan(a)) return a;
  if (std::isnan(b)) return b;
  if (a == b) return std::signbit(a) ? a : b;  // -0 < +0, as IEEE 754-2019's minimum
  return b < a ? b : a;
}

template <class T>
T sign_of(T x) {
  if constexpr (kIsComplex<T>) {
    const auto m = std::abs(x);
    if (m == 0) return T(0);
    if (std::isnan(m)) return T(std::nan(""), std::nan(""));
    return x / m;
  } else {
    if (std::isnan(x)) return x;
    return static_cast<T>((x > 0) - (x < 0));
  }
}

// Unary kinds whose output dtype equals the input's.
template <class T>
T unary_same(prims_internal::PrimKind k, T x) {
  using enum prims_internal::PrimKind;
  switch (k) {
    case Neg:
      return -x;
    case Conj:
      if constexpr (kIsComplex<T>) return std::conj(x);
      return x;
    case Sqrt:
      return std::sqrt(x);
    case Exp:
      return std::exp(x);
    case Log:
      return std::log(x);
    case Sin:
      return std::sin(x);
    case Cos:
      return std::cos(x);
    case Tanh:
      return std::tanh(x);
    case Reciprocal:
      return T(1) / x;
    case Square:
      return x * x;
    case Sign:
      return sign_of(x);
    default:
      return x;
  }
}

// Unary kinds with a real output: abs, real, imag.
template <class T>
Real<T> unary_real(prims_internal::PrimKind k, T x) {
  using enum prims_internal::PrimKind;
  if constexpr (kIsComplex<T>) {
    if (k == Abs) return std::abs(x);
    if (k == Real) return x.real();
    return x.imag();
  } else {
    if (k == Abs) return std::fabs(x);
    if (k == Real) return x;
    return T(0);
  }
}

template <class T>
T binary(prims_internal::PrimKind k, T a, T b) {
  using enum prims_internal::PrimKind;
  switch (k) {
    case Add:
      return a + b;
    case Sub:
      return a - b;
    case Mul:
      return a * b;
    case Div:
      return a / b;
    default:
      break;
  }
  if constexpr (!kIsComplex<T>) {
    if (k == Maximum) return nan_max(a, b);
    if (k == Minimum) return nan_min(a, b);
    if (k == Pow) return std::pow(a, b);
  }
  return a;
}

// Comparisons as 0/1 of the real type R. The built-in operators are IEEE's: a NaN operand
// makes every one false except !=, and -0 == +0.
template <class T>
bool compare(prims_internal::PrimKind k, T a, T b) {
  using enum prims_internal::PrimKind;
  if constexpr (kIsComplex<T>) {
    // Only Equal/NotEqual are admitted for complex values: both parts must match.
    const bool eq = a.real() == b.real() && a.imag() == b.imag();
    return k == NotEqual ? !eq : eq;
  } else {
    switch (k) {
      case Greater:
        return a > b;
      case GreaterEqual:
        return a >= b;
      case Less:
        return a < b;
      case LessEqual:
        return a <= b;
      case Equal:
        return a == b;
      default:
        return a != b;
    }
  }
}

// The condition of Where: nonzero (NaN is nonzero; a complex value when either part is).
template <class T>
bool nonzero(T c) {
  if constexpr (kIsComplex<T>) {
    return c.real() != 0 || c.imag() != 0;
  } else {
    return c != 0;
  }
}

}  // namespace tenferro::prims_cpu
