// Reproducible random host tensors for tests: values uniform in [-1, 1] (both parts).
#pragma once

#include "tenferro/core/tensor.hpp"

namespace tenferro::testing {

Tensor random_tensor(DType dtype, Shape shape, unsigned seed);

}  // namespace tenferro::testing
