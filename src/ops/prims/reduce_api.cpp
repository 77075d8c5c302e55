// The prims reductions: axes resolved to a mask, keepdims by a view of the kept-dims result;
// argmax/argmin are reductions of one axis. And the scan along one axis (cumsum).
#include <string>

#include "ops/prims/registration.hpp"
#include "ops/prims/resolve.hpp"
#include "tenferro/prims.hpp"

namespace tenferro::prims {
namespace {

using prims_internal::PrimKind;

EagerTensor reduce(PrimKind kind, const EagerTensor& x, const std::optional<Axes>& axes,
                   bool keepdims) {
  const std::string name(prims_internal::prim_name(kind));
  const std::int64_t rank = x.rank();
  prims_internal::PrimsPayload p;
  p.kind = kind;
  p.reduced = prims_internal::axes_mask(name, axes, rank);
  if (x.defined() &&
      (prims_internal::info(kind).dtypes & prims_internal::dtype_bit(x.dtype())) == 0) {
    throw_validation(name, name + " is defined for real dtypes, not " +
                               std::string(dtype_name(x.dtype())) + "; reduce abs() or real()");
  }
  Shape kept = x.shape(), dropped;
  std::int64_t reduced_count = 1;
  for (std::int64_t a = 0; a < rank; ++a) {
    const auto i = static_cast<std::size_t>(a);
    if (p.reduced[i]) {
      reduced_count *= kept[i];
      kept[i] = 1;
    } else {
      dropped.push_back(kept[i]);
    }
  }
  // NumPy's rule: an empty reduced axis has no maximum, whether or not the result is empty too
  // (max over axis 0 of a 0 x 0 array raises; argmax does the same).
  if ((kind == PrimKind::Max || kind == PrimKind::Min) && reduced_count == 0) {
    throw_validation(name, name + " over zero elements has no identity (the reduced axes of " +
                               shape_to_string(x.shape()) + " are empty)");
  }
  p.inputs.assign(std::span(&x, 1));
  p.out = {prims_internal::kernel_output_dtype(kind, x.dtype()), kept};
  EagerTensor out = prims_internal::run(prims_internal::PrimsOp(std::move(p)), std::span(&x, 1));
  return keepdims ? out : out.reshape(std::move(dropped));
}

// argmax/argmin: one axis, with the checks NumPy makes (an empty axis has no index) and one of
// ours (every index of the axis is exact in x's dtype, which holds it).
EagerTensor arg_extreme(PrimKind kind, const EagerTensor& x, std::int64_t axis, bool keepdims) {
  const std::string name(prims_internal::prim_name(kind));
  const std::int64_t a = prims_internal::normalize_axis(name, axis, x.rank());
  const std::int64_t n = x.shape()[static_cast<std::size_t>(a)];
  if (n == 0) {
    throw_validation(name, "attempt to get " + name + " of an empty sequence (axis " +
                               std::to_string(axis) + " of " + shape_to_string(x.shape()) + ")");
  }
  const std::int64_t exact =
      x.dtype() == DType::F32 ? std::int64_t{1} << 24 : std::int64_t{1} << 53;
  if (n > exact) {
    throw_validation(name, "an axis of " + std::to_string(n) + " entries has indices " +
                               std::string(dtype_name(x.dtype())) + " does not hold exactly");
  }
  return reduce(kind, x, Axes{axis}, keepdims);
}

// cumsum/cumprod: the output has x's meta; the payload is built in place (the warm path).
EagerTensor scan(PrimKind kind, const EagerTensor& x, std::int64_t axis) {
  const std::string_view name = prims_internal::prim_name(kind);
  prims_internal::require_defined(name, x);
  const std::int64_t scanned = prims_internal::normalize_axis(name, axis, x.rank());
  const prims_internal::PrimsOp op([&](prims_internal::PrimsPayload& p) {
    p.kind = kind;
    p.axis = scanned;
    p.inputs.assign(std::span(&x, 1));
    p.out.dtype = x.dtype();
    p.out.shape = x.shape();
  });
  return prims_internal::run(op, std::span(&x, 1));
}

}  // namespace

EagerTensor sum(const EagerTensor& x, std::optional<Axes> axes, bool keepdims) {
  return reduce(PrimKind::Sum, x, axes, keepdims);
}
EagerTensor mean(const EagerTensor& x, std::optional<Axes> axes, bool keepdims) {
  return reduce(PrimKind::Mean, x, axes, keepdims);
}
EagerTensor prod(const EagerTensor& x, std::optional<Axes> axes, bool keepdims) {
  return reduce(PrimKind::Prod, x, axes, keepdims);
}
EagerTensor max(const EagerTensor& x, std::optional<Axes> axes, bool keepdims) {
  return reduce(PrimKind::Max, x, axes, keepdims);
}
EagerTensor min(const EagerTensor& x, std::optional<Axes> axes, bool keepdims) {
  return reduce(PrimKind::Min, x, axes, keepdims);
}
EagerTensor norm(const EagerTensor& x, std::optional<Axes> axes, bool keepdims) {
  return reduce(PrimKind::Norm, x, axes, keepdims);
}

EagerTensor argmax(const EagerTensor& x, std::int64_t axis, bool keepdims) {
  return arg_extreme(PrimKind::ArgMax, x, axis, keepdims);
}
EagerTensor argmin(const EagerTensor& x, std::int64_t axis, bool keepdims) {
  return arg_extreme(PrimKind::ArgMin, x, axis, keepdims);
}

EagerTensor cumsum(const EagerTensor& x, std::int64_t axis) {
  return scan(PrimKind::CumSum, x, axis);
}
EagerTensor cumprod(const EagerTensor& x, std::int64_t axis) {
  return scan(PrimKind::CumProd, x, axis);
}

}  // namespace tenferro::prims
