#include "support/random_tensor.hpp"

#include <random>
#include <type_traits>

namespace tenferro::testing {

Tensor random_tensor(DType dtype, Shape shape, unsigned seed) {
  Tensor t = Tensor::zeros(dtype, std::move(shape));
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> dist(-1.0, 1.0);
  visit_dtype(dtype, [&](auto zero) {
    using T = decltype(zero);
    T* data = t.data<T>();
    for (std::int64_t i = 0; i < t.numel(); ++i) {
      if constexpr (std::is_floating_point_v<T>) {
        data[i] = static_cast<T>(dist(gen));
      } else {
        using R = typename T::value_type;
        const auto re = static_cast<R>(dist(gen));
        const auto im = static_cast<R>(dist(gen));
        data[i] = T(re, im);
      }
    }
  });
  return t;
}

}  // namespace tenferro::testing
