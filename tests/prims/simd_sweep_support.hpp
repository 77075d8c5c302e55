// What the sweeps of the SIMD element-wise kernels share (prims_ulp_sweep_test.cpp,
// prims_simd_arith_test.cpp): the vector ISAs this CPU runs, the ulp distance that compares a
// kernel with its reference, and the special values every sweep includes.
#pragma once

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "ops/prims/cpu/simd/simd_ops.hpp"
#include "ops/prims/prim_kind.hpp"

namespace tenferro::prims_test {

namespace simd = prims_cpu::simd;
using simd::Isa;
using simd::Op;

inline std::vector<Isa> vector_isas() {
  std::vector<Isa> out;
  for (Isa isa : {Isa::Avx2, Isa::Avx512}) {
    if (simd::isa_available(isa)) out.push_back(isa);
  }
  return out;
}

inline const char* isa_name(Isa isa) {
  return isa == Isa::Avx512 ? "avx512" : "avx2";
}

// Position of x on the line of representable values: adjacent values differ by 1, -0 and +0
// share 0 (their signs are compared separately).
template <class R>
std::int64_t ordinal(R x) {
  using U = std::conditional_t<sizeof(R) == 4, std::uint32_t, std::uint64_t>;
  const U bits = std::bit_cast<U>(x);
  const U sign = U(1) << (8 * sizeof(R) - 1);
  const auto mag = static_cast<std::int64_t>(bits & ~sign);
  return (bits & sign) ? -mag : mag;
}

// The distance in ulps of got from want; "infinitely far" (max) for a NaN/non-NaN mismatch,
// an infinity that is not the same infinity, or zeros of different signs.
template <class R>
std::uint64_t ulp_distance(R got, R want) {
  constexpr auto kFar = std::numeric_limits<std::uint64_t>::max();
  if (std::isnan(want) || std::isnan(got)) return std::isnan(want) && std::isnan(got) ? 0 : kFar;
  if (std::isinf(want) || std::isinf(got)) return got == want ? 0 : kFar;
  if (want == 0 && got == 0) return std::signbit(want) == std::signbit(got) ? 0 : kFar;
  const std::int64_t d = ordinal(got) - ordinal(want);
  return static_cast<std::uint64_t>(d < 0 ? -d : d);
}

inline std::string op_name(Op op) {
  return std::string(prims_internal::prim_name(op));
}

template <class R>
std::vector<R> specials() {
  using L = std::numeric_limits<R>;
  std::vector<R> v = {R(0),
                      L::denorm_min(),
                      L::min(),
                      L::max(),
                      L::infinity(),
                      L::quiet_NaN(),
                      L::epsilon(),
                      R(1),
                      R(0.5),
                      R(2),
                      R(88.72283935546875),
                      R(88.7228469848632812),
                      R(709.782712893384),
                      R(709.79),
                      R(-87.33654),
                      R(-103.97208),
                      R(-745.1332191019411),
                      R(-708.39641853226408),
                      R(3.14159265358979323846),
                      R(1.5707963267948966),
                      R(1e22),
                      R(6.2831853071795865),
                      R(20),
                      R(-20)};
  const std::size_t n = v.size();
  for (std::size_t i = 0; i < n; ++i) v.push_back(-v[i]);
  for (std::size_t i = 0; i < n; ++i) v.push_back(std::nextafter(v[i], R(0)));
  for (std::size_t i = 0; i < n; ++i) v.push_back(std::nextafter(v[i], L::infinity()));
  return v;
}

}  // namespace tenferro::prims_test
