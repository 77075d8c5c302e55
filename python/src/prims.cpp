// tenferro._tenferro.prims: the prims family (element-wise, reductions, joins, creation) as
// plain functions; tenferro/_namespace.py gives them NumPy's names and signatures.
#include <nanobind/stl/optional.h>
#include <nanobind/stl/shared_ptr.h>
#include <nanobind/stl/vector.h>

#include <nanobind/stl/string.h>

#include "ad_bridge.hpp"
#include "bindings.hpp"
#include "convert.hpp"
#include "operands.hpp"
#include "tenferro/prims.hpp"
#include "tenferro/runtime/runtime.hpp"
#include "views.hpp"

namespace tenferro::python {

namespace {

template <EagerTensor (*F)(const EagerTensor&)>
void def_unary(nb::module_& p, const char* name) {
  p.def(name, [](const EagerTensor& x) { return released([&] { return F(x); }); });
}

template <EagerTensor (*F)(const EagerTensor&, const EagerTensor&)>
void def_binary(nb::module_& p, const char* name) {
  p.def(name, [](const EagerTensor& a, const EagerTensor& b) {
    return released([&] { return F(a, b); });
  });
}

std::vector<EagerTensor> tensor_list(nb::handle seq, const char* op) {
  std::vector<EagerTensor> out;
  int i = 0;
  for (nb::handle x : seq) out.push_back(as_tensor(x, op, i++));
  return out;
}

// concatenate/stack take any sequence; with a Tracer in it they record (ad::concatenate/stack).
bool any_tracer(nb::handle seq) {
  for (nb::handle x : seq)
    if (is_tracer(x)) return true;
  return false;
}

std::vector<ad::Variable> variable_list(nb::handle seq, const char* op) {
  std::vector<ad::Variable> out;
  int i = 0;
  for (nb::handle x : seq) out.push_back(as_variable(x, op, i++));
  return out;
}

using Runtime = std::shared_ptr<EagerRuntime>;

// A Tensor's or a Tracer's value; nullopt for anything else (a scalar).
std::optional<EagerTensor> value_of(nb::handle h) {
  if (is_tracer(h)) return nb::cast<const ad::Variable&>(h).value();
  EagerTensor* t = nullptr;
  if (nb::try_cast(h, t) && t != nullptr) return *t;
  return std::nullopt;
}

// numpy.where(cond, x, y) over tensors, Tracers and scalars. A scalar becomes a 0-d tensor in
// the runtime of the tensors beside it, of the other branch's dtype (both branches scalars:
// cond's real dtype), complex when it has an imaginary part. A Tracer branch records the
// select (ad::where); a traced condition is used by its value (a mask carries no gradient).
nb::object where(nb::handle cond, nb::handle x, nb::handle y) {
  const std::optional<EagerTensor> vc = value_of(cond), vx = value_of(x), vy = value_of(y);
  const std::optional<EagerTensor>& any = vx ? vx : vy ? vy : vc;
  if (!any) throw_validation("where", "at least one operand must be a tenferro Tensor");
  const DType base = vx ? vx->dtype() : vy ? vy->dtype() : real_dtype(vc->dtype());
  const auto operand = [&](nb::handle h, const std::optional<EagerTensor>& v, int i) {
    if (v) return *v;
    const std::optional<prims::Scalar> s = as_scalar(h);
    if (!s) return as_tensor(h, "where", i);  // a typed error naming the operand
    const DType d = s->imag() != 0.0 && !is_complex(base) ? complex_dtype(base) : base;
    return prims::full(any->runtime(), d, {}, *s);
  };
  const EagerTensor c = operand(cond, vc, 0), tx = operand(x, vx, 1), ty = operand(y, vy, 2);
  if (is_tracer(x) || is_tracer(y)) {
    const ad::Variable ax = is_tracer(x) ? nb::cast<const ad::Variable&>(x) : ad::Variable(tx);
    const ad::Variable ay = is_tracer(y) ? nb::cast<const ad::Variable&>(y) : ad::Variable(ty);
    return nb::cast(released([&] { return ad::where(c, ax, ay); }));
  }
  return nb::cast(released([&] { return prims::where(c, tx, ty); }));
}

}  // namespace

void bind_prims(nb::module_& m) {
  nb::module_ p = m.def_submodule("prims", "The tenferro.prims.v1 family, unwrapped.");
  def_unary<prims::neg>(p, "negative");
  def_unary<prims::conj>(p, "conj");
  def_unary<prims::abs>(p, "abs");
  def_unary<prims::real>(p, "real");
  def_unary<prims::imag>(p, "imag");
  def_unary<prims::sqrt>(p, "sqrt");
  def_unary<prims::exp>(p, "exp");
  def_unary<prims::log>(p, "log");
  def_unary<prims::sin>(p, "sin");
  def_unary<prims::cos>(p, "cos");
  def_unary<prims::tanh>(p, "tanh");
  def_unary<prims::reciprocal>(p, "reciprocal");
  def_unary<prims::square>(p, "square");
  def_unary<prims::sign>(p, "sign");
  def_unary<prims::contiguous>(p, "contiguous");
  p.def("ascontiguousarray",
        [](const EagerTensor& x) { return released([&] { return c_contiguous(x); }); });
  def_binary<prims::maximum>(p, "maximum");
  def_binary<prims::minimum>(p, "minimum");
  def_binary<prims::complex>(p, "complex");
  p.def("matmul", &matmul);
  p.def("equal", [](const EagerTensor& a, nb::handle b) { return compare(a, b, Compare::Equal); });
  p.def("not_equal",
        [](const EagerTensor& a, nb::handle b) { return compare(a, b, Compare::NotEqual); });
  p.def("greater",
        [](const EagerTensor& a, nb::handle b) { return compare(a, b, Compare::Greater); });
  p.def("less", [](const EagerTensor& a, nb::handle b) { return compare(a, b, Compare::Less); });
  p.def("greater_equal",
        [](const EagerTensor& a, nb::handle b) { return compare(a, b, Compare::GreaterEqual); });
  p.def("less_equal",
        [](const EagerTensor& a, nb::handle b) { return compare(a, b, Compare::LessEqual); });
  p.def("where", &where);
  def_unary<prims::isfinite>(p, "isfinite");
  def_unary<prims::isnan>(p, "isnan");
  def_unary<prims::isinf>(p, "isinf");
  p.def(
      "norm",
      [](const EagerTensor& x, nb::handle axis, bool keepdims) {
        auto axes = axes_arg(axis);
        return released([&] { return prims::norm(x, axes, keepdims); });
      },
      nb::arg("x"), nb::arg("axis").none(), nb::arg("keepdims"));
  p.def("cast", [](const EagerTensor& x, nb::handle dtype) {
    const DType d = dtype_from_python(dtype);
    return released([&] { return prims::cast(x, d); });
  });
  p.def("diagonal", [](const EagerTensor& x, std::int64_t offset, std::int64_t a, std::int64_t b) {
    return prims::diagonal(x, offset, a, b);
  });
  p.def("broadcast_to", [](const EagerTensor& x, nb::handle shape) {
    return prims::broadcast_to(x, shape_arg(shape));
  });
  p.def("concatenate", [](nb::handle xs, std::int64_t axis) -> nb::object {
    if (any_tracer(xs)) {
      auto v = variable_list(xs, "concatenate");
      return nb::cast(released([&] { return ad::concatenate(v, axis); }));
    }
    auto v = tensor_list(xs, "concatenate");
    return nb::cast(released([&] { return prims::concatenate(v, axis); }));
  });
  p.def("stack", [](nb::handle xs, std::int64_t axis) -> nb::object {
    if (any_tracer(xs)) {
      auto v = variable_list(xs, "stack");
      return nb::cast(released([&] { return ad::stack(v, axis); }));
    }
    auto v = tensor_list(xs, "stack");
    return nb::cast(released([&] { return prims::stack(v, axis); }));
  });
  // Creation inside a runtime.
  p.def("zeros", [](const Runtime& rt, nb::handle shape, nb::handle dtype) {
    return prims::zeros(rt, dtype_from_python(dtype), shape_arg(shape));
  });
  p.def("ones", [](const Runtime& rt, nb::handle shape, nb::handle dtype) {
    return prims::ones(rt, dtype_from_python(dtype), shape_arg(shape));
  });
  p.def("full", [](const Runtime& rt, nb::handle shape, nb::handle value, nb::handle dtype) {
    std::optional<prims::Scalar> v = as_scalar(value);
    if (!v) throw_validation("full", "fill value must be a number");
    return prims::full(rt, dtype_from_python(dtype), shape_arg(shape), *v);
  });
  p.def("eye",
        [](const Runtime& rt, std::int64_t n, std::optional<std::int64_t> mcols, std::int64_t k,
           nb::handle dtype) { return prims::eye(rt, dtype_from_python(dtype), n, mcols, k); });
  p.def("arange", [](const Runtime& rt, double start, double stop, double step, nb::handle dtype) {
    return prims::arange(rt, dtype_from_python(dtype), start, stop, step);
  });
  p.def("random_uniform", [](const Runtime& rt, nb::handle shape, std::uint64_t seed, double low,
                             double high, nb::handle dtype) {
    return prims::random_uniform(rt, dtype_from_python(dtype), shape_arg(shape), seed, low, high);
  });
  p.def("random_normal", [](const Runtime& rt, nb::handle shape, std::uint64_t seed, double mean,
                            double stddev, nb::handle dtype) {
    return prims::random_normal(rt, dtype_from_python(dtype), shape_arg(shape), seed, mean, stddev);
  });
}

}  // namespace tenferro::python
