// SciPy's eigenvalue selection codes and the order they impose on Ritz values.
#include <algorithm>
#include <numeric>
#include <string>

#include "ops/krylov/ritz_order.hpp"

namespace tenferro::krylov {

Which which_from_string(std::string_view code) {
  if (code == "LM") return Which::LargestMagnitude;
  if (code == "SM") return Which::SmallestMagnitude;
  if (code == "LA" || code == "LR") return Which::LargestAlgebraic;
  if (code == "SA" || code == "SR") return Which::SmallestAlgebraic;
  if (code == "LI") return Which::LargestImaginary;
  if (code == "SI") return Which::SmallestImaginary;
  throw_validation("krylov", "which = '" + std::string(code) +
                                 "' is not one of 'LM', 'SM', 'LA', 'SA', 'LR', 'SR', 'LI', 'SI'");
}

std::string_view which_name(Which which) {
  switch (which) {
    case Which::LargestMagnitude:
      return "LM";
    case Which::SmallestMagnitude:
      return "SM";
    case Which::LargestAlgebraic:
      return "LA";
    case Which::SmallestAlgebraic:
      return "SA";
    case Which::LargestImaginary:
      return "LI";
    case Which::SmallestImaginary:
      return "SI";
  }
  return "?";
}

}  // namespace tenferro::krylov

namespace tenferro::krylov_internal {

std::vector<std::int64_t> ritz_order(const std::vector<cplx>& values, krylov::Which which) {
  // The key whose smallest value is the best.
  auto key = [which](cplx z) {
    switch (which) {
      case krylov::Which::LargestMagnitude:
        return -std::abs(z);
      case krylov::Which::SmallestMagnitude:
        return std::abs(z);
      case krylov::Which::LargestAlgebraic:
        return -z.real();
      case krylov::Which::SmallestAlgebraic:
        return z.real();
      case krylov::Which::LargestImaginary:
        return -z.imag();
      case krylov::Which::SmallestImaginary:
        return z.imag();
    }
    return 0.0;
  };
  std::vector<std::int64_t> order(values.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](std::int64_t a, std::int64_t b) {
    return key(values[static_cast<std::size_t>(a)]) < key(values[static_cast<std::size_t>(b)]);
  });
  return order;
}

}  // namespace tenferro::krylov_internal
