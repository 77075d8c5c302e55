// tenferro.Tracer: the C++ ad::Variable as Python sees it inside a function that
// tenferro.grad / vjp / jvp differentiates. It has the Tensor surface that the namespace
// functions use (operators, reductions, views, shape and dtype), and every method calls the
// tenferro::ad op of the same name, which records on the tape. Views keep NumPy's logical
// C-order shapes exactly as Tensor's do (views.cpp).
#include <nanobind/stl/optional.h>
#include <nanobind/stl/shared_ptr.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <algorithm>
#include <string>
#include <vector>

#include "ad_bridge.hpp"
#include "ad_views.hpp"
#include "bindings.hpp"
#include "convert.hpp"
#include "operands.hpp"
#include "views.hpp"

namespace tenferro::python {

namespace {

PyTypeObject* tracer_type = nullptr;  // set once when the class is bound

nb::tuple shape_tuple(const ad::Variable& v) {
  nb::list out;
  for (std::int64_t d : v.shape()) out.append(d);
  return nb::tuple(out);
}

// a <op> b with a Python scalar, a Tensor (a constant) or a Tracer on the other side, in the
// same forms as the Tensor operators (operands.cpp) so traced and plain code compute alike.
ad::Variable arith(const ad::Variable& a, nb::handle b, BinaryOp op, bool reflected) {
  // A NumPy scalar that widens the dtype, or a complex number, is a 0-d tensor, as on Tensor
  // (operands.hpp's scalar_operand_tensor).
  const std::optional<EagerTensor> scalar_tensor =
      scalar_operand_tensor(b, a.value(), op != BinaryOp::Pow);
  if (std::optional<prims::Scalar> s = scalar_tensor ? std::nullopt : as_scalar(b)) {
    const prims::Scalar v = *s;
    return released([&]() -> ad::Variable {
      switch (op) {
        case BinaryOp::Add:
          return ad::shift(a, v);
        case BinaryOp::Sub:
          return reflected ? ad::shift(ad::neg(a), v) : ad::shift(a, -v);
        case BinaryOp::Mul:
          return ad::scale(a, v);
        case BinaryOp::Div:
          return reflected ? ad::div(v, a) : ad::div(a, v);  // real and IEEE, as on Tensor
        case BinaryOp::FloorDiv:
        case BinaryOp::Mod: {
          const ad::Variable s0(prims::full(a.value().runtime(), a.dtype(), {}, v));
          const ad::Variable& x = reflected ? s0 : a;
          const ad::Variable& y = reflected ? a : s0;
          return op == BinaryOp::Mod ? ad::mod(x, y) : ad::floor_div(x, y);
        }
        case BinaryOp::Pow:
          break;
      }
      if (!reflected && v == prims::Scalar(2.0)) return ad::square(a);
      if (!reflected && v == prims::Scalar(0.5)) return ad::sqrt(a);
      if (!reflected && v == prims::Scalar(1.0)) return ad::scale(a, 1.0);
      if (!reflected && v == prims::Scalar(-1.0)) return ad::reciprocal(a);
      const ad::Variable s0(prims::full(a.value().runtime(), a.dtype(), {}, v));
      return reflected ? ad::pow(s0, a) : ad::pow(a, s0);
    });
  }
  const ad::Variable t = scalar_tensor ? ad::Variable(*scalar_tensor)
                                       : as_variable(b, binary_op_name(op), reflected ? 0 : 1);
  const ad::Variable& lhs = reflected ? t : a;
  const ad::Variable& rhs = reflected ? a : t;
  return released([&]() -> ad::Variable {
    switch (op) {
      case BinaryOp::Add:
        return lhs + rhs;
      case BinaryOp::Sub:
        return lhs - rhs;
      case BinaryOp::Mul:
        return lhs * rhs;
      case BinaryOp::Div:
        return lhs / rhs;
      case BinaryOp::FloorDiv:
        return ad::floor_div(lhs, rhs);
      case BinaryOp::Mod:
        return ad::mod(lhs, rhs);
      case BinaryOp::Pow:
        break;
    }
    return ad::pow(lhs, rhs);
  });
}

template <BinaryOp Op, bool Reflected>
ad::Variable arith_op(const ad::Variable& a, nb::handle b) {
  return arith(a, b, Op, Reflected);
}

using Reduction = ad::Variable (*)(const ad::Variable&, std::optional<prims::Axes>, bool);

template <Reduction R>
ad::Variable reduce(const ad::Variable& x, nb::handle axis, bool keepdims) {
  std::optional<prims::Axes> axes = axes_arg(axis, x.rank(), "reduce");
  return released([&] { return R(x, axes, keepdims); });
}

// Comparisons compare the values (operands.cpp's compare): a plain 0.0/1.0 Tensor.
template <Compare C>
EagerTensor compare_values(const ad::Variable& a, nb::handle b) {
  return compare(a.value(), b, C);
}

template <ad::Variable (*F)(const ad::Variable&)>
ad::Variable unary(const ad::Variable& x) {
  return released([&] { return F(x); });
}

}  // namespace

bool is_tracer(nb::handle obj) {
  return tracer_type != nullptr && Py_TYPE(obj.ptr()) == tracer_type;
}

ad::Variable as_variable(nb::handle obj, const char* op, int operand) {
  if (is_tracer(obj)) return nb::cast<const ad::Variable&>(obj);
  return ad::Variable(as_tensor(obj, op, operand));  // a Tensor is a constant; else typed error
}

void bind_ad_variable(nb::module_& m) {
  using BO = BinaryOp;
  nb::class_<ad::Variable> cls(
      m, "Tracer",
      "A value traced by tenferro.grad / vjp / jvp (the C++ ad::Variable): the argument a "
      "differentiated function receives. tenferro's ops on it record on the tape; .value is "
      "the plain Tensor (not traced).");
  tracer_type = reinterpret_cast<PyTypeObject*>(cls.ptr());
  // A Tensor passed where a traced op expects a Tracer is a constant of the same runtime
  // (nanobind converts through this constructor).
  cls.def(nb::init_implicit<EagerTensor>())
      .def_prop_ro("shape", &shape_tuple)
      .def_prop_ro("ndim", [](const ad::Variable& v) { return v.rank(); })
      .def_prop_ro("size", [](const ad::Variable& v) { return v.value().numel(); })
      .def_prop_ro("dtype", [](const ad::Variable& v) { return numpy_dtype(v.dtype()); })
      .def_prop_ro("runtime", [](const ad::Variable& v) { return v.value().runtime(); })
      .def_prop_ro(
          "value", [](const ad::Variable& v) { return v.value(); },
          "The traced value as a plain Tensor (ops on it are not recorded).")
      .def_prop_ro("tracked", &ad::Variable::tracked)
      .def("__repr__",
           [](const ad::Variable& v) {
             return "tenferro.Tracer(shape=" + nb::cast<std::string>(nb::str(shape_tuple(v))) +
                    ", dtype=" + nb::cast<std::string>(nb::str(numpy_dtype(v.dtype()))) + ")";
           })
      .def("__len__",
           [](const ad::Variable& v) {
             if (v.rank() == 0) throw nb::type_error("len() of a 0-d tracer");
             return v.shape()[0];
           })
      // Views (recorded as the ad view ops: their cotangents flow back through them).
      .def_prop_ro("T", [](const ad::Variable& v) { return permute_v(v, reversed_axes(v.rank())); })
      .def_prop_ro("mT", &matrix_transpose_v)
      .def("transpose",
           [](const ad::Variable& v, nb::args axes) {
             const auto perm = permutation_arg(axes, v.rank(), "transpose");
             return permute_v(v, perm.empty() ? reversed_axes(v.rank()) : perm);
           })
      .def("reshape",
           [](const ad::Variable& v, nb::args shape) {
             Shape s = spread_int_args(shape, "reshape", "shape entry");
             return released([&] { return reshape_c_v(v, s); });
           })
      .def("__getitem__", &index_v, nb::arg("key").none())
      .def(
          "__array_namespace__",
          [](const ad::Variable&, nb::handle) { return nb::module_::import_("tenferro"); },
          nb::arg("api_version").none() = nb::none())
      // Element-wise.
      .def("conj", &unary<ad::conj>)
      .def("conjugate", &unary<ad::conj>)
      .def_prop_ro("real", &unary<ad::real>)
      .def_prop_ro("imag", &unary<ad::imag>)
      .def("__neg__", &unary<ad::neg>)
      .def("__pos__", [](const ad::Variable& v) { return v; })
      .def("__abs__", &unary<ad::abs>)
      .def("astype",
           [](const ad::Variable& v, nb::handle dtype) {
             const DType d = dtype_from_python(dtype);
             return released([&] { return d == v.dtype() ? v : ad::cast(v, d); });
           })
      .def("__add__", &arith_op<BO::Add, false>)
      .def("__radd__", &arith_op<BO::Add, true>)
      .def("__sub__", &arith_op<BO::Sub, false>)
      .def("__rsub__", &arith_op<BO::Sub, true>)
      .def("__mul__", &arith_op<BO::Mul, false>)
      .def("__rmul__", &arith_op<BO::Mul, true>)
      .def("__truediv__", &arith_op<BO::Div, false>)
      .def("__rtruediv__", &arith_op<BO::Div, true>)
      .def("__pow__", &arith_op<BO::Pow, false>)
      .def("__rpow__", &arith_op<BO::Pow, true>)
      .def("__floordiv__", &arith_op<BO::FloorDiv, false>)
      .def("__rfloordiv__", &arith_op<BO::FloorDiv, true>)
      .def("__mod__", &arith_op<BO::Mod, false>)
      .def("__rmod__", &arith_op<BO::Mod, true>)
      .def("__divmod__",
           [](const ad::Variable& a, nb::handle b) {
             return nb::make_tuple(arith(a, b, BO::FloorDiv, false), arith(a, b, BO::Mod, false));
           })
      .def("__rdivmod__",
           [](const ad::Variable& a, nb::handle b) {
             return nb::make_tuple(arith(a, b, BO::FloorDiv, true), arith(a, b, BO::Mod, true));
           })
      .def("__matmul__", [](const ad::Variable& a,
                            nb::handle b) { return matmul_v(a, as_variable(b, "matmul", 1)); })
      .def("__rmatmul__", [](const ad::Variable& a,
                             nb::handle b) { return matmul_v(as_variable(b, "matmul", 0), a); })
      .def(
          "__eq__",
          [](const ad::Variable& a, nb::handle b) { return equality(a.value(), b, true); },
          nb::arg("other").none())
      .def(
          "__ne__",
          [](const ad::Variable& a, nb::handle b) { return equality(a.value(), b, false); },
          nb::arg("other").none())
      .def("__gt__", &compare_values<Compare::Greater>)
      .def("__ge__", &compare_values<Compare::GreaterEqual>)
      .def("__lt__", &compare_values<Compare::Less>)
      .def("__le__", &compare_values<Compare::LessEqual>)
      .def("sum", &reduce<ad::sum>, nb::arg("axis").none() = nb::none(),
           nb::arg("keepdims") = false)
      .def("mean", &reduce<ad::mean>, nb::arg("axis").none() = nb::none(),
           nb::arg("keepdims") = false)
      .def("prod", &reduce<ad::prod>, nb::arg("axis").none() = nb::none(),
           nb::arg("keepdims") = false)
      .def("max", &reduce<ad::max>, nb::arg("axis").none() = nb::none(),
           nb::arg("keepdims") = false)
      .def("min", &reduce<ad::min>, nb::arg("axis").none() = nb::none(),
           nb::arg("keepdims") = false);
  // == compares values (above); hashing stays by identity.
  cls.attr("__hash__") = nb::module_::import_("builtins").attr("object").attr("__hash__");
  // NumPy defers mixed arithmetic to the Tracer (which refuses an ndarray with a typed error)
  // instead of building an object array around it.
  cls.attr("__array_ufunc__") = nb::none();
  cls.attr("__array_priority__") = 1000;
}

}  // namespace tenferro::python
