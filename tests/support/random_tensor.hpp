// Reproducible random host tensors for tests: values uniform in [-1, 1] (both parts).
#pragma once

#include <random>

#include "tenferro/core/tensor.hpp"

namespace tenferro::testing {

// Draws from a caller's engine (a test generating many cases from one seed).
Tensor random_tensor(std::mt19937_64& rng, DType dtype, const Shape& shape);
// A fresh engine seeded with `seed`.
Tensor random_tensor(DType dtype, Shape shape, unsigned seed);

}  // namespace tenferro::testing
