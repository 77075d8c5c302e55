// The element-wise prims: unary, binary (broadcast + promoted), the scalar forms and casts.
#include <array>
#include <string>

#include "ops/prims/registration.hpp"
#include "ops/prims/resolve.hpp"
#include "tenferro/prims.hpp"
#include "tenferro/runtime/errors.hpp"
#include "tenferro/runtime/runtime.hpp"

namespace tenferro::prims {
namespace {

using prims_internal::PrimKind;
using prims_internal::PrimsOp;
using prims_internal::PrimsPayload;

void require_dtype_allowed(PrimKind kind, DType dtype, std::string_view what) {
  const auto& i = prims_internal::info(kind);
  if ((i.dtypes & prims_internal::dtype_bit(dtype)) == 0) {
    throw_validation(std::string(i.name), std::string(i.name) + " is defined for " +
                                              std::string(what) + ", not " +
                                              std::string(dtype_name(dtype)));
  }
}

EagerTensor unary(PrimKind kind, const EagerTensor& x) {
  // The real-only ops of the list refuse a complex value as an input error, as the binary
  // ones do, not as a backend's missing kernel.
  if (x.defined()) require_dtype_allowed(kind, x.dtype(), "real dtypes");
  const PrimsOp op([&](PrimsPayload& p) {
    p.kind = kind;
    p.inputs.assign(std::span(&x, 1));
    p.out.dtype = prims_internal::kernel_output_dtype(kind, x.dtype());
    p.out.shape = x.shape();
  });
  return prims_internal::run(op, std::span(&x, 1));
}

EagerTensor binary_as(PrimKind kind, const EagerTensor& a, const EagerTensor& b, DType dtype,
                      std::complex<double> alpha = 1.0, std::complex<double> beta = 0.0) {
  return prims_internal::elementwise_binary(kind, a, b, dtype, alpha, beta);
}

EagerTensor binary(PrimKind kind, const EagerTensor& a, const EagerTensor& b) {
  if (kind == PrimKind::Complex && a.defined() && b.defined() &&
      (is_complex(a.dtype()) || is_complex(b.dtype()))) {
    throw_validation("complex", "complex(re, im) takes real tensors; got " +
                                    std::string(dtype_name(a.dtype())) + " and " +
                                    std::string(dtype_name(b.dtype())));
  }
  const DType dtype = prims_internal::promote(a.dtype(), b.dtype());
  if (a.defined() && b.defined()) require_dtype_allowed(kind, dtype, "real dtypes");
  return binary_as(kind, a, b, dtype);
}

bool has_imag(Scalar s) {
  return s.imag() != 0.0;
}

EagerTensor affine(const EagerTensor& x, Scalar alpha, Scalar beta) {
  const DType dtype = (has_imag(alpha) || has_imag(beta)) && !is_complex(x.dtype())
                          ? complex_dtype(x.dtype())
                          : x.dtype();
  const EagerTensor in[] = {x.defined() ? prims_internal::kernel_operand(x, dtype) : x};
  const PrimsOp op([&](PrimsPayload& p) {
    p.kind = PrimKind::Affine;
    p.inputs.assign(in);
    p.out.dtype = dtype;
    p.out.shape = x.shape();
    p.alpha = alpha;
    p.beta = beta;
  });
  return prims_internal::run_operands(x.runtime(), op, in);
}

}  // namespace

// prims::neg .. prims::sign and prims::add .. prims::complex, from the op list.
#define TENFERRO_PRIMS_DEFINE_UNARY(Kind, fn, python_name, dtypes) \
  EagerTensor fn(const EagerTensor& x) {                           \
    return unary(PrimKind::Kind, x);                               \
  }
#define TENFERRO_PRIMS_DEFINE_BINARY(Kind, fn, python_name, dtypes) \
  EagerTensor fn(const EagerTensor& a, const EagerTensor& b) {      \
    return binary(PrimKind::Kind, a, b);                            \
  }
TENFERRO_PRIMS_UNARY_OPS(TENFERRO_PRIMS_DEFINE_UNARY)
TENFERRO_PRIMS_BINARY_OPS(TENFERRO_PRIMS_DEFINE_BINARY)
#undef TENFERRO_PRIMS_DEFINE_UNARY
#undef TENFERRO_PRIMS_DEFINE_BINARY

EagerTensor scale(const EagerTensor& x, Scalar alpha) {
  return affine(x, alpha, Scalar(-0.0, -0.0));  // no shift: kernel_calls.hpp's adds_beta
}
EagerTensor shift(const EagerTensor& x, Scalar beta) {
  return affine(x, 1.0, beta);
}

EagerTensor axpby(Scalar alpha, const EagerTensor& x, Scalar beta, const EagerTensor& y) {
  DType dtype = prims_internal::promote(x.dtype(), y.dtype());
  if (has_imag(alpha) || has_imag(beta)) dtype = complex_dtype(dtype);
  return binary_as(PrimKind::Axpby, x, y, dtype, alpha, beta);
}

EagerTensor cast(const EagerTensor& x, DType to) {
  if (x.defined() && is_complex(x.dtype()) && !is_complex(to)) {
    throw_validation("cast", "casting " + std::string(dtype_name(x.dtype())) + " to " +
                                 std::string(dtype_name(to)) +
                                 " would drop the imaginary part; call prims::real() or "
                                 "prims::abs() to say which real value you want");
  }
  const PrimsOp op([&](PrimsPayload& p) {
    p.kind = PrimKind::Cast;
    p.inputs.assign(std::span(&x, 1));
    p.out.dtype = to;
    p.out.shape = x.shape();
  });
  return prims_internal::run(op, std::span(&x, 1));
}

}  // namespace tenferro::prims

