// The comparisons and argmax/argmin (constants: no rule) and the VJP/JVP rule of prims::where. The
// condition is a constant (comparisons are piecewise constant, so their outputs carry no
// derivative); the rule selects with the same condition, never multiplies by a 0/1 mask: 0 * inf
// would make the branch not taken leak NaN.
#include "ad/tape.hpp"

namespace tenferro::ad {
namespace {

using T = EagerTensor;

// The 0-d zero of g's dtype: where() broadcasts it to the output's shape.
T zero_like(const T& g) {
  return prims::zeros(g.runtime(), g.dtype(), {});
}

}  // namespace

// A comparison's output is a 0/1 step function of its operands: zero derivative almost
// everywhere and none at the step, so it is returned as a constant (nothing is recorded).
Variable greater(const Variable& a, const Variable& b) {
  return Variable(prims::greater(a.value(), b.value()));
}
Variable greater_equal(const Variable& a, const Variable& b) {
  return Variable(prims::greater_equal(a.value(), b.value()));
}
Variable less(const Variable& a, const Variable& b) {
  return Variable(prims::less(a.value(), b.value()));
}
Variable less_equal(const Variable& a, const Variable& b) {
  return Variable(prims::less_equal(a.value(), b.value()));
}
Variable equal(const Variable& a, const Variable& b) {
  return Variable(prims::equal(a.value(), b.value()));
}
Variable not_equal(const Variable& a, const Variable& b) {
  return Variable(prims::not_equal(a.value(), b.value()));
}
// argmax/argmin are step functions of x as well: their indices are constants.
Variable argmax(const Variable& x, std::int64_t axis, bool keepdims) {
  return Variable(prims::argmax(x.value(), axis, keepdims));
}
Variable argmin(const Variable& x, std::int64_t axis, bool keepdims) {
  return Variable(prims::argmin(x.value(), axis, keepdims));
}

Variable where(const EagerTensor& cond, const Variable& x, const Variable& y) {
  const Variable in[] = {x, y};
  return record1(
      "where", in, prims::where(cond, x.value(), y.value()),
      [cond](std::span<const T> g, const std::vector<bool>& needs) {
        std::vector<T> r(2);
        if (needs[0]) r[0] = prims::where(cond, g[0], zero_like(g[0]));
        if (needs[1]) r[1] = prims::where(cond, zero_like(g[0]), g[0]);
        return r;
      },
      [cond](std::span<const T> t) {
        // A missing tangent is zero on its side.
        const T& any = t[0].defined() ? t[0] : t[1];
        const T tx = t[0].defined() ? t[0] : zero_like(any);
        const T ty = t[1].defined() ? t[1] : zero_like(any);
        return std::vector<T>{prims::where(cond, tx, ty)};
      });
}

}  // namespace tenferro::ad
