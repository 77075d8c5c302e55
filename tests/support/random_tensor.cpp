#include "support/random_tensor.hpp"

#include <type_traits>

namespace tenferro::testing {
namespace {

// Real part then imaginary part per element, in column-major order.
template <class Engine>
Tensor uniform_tensor(Engine& engine, DType dtype, Shape shape) {
  Tensor t = Tensor::zeros(dtype, std::move(shape));
  std::uniform_real_distribution<double> dist(-1.0, 1.0);
  visit_dtype(dtype, [&](auto zero) {
    using T = decltype(zero);
    T* data = t.data<T>();
    for (std::int64_t i = 0; i < t.numel(); ++i) {
      if constexpr (std::is_floating_point_v<T>) {
        data[i] = static_cast<T>(dist(engine));
      } else {
        using R = typename T::value_type;
        const auto re = static_cast<R>(dist(engine));
        const auto im = static_cast<R>(dist(engine));
        data[i] = T(re, im);
      }
    }
  });
  return t;
}

}  // namespace

Tensor random_tensor(std::mt19937_64& rng, DType dtype, const Shape& shape) {
  return uniform_tensor(rng, dtype, shape);
}

Tensor random_tensor(DType dtype, Shape shape, unsigned seed) {
  std::mt19937 engine(seed);
  return uniform_tensor(engine, dtype, std::move(shape));
}

}  // namespace tenferro::testing
