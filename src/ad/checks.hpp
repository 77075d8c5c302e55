// Argument checks of the AD entry points (the same-runtime contract, cotangent metadata).
#pragma once

#include <cstddef>
#include <string_view>

#include "tenferro/runtime/eager_tensor.hpp"

namespace tenferro::ad {

// ContextMismatch unless x is defined and lives in `rt`.
void check_same_runtime(std::string_view op, const EagerRuntime& rt, const EagerTensor& x,
                        std::size_t index);
// Validation unless x has exactly `expected`'s dtype and shape; `what` names the argument.
void check_like(std::string_view op, std::string_view what, std::size_t index, const EagerTensor& x,
                const TensorMeta& expected);

}  // namespace tenferro::ad
