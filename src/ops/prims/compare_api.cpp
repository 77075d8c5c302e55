// The comparison and selection prims (greater .. not_equal, where), the classifications built
// on them (isfinite, isnan, isinf) and IEEE division by a scalar. Comparisons are kernels of
// their own, never sign(a - b): a difference turns inf - inf and every NaN into NaN, which is
// no answer to "is a > b".
#include <limits>
#include <string>

#include "ops/prims/registration.hpp"
#include "ops/prims/resolve.hpp"
#include "runtime/borrowed_tensor.hpp"
#include "tenferro/prims.hpp"

namespace tenferro::prims {
namespace {

using prims_internal::PrimKind;
using prims_internal::PrimsOp;
using prims_internal::PrimsPayload;

EagerTensor compare(PrimKind kind, const EagerTensor& a, const EagerTensor& b) {
  const DType dtype = prims_internal::promote(a.dtype(), b.dtype());
  if (a.defined() && b.defined() && is_complex(dtype) &&
      (prims_internal::info(kind).dtypes & prims_internal::dtype_bit(dtype)) == 0) {
    const std::string name(prims_internal::prim_name(kind));
    throw_validation(name, name + " orders real values; the operands are " +
                               std::string(dtype_name(dtype)) +
                               ": compare real(x), imag(x) or abs(x) explicitly (complex "
                               "numbers have no natural order)");
  }
  return prims_internal::elementwise_binary(kind, a, b, dtype);
}

// A 0-d tensor of `dtype` holding v, in x's runtime (a Fill kernel there, never uploaded).
EagerTensor scalar_like(const EagerTensor& x, DType dtype, Scalar v) {
  const EagerTensor one[] = {x};
  return full(require_one_runtime("div", one, 1), dtype, {}, v);
}

// The dtype of x combined with a scalar: a complex scalar makes a real x complex.
DType with_scalar(const EagerTensor& x, Scalar v) {
  return v.imag() != 0.0 && !is_complex(x.dtype()) ? complex_dtype(x.dtype()) : x.dtype();
}

}  // namespace

EagerTensor greater(const EagerTensor& a, const EagerTensor& b) {
  return compare(PrimKind::Greater, a, b);
}
EagerTensor greater_equal(const EagerTensor& a, const EagerTensor& b) {
  return compare(PrimKind::GreaterEqual, a, b);
}
EagerTensor less(const EagerTensor& a, const EagerTensor& b) {
  return compare(PrimKind::Less, a, b);
}
EagerTensor less_equal(const EagerTensor& a, const EagerTensor& b) {
  return compare(PrimKind::LessEqual, a, b);
}
EagerTensor equal(const EagerTensor& a, const EagerTensor& b) {
  return compare(PrimKind::Equal, a, b);
}
EagerTensor not_equal(const EagerTensor& a, const EagerTensor& b) {
  return compare(PrimKind::NotEqual, a, b);
}

EagerTensor where(const EagerTensor& cond, const EagerTensor& x, const EagerTensor& y) {
  const EagerTensor all[] = {runtime_internal::BorrowedTensor::of(cond),
                             runtime_internal::BorrowedTensor::of(x),
                             runtime_internal::BorrowedTensor::of(y)};
  require_one_runtime("where", all, 3);                      // ContextMismatch before any kernel
  const std::shared_ptr<EagerRuntime>& rt = cond.runtime();  // the caller's: owning
  const DType dtype = prims_internal::promote(x.dtype(), y.dtype());
  const Shape shape = prims_internal::broadcast_shapes(
      "where", prims_internal::broadcast_shapes("where", cond.shape(), x.shape()), y.shape());
  // A complex condition with real branches is first reduced to its nonzero-ness (exact 0/1),
  // so no complex -> real cast is needed.
  EagerTensor c = cond;
  if (is_complex(c.dtype()) && !is_complex(dtype)) {
    c = not_equal(c, zeros(rt, c.dtype(), {}));
  }
  const EagerTensor in[] = {prims_internal::kernel_operand(c, dtype),
                            prims_internal::kernel_operand(x, dtype),
                            prims_internal::kernel_operand(y, dtype)};
  const PrimsOp op([&](PrimsPayload& p) {
    p.kind = PrimKind::Where;
    p.inputs.assign(in);
    p.out = {dtype, shape};
  });
  return prims_internal::run_operands(rt, op, in);
}

EagerTensor isfinite(const EagerTensor& x) {
  if (x.defined() && is_complex(x.dtype())) {
    return mul(isfinite(real(x)), isfinite(imag(x)));
  }
  // |x| < inf is false for +-inf and (IEEE) for NaN.
  return less(abs(x), scalar_like(x, x.dtype(), std::numeric_limits<double>::infinity()));
}
EagerTensor isnan(const EagerTensor& x) {
  // x != x only for NaN; a complex value is unequal to itself when either part is NaN.
  return not_equal(x, x);
}
EagerTensor isinf(const EagerTensor& x) {
  if (x.defined() && is_complex(x.dtype())) {
    return maximum(isinf(real(x)), isinf(imag(x)));
  }
  return equal(abs(x), scalar_like(x, x.dtype(), std::numeric_limits<double>::infinity()));
}

EagerTensor div(const EagerTensor& x, Scalar v) {
  const DType dtype = with_scalar(x, v);
  return prims::div(x, scalar_like(x, dtype, v));
}
EagerTensor div(Scalar v, const EagerTensor& x) {
  const DType dtype = with_scalar(x, v);
  return prims::div(scalar_like(x, dtype, v), x);
}

}  // namespace tenferro::prims