namespace tenferro::prims_internal {

EagerTensor elementwise_binary(PrimKind kind, const EagerTensor& a, const EagerTensor& b,
                               DType dtype, std::complex<double> alpha, std::complex<double> beta) {
  const std::string_view name = prim_name(kind);
  // ContextMismatch before any cast runs (the checks of require_one_runtime, without copying
  // the operands into an array for it).
  if (!a.runtime()) throw ContextMismatchError(std::string(name), 0, 0, 0);
  if (b.runtime().get() != a.runtime().get()) {
    throw ContextMismatchError(std::string(name), 1, a.runtime()->id(),
                               b.runtime() ? b.runtime()->id() : 0);
  }
  Shape shape = broadcast_shapes(name, a.shape(), b.shape());
  const EagerTensor in[] = {kernel_operand(a, dtype), kernel_operand(b, dtype)};
  const PrimsOp op([&](PrimsPayload& p) {
    p.kind = kind;
    p.inputs.assign(in);
    p.out.dtype = kernel_output_dtype(kind, dtype);
    p.out.shape = std::move(shape);
    p.alpha = alpha;
    p.beta = beta;
  });
  return run_operands(a.runtime(), op, in);
}

}  // namespace tenferro::prims_internal

namespace tenferro {

EagerTensor operator-(const EagerTensor& x) {
  return prims::neg(x);
}
EagerTensor operator+(const EagerTensor& a, const EagerTensor& b) {
  return prims::add(a, b);
}
EagerTensor operator-(const EagerTensor& a, const EagerTensor& b) {
  return prims::sub(a, b);
}
EagerTensor operator*(const EagerTensor& a, const EagerTensor& b) {
  return prims::mul(a, b);
}
EagerTensor operator/(const EagerTensor& a, const EagerTensor& b) {
  return prims::div(a, b);
}
EagerTensor operator*(const EagerTensor& x, prims::Scalar alpha) {
  return prims::scale(x, alpha);
}
EagerTensor operator*(prims::Scalar alpha, const EagerTensor& x) {
  return prims::scale(x, alpha);
}
EagerTensor operator/(const EagerTensor& x, prims::Scalar alpha) {
  return prims::div(x, alpha);
}
EagerTensor operator+(const EagerTensor& x, prims::Scalar beta) {
  return prims::shift(x, beta);
}
EagerTensor operator+(prims::Scalar beta, const EagerTensor& x) {
  return prims::shift(x, beta);
}
EagerTensor operator-(const EagerTensor& x, prims::Scalar beta) {
  return prims::shift(x, -beta);
}
EagerTensor operator-(prims::Scalar beta, const EagerTensor& x) {
  return prims::affine(x, -1.0, beta);  // one kernel: -x + beta
}

}  // namespace tenferro
