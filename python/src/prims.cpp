// tenferro._tenferro.prims: the prims family (element-wise, reductions, joins, creation) as
// plain functions; tenferro/_namespace.py gives them NumPy's names and signatures.
#include <cmath>

#include <nanobind/stl/optional.h>
#include <nanobind/stl/shared_ptr.h>
#include <nanobind/stl/vector.h>

#include <nanobind/stl/string.h>

#include "ad_bridge.hpp"
#include "args.hpp"
#include "bindings.hpp"
#include "convert.hpp"
#include "operands.hpp"
#include "ops/prims/prim_kind_enum.hpp"
#include "ops/prims/resolve.hpp"
#include "tenferro/prims.hpp"
#include "tenferro/runtime/runtime.hpp"
#include "views.hpp"

namespace tenferro::python {

namespace {

template <EagerTensor (*F)(const EagerTensor&)>
void def_unary(nb::module_& p, const char* name) {
  p.def(name, [](const EagerTensor& x) {
    return tensor_object(released_unless_short(short_on_host(x), [&] { return F(x); }));
  });
}

template <EagerTensor (*F)(const EagerTensor&, const EagerTensor&)>
void def_binary(nb::module_& p, const char* name) {
  p.def(name, [](const EagerTensor& a, const EagerTensor& b) {
    return tensor_object(released_unless_short(short_on_host(a, b), [&] { return F(a, b); }));
  });
}

// The element count of `shape` while it is at most kHoldGilUpTo, else kHoldGilUpTo + 1 (also for
// a negative extent, which the op refuses; no overflow on huge shapes).
std::int64_t elements_up_to_short(const Shape& shape) {
  std::int64_t n = 1;
  for (const std::int64_t e : shape) {
    if (e < 0 || e > kHoldGilUpTo) return kHoldGilUpTo + 1;
    n *= e;
    if (n > kHoldGilUpTo) return kHoldGilUpTo + 1;
  }
  return n;
}

// A creation's result, built straight as a Tensor: the op runs with the GIL held when it makes
// at most kHoldGilUpTo elements (a GIL round trip and nanobind's generic cast were two thirds of
// a 2^10-element zeros: 1.27 us against NumPy's 0.30), without it otherwise.
template <class F>
TensorObject created(std::int64_t elements, F&& make) {
  return tensor_object(released_unless_short(elements <= kHoldGilUpTo, std::forward<F>(make)));
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
// float64, as NumPy's result_type of two Python floats), complex when it has an imaginary
// part; a NumPy scalar that widens the other branch's dtype keeps its own (NEP 50). A Tracer
// branch records the select (ad::where); a traced condition is used by its value (a mask
// carries no gradient).
nb::object where(nb::handle cond, nb::handle x, nb::handle y) {
  const std::optional<EagerTensor> vc = value_of(cond), vx = value_of(x), vy = value_of(y);
  const std::optional<EagerTensor>& any = vx ? vx : vy ? vy : vc;
  if (!any) throw_validation("where", "at least one operand must be a tenferro Tensor");
  const EagerTensor* branch = vx ? &*vx : vy ? &*vy : nullptr;  // a tensor branch, if any
  // Both branches scalars: their NumPy dtypes promoted (np.float32 ones stay float32), else
  // float64 (Python's numbers).
  const auto scalar_base = [&] {
    const std::optional<DType> dx = numpy_scalar_dtype(x), dy = numpy_scalar_dtype(y);
    return dx && dy ? prims_internal::promote(*dx, *dy) : dx.value_or(dy.value_or(DType::F64));
  };
  const DType base = branch ? branch->dtype() : scalar_base();
  const auto operand = [&](nb::handle h, const std::optional<EagerTensor>& v, int i) {
    if (v) return *v;
    if (branch) {
      if (std::optional<EagerTensor> t = strong_scalar_tensor(h, *branch)) return *t;
    }
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
  // The element-wise math of the op list, one loop; `unary_ops` / `binary_ops` name them for
  // tenferro/_namespace.py, which exports them under these names.
  nb::list unary_ops, binary_ops;
#define TENFERRO_PY_UNARY(Kind, fn, python_name, dtypes) \
  def_unary<prims::fn>(p, python_name);                  \
  unary_ops.append(python_name);
#define TENFERRO_PY_BINARY(Kind, fn, python_name, dtypes) \
  def_binary<prims::fn>(p, python_name);                  \
  binary_ops.append(python_name);
  TENFERRO_PRIMS_UNARY_OPS(TENFERRO_PY_UNARY)
  TENFERRO_PRIMS_BINARY_OPS(TENFERRO_PY_BINARY)
#undef TENFERRO_PY_UNARY
#undef TENFERRO_PY_BINARY
  p.attr("unary_ops") = nb::tuple(unary_ops);
  p.attr("binary_ops") = nb::tuple(binary_ops);
  // The dtype a number brings to a promotion (NEP 50; None for a weak one), the operators' own
  // rule, for the package's functions that build a scalar operand themselves (clip, isclose).
  p.def(
      "_nep50_dtype",
      [](nb::handle v) -> nb::object {
        const std::optional<DType> d = numpy_scalar_dtype(v);
        return d ? numpy_dtype(*d) : nb::none();
      },
      nb::arg("value"));
  // The operators' rule of what is host data, for the package's own functions (reductions,
  // clip, maximum, ...): the NoInputIngressError, or nothing.
  p.def(
      "_refuse_host",
      [](nb::handle x, const char* op, int operand) { refuse_host_operand(x, op, operand); },
      nb::arg("x"), nb::arg("op"), nb::arg("operand"));
  def_unary<prims::contiguous>(p, "contiguous");
  p.def("ascontiguousarray",
        [](const EagerTensor& x) { return released([&] { return c_contiguous(x); }); });
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
        auto axes = axes_arg(axis, x.rank(), "norm");
        return released([&] { return prims::norm(x, axes, keepdims); });
      },
      nb::arg("x"), nb::arg("axis").none(), nb::arg("keepdims"));
  p.def(
      "flip",
      [](const EagerTensor& x, nb::handle axis) {
        auto axes = axes_arg(axis, x.rank(), "flip");
        return released([&] { return prims::flip(x, axes); });
      },
      nb::arg("x"), nb::arg("axis").none());
  // argmax/argmin along one axis (tenferro.argmax flattens for axis=None first).
  using ArgExtreme = EagerTensor (*)(const EagerTensor&, std::int64_t, bool);
  const std::pair<const char*, ArgExtreme> arg_extremes[] = {{"argmax", &prims::argmax},
                                                             {"argmin", &prims::argmin}};
  for (const auto& [op, op_fn] : arg_extremes) {
    p.def(
        op,
        [name = op, fn = op_fn](const EagerTensor& x, nb::handle axis, bool keepdims) {
          const std::int64_t a = normalize_axis(int_arg(axis, name, "axis"), x.rank(), name);
          return released([&] { return fn(x, a, keepdims); });
        },
        nb::arg("x"), nb::arg("axis"), nb::arg("keepdims"));
  }
  // cumsum and cumprod along one axis (tenferro.cumsum flattens for axis=None first).
  using Scan = EagerTensor (*)(const EagerTensor&, std::int64_t);
  const std::pair<const char*, Scan> scans[] = {{"cumsum", &prims::cumsum},
                                                {"cumprod", &prims::cumprod}};
  for (const auto& [op, op_fn] : scans) {
    p.def(
        op,
        [name = op, fn = op_fn](const EagerTensor& x, nb::handle axis) {
          const std::int64_t a = normalize_axis(int_arg(axis, name, "axis"), x.rank(), name);
          return released([&] { return fn(x, a); });
        },
        nb::arg("x"), nb::arg("axis"));
  }
  p.def("cast", [](const EagerTensor& x, nb::handle dtype) {
    const DType d = dtype_from_python(dtype);
    return released([&] { return prims::cast(x, d); });
  });
  p.def("diagonal", [](const EagerTensor& x, nb::handle offset, nb::handle a, nb::handle b) {
    return prims::diagonal(x, int_arg(offset, "diagonal", "offset"),
                           normalize_axis(int_arg(a, "diagonal", "axis1"), x.rank(), "diagonal"),
                           normalize_axis(int_arg(b, "diagonal", "axis2"), x.rank(), "diagonal"));
  });
  p.def("broadcast_to", [](const EagerTensor& x, nb::handle shape) {
    return prims::broadcast_to(x, shape_arg(shape, "broadcast_to"));
  });
  p.def("concatenate", [](nb::handle xs, nb::handle axis_arg) -> nb::object {
    const std::int64_t axis = int_arg(axis_arg, "concatenate", "axis");
    if (any_tracer(xs)) {
      auto v = variable_list(xs, "concatenate");
      return nb::cast(released([&] { return ad::concatenate(v, axis); }));
    }
    auto v = tensor_list(xs, "concatenate");
    return nb::cast(released([&] { return prims::concatenate(v, axis); }));
  });
  p.def("stack", [](nb::handle xs, nb::handle axis_arg) -> nb::object {
    const std::int64_t axis = int_arg(axis_arg, "stack", "axis");
    if (any_tracer(xs)) {
      auto v = variable_list(xs, "stack");
      return nb::cast(released([&] { return ad::stack(v, axis); }));
    }
    auto v = tensor_list(xs, "stack");
    return nb::cast(released([&] { return prims::stack(v, axis); }));
  });
  // Creation inside a runtime: arguments are converted with the GIL held, the fill runs
  // without it (a large fill must not starve other Python threads) unless it is short (see
  // created).
  p.def(
      "zeros",
      [](const Runtime& rt, nb::handle shape, nb::handle dtype) {
        const Shape s = shape_arg(shape, "zeros");
        const DType d = dtype_from_python(dtype);
        return created(elements_up_to_short(s), [&] { return prims::zeros(rt, d, s); });
      },
      nb::arg("runtime"), nb::arg("shape").none(), nb::arg("dtype").none());
  p.def(
      "ones",
      [](const Runtime& rt, nb::handle shape, nb::handle dtype) {
        const Shape s = shape_arg(shape, "ones");
        const DType d = dtype_from_python(dtype);
        return created(elements_up_to_short(s), [&] { return prims::ones(rt, d, s); });
      },
      nb::arg("runtime"), nb::arg("shape").none(), nb::arg("dtype").none());
  p.def(
      "full",
      [](const Runtime& rt, nb::handle shape, nb::handle value, nb::handle dtype) {
        std::optional<prims::Scalar> v = as_scalar(value);
        if (!v) throw_validation("full", "fill value must be a number");
        const Shape s = shape_arg(shape, "full");
        const DType d = dtype_from_python(dtype);
        return created(elements_up_to_short(s), [&] { return prims::full(rt, d, s, *v); });
      },
      nb::arg("runtime"), nb::arg("shape").none(), nb::arg("value").none(),
      nb::arg("dtype").none());
  p.def(
      "eye",
      [](const Runtime& rt, nb::handle n, nb::handle m, nb::handle k, nb::handle dtype) {
        const std::int64_t rows = int_arg(n, "eye", "N");
        std::optional<std::int64_t> cols;
        if (!m.is_none()) cols = int_arg(m, "eye", "M");
        const std::int64_t diag = int_arg(k, "eye", "k");
        const DType d = dtype_from_python(dtype);
        return released([&] { return prims::eye(rt, d, rows, cols, diag); });
      },
      nb::arg("runtime"), nb::arg("N").none(), nb::arg("M").none(), nb::arg("k").none(),
      nb::arg("dtype").none());
  p.def(
      "arange",
      [](const Runtime& rt, double start, double stop, double step, nb::handle dtype) {
        const DType d = dtype_from_python(dtype);
        // Only whether it is short matters here, so the length's estimate will do (prims::arange
        // counts it exactly).
        const double count = std::ceil((stop - start) / step);
        const bool short_range = count >= 0 && count <= static_cast<double>(kHoldGilUpTo);
        return created(short_range ? 0 : kHoldGilUpTo + 1,
                       [&] { return prims::arange(rt, d, start, stop, step); });
      },
      nb::arg("runtime"), nb::arg("start"), nb::arg("stop"), nb::arg("step"),
      nb::arg("dtype").none());
  p.def("random_uniform", [](const Runtime& rt, nb::handle shape, std::uint64_t seed, double low,
                             double high, nb::handle dtype) {
    const Shape s = shape_arg(shape, "random_uniform");
    const DType d = dtype_from_python(dtype);
    return released([&] { return prims::random_uniform(rt, d, s, seed, low, high); });
  });
  p.def("random_normal", [](const Runtime& rt, nb::handle shape, std::uint64_t seed, double mean,
                            double stddev, nb::handle dtype) {
    const Shape s = shape_arg(shape, "random_normal");
    const DType d = dtype_from_python(dtype);
    return released([&] { return prims::random_normal(rt, d, s, seed, mean, stddev); });
  });
}

}  // namespace tenferro::python
