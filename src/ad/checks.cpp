#include "ad/checks.hpp"

#include <string>

#include "tenferro/runtime/errors.hpp"
#include "tenferro/runtime/runtime.hpp"

namespace tenferro::ad {

void check_same_runtime(std::string_view op, const EagerRuntime& rt, const EagerTensor& x,
                        std::size_t index) {
  if (!x.defined() || !x.runtime()) throw ContextMismatchError(std::string(op), index, rt.id(), 0);
  if (x.runtime().get() != &rt) {
    throw ContextMismatchError(std::string(op), index, rt.id(), x.runtime()->id());
  }
}

void check_like(std::string_view op, std::string_view what, std::size_t index, const EagerTensor& x,
                const TensorMeta& expected) {
  if (x.dtype() != expected.dtype || x.shape() != expected.shape) {
    throw_validation(std::string(op), std::string(what) + " " + std::to_string(index) + " is " +
                                          std::string(dtype_name(x.dtype())) + " " +
                                          shape_to_string(x.shape()) + " but its primal is " +
                                          std::string(dtype_name(expected.dtype)) + " " +
                                          shape_to_string(expected.shape));
  }
}

}  // namespace tenferro::ad
