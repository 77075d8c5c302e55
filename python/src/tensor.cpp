// tenferro.Tensor: an EagerTensor with NumPy's surface (logical C-order shapes, NumPy dtype
// objects, views, operators) and no implicit transfer (download() is the only way out of a
// device; __array__ works zero-copy for host tensors only).
#include <nanobind/stl/optional.h>
#include <nanobind/stl/shared_ptr.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <cmath>
#include <string>

#include "ad_bridge.hpp"
#include "args.hpp"
#include "bindings.hpp"
#include "convert.hpp"
#include "dlpack.hpp"
#include "memory_order.hpp"
#include "operands.hpp"
#include "tenferro/prims.hpp"
#include "tenferro/runtime/runtime.hpp"
#include "views.hpp"

namespace tenferro::python {

namespace {

nb::tuple shape_tuple(const EagerTensor& t) {
  nb::list out;
  for (std::int64_t d : t.shape()) out.append(d);
  return nb::tuple(out);
}

std::string tensor_repr(const EagerTensor& t) {
  std::string shape = "(";
  for (std::size_t i = 0; i < t.shape().size(); ++i) {
    shape += std::to_string(t.shape()[i]);
    if (i + 1 < t.shape().size() || t.shape().size() == 1) shape += ",";
    if (i + 1 < t.shape().size()) shape += " ";
  }
  shape += ")";
  return "tenferro.Tensor(shape=" + shape +
         ", dtype=" + nb::cast<std::string>(nb::str(numpy_dtype(t.dtype()))) +
         ", placement=" + t.placement().to_string() + ")";
}

nb::object array_protocol(const EagerTensor& t, nb::handle dtype, std::optional<bool> copy) {
  nb::object arr = numpy_view(t);  // HostAccess for device tensors: no implicit download
  if (!dtype.is_none()) {
    // NumPy 2's contract: copy=False never copies, and says so when it would have to.
    if (copy == false &&
        !arr.attr("dtype").equal(nb::module_::import_("numpy").attr("dtype")(dtype)))
      throw nb::value_error(
          "Unable to avoid copy while creating an array as requested: the tensor's dtype is not "
          "the one asked for");
    arr = arr.attr("astype")(dtype, nb::arg("copy") = false);
  }
  if (copy.value_or(false)) arr = arr.attr("copy")();
  return arr;
}

// The one value of a 0-d or 1-element host tensor (float(t), complex(t), t.item()).
prims::Scalar host_scalar(const EagerTensor& t, const char* op) {
  if (t.numel() != 1) {
    throw_validation(op, "only tensors with one element convert to Python scalars");
  }
  const Tensor host = t.host_view();  // HostAccess for device tensors
  return visit_dtype(host.dtype(), [&](auto zero) -> prims::Scalar {
    using T = decltype(zero);
    return prims::Scalar(*reinterpret_cast<const T*>(host.raw_data()));
  });
}

// A Python complex. Built by hand: nb::cast of std::complex<double> needs nanobind's complex
// caster, which no file of the module includes (without it the cast threw std::bad_cast).
nb::object py_complex(const prims::Scalar& v) {
  return nb::steal(PyComplex_FromDoubles(v.real(), v.imag()));
}

// float(t) and int(t): a complex value has no real conversion (Python refuses float(1j));
// taking the real part silently would drop the imaginary one.
double real_scalar(const EagerTensor& t, const char* op) {
  if (is_complex(t.dtype())) {
    throw_validation(op,
                     "cannot convert a complex tensor to a real Python number; take "
                     ".real, abs() or complex() explicitly");
  }
  return host_scalar(t, op).real();
}

using Reduction = EagerTensor (*)(const EagerTensor&, std::optional<prims::Axes>, bool);

// Results are built straight in the Tensor type (tensor_object: nb::cast's type lookup was a
// fifth of a short -x).
template <Reduction R>
TensorObject reduce(const EagerTensor& t, nb::handle axis, bool keepdims) {
  std::optional<prims::Axes> axes = axes_arg(axis, t.rank(), "reduce");
  return tensor_object(released([&] { return R(t, axes, keepdims); }));
}

// An operator of a Tensor and a Tracer returns NotImplemented, so that Python calls the
// Tracer's reflected operator, which records on the tape.
template <BinaryOp Op, bool Reflected>
nb::object arith(const EagerTensor& a, nb::handle b) {
  if (is_tracer(b)) return nb::borrow(Py_NotImplemented);
  return tensor_object(binary(a, b, Op, Reflected));
}

template <EagerTensor (*F)(const EagerTensor&)>
TensorObject unary(const EagerTensor& t) {
  return tensor_object(released_unless_short(short_on_host(t), [&] { return F(t); }));
}

PyTypeObject* g_tensor_type = nullptr;  // tenferro.Tensor, once bound

// tenferro.add, subtract, multiply, divide, power, floor_divide, remainder: Python's own operator
// on the operands (a Tensor's, a Tracer's, a number's) once host data is refused: bound to
// operator.add, tf.add of two ndarrays was NumPy's computation handed back as an ndarray under
// tenferro's name. A Tensor first operand runs its operator directly (no Python frame, no slot
// lookup).
template <BinaryOp Op, PyObject* (*Slot)(PyObject*, PyObject*)>
nb::object namespace_binary(nb::handle a, nb::handle b) {
  const char* name = binary_op_name(Op);
  if (is_tensor(a)) {
    nb::object r = arith<Op, false>(tensor_of(a), b);
    if (r.ptr() != Py_NotImplemented) return r;
  } else {
    refuse_host_operand(a, name, 0);
  }
  if (!is_tensor(b)) refuse_host_operand(b, name, 1);
  PyObject* r = Slot(a.ptr(), b.ptr());
  if (r == nullptr) throw nb::python_error();
  return nb::steal(r);
}

PyObject* power_slot(PyObject* a, PyObject* b) {
  return PyNumber_Power(a, b, Py_None);
}

// +t, t.copy(), copy.copy and copy.deepcopy (quimb's tn.copy(deep=True)): a new tensor in t's
// runtime, as NumPy's and torch's give (a tensor holds no Python objects to copy deeper).
EagerTensor copy_of(const EagerTensor& t) {
  return released([&] { return prims::cast(t, t.dtype()); });
}

nb::object namespace_negative(nb::handle x) {
  if (is_tensor(x)) return unary<prims::neg>(tensor_of(x));
  refuse_host_operand(x, "negative", 0);
  PyObject* r = PyNumber_Negative(x.ptr());
  if (r == nullptr) throw nb::python_error();
  return nb::steal(r);
}

// tenferro.maximum, minimum, arctan2, hypot, fmod, copysign: two Tensors run the prim with no
// Python frame (a Python wrapper's frame and type checks were 60-100 ns of a 2^10-element call,
// a seventh of it); anything else (numbers, Tracers, host data to refuse) goes through
// tenferro._namespace._lifted, which lifts numbers as the operators type them and calls the
// prim's binding (where a Tracer records).
template <EagerTensor (*F)(const EagerTensor&, const EagerTensor&)>
nb::object namespace_lifted(const char* name, nb::handle a, nb::handle b) {
  if (is_tensor(a) && is_tensor(b)) {
    const EagerTensor& x = tensor_of(a);
    const EagerTensor& y = tensor_of(b);
    return tensor_object(released_unless_short(short_on_host(x, y), [&] { return F(x, y); }));
  }
  // Looked up per call, not held: a static reference to the function would keep its module, and
  // the runtimes it holds, alive past the interpreter's teardown (nanobind reports leaks).
  return nb::module_::import_("tenferro._namespace").attr("_lifted")(name, a, b);
}

}  // namespace

TensorObject tensor_object(EagerTensor&& t) {
  nb::object o = nb::inst_alloc(nb::handle(reinterpret_cast<PyObject*>(g_tensor_type)));
  new (nb::inst_ptr<EagerTensor>(o)) EagerTensor(std::move(t));
  nb::inst_mark_ready(o);
  return nb::steal<TensorObject>(o.release());
}

bool is_tensor(nb::handle h) noexcept {
  // Ready: an instance made by Tensor.__new__ alone, or by a subclass that never initialised
  // it, holds no EagerTensor (nanobind's own casts refuse it too).
  return (Py_TYPE(h.ptr()) == g_tensor_type || nb::isinstance<EagerTensor>(h)) && nb::inst_ready(h);
}

void bind_tensor(nb::module_& m) {
  using BO = BinaryOp;
  m.def("add", &namespace_binary<BO::Add, PyNumber_Add>);
  m.def("subtract", &namespace_binary<BO::Sub, PyNumber_Subtract>);
  m.def("multiply", &namespace_binary<BO::Mul, PyNumber_Multiply>);
  m.def("divide", &namespace_binary<BO::Div, PyNumber_TrueDivide>);
  m.def("power", &namespace_binary<BO::Pow, power_slot>);
  m.def("floor_divide", &namespace_binary<BO::FloorDiv, PyNumber_FloorDivide>);
  m.def("remainder", &namespace_binary<BO::Mod, PyNumber_Remainder>);
  m.def("negative", &namespace_negative);
#define TENFERRO_PY_LIFTED(name, prim, doc)                                                \
  m.def(                                                                                   \
      name, [](nb::handle a, nb::handle b) { return namespace_lifted<prim>(name, a, b); }, \
      nb::arg("x1"), nb::arg("x2"), doc);
  TENFERRO_PY_LIFTED("maximum", prims::maximum, "numpy.maximum (NaN propagates).")
  TENFERRO_PY_LIFTED("minimum", prims::minimum, "numpy.minimum (NaN propagates).")
  TENFERRO_PY_LIFTED("arctan2", prims::atan2,
                     "numpy.arctan2: the angle of the point (x2, x1), C's atan2 (signed zeros and "
                     "infinities included).")
  TENFERRO_PY_LIFTED("hypot", prims::hypot,
                     "numpy.hypot: sqrt(x1^2 + x2^2) without overflow or underflow in between.")
  TENFERRO_PY_LIFTED("fmod", prims::fmod,
                     "numpy.fmod: C's fmod, the remainder of x1 / x2 with x1's sign (remainder, "
                     "Python's %, takes x2's).")
  TENFERRO_PY_LIFTED("copysign", prims::copysign,
                     "numpy.copysign: |x1| with the sign bit of x2 (-0.0 and NaN signs included).")
#undef TENFERRO_PY_LIFTED
  nb::class_<EagerTensor> cls(
      m, "Tensor",
      "A tensor living in one tenferro.Runtime (logical C-order shape, as "
      "NumPy). Move data only with runtime.upload() and tensor.download().");
  g_tensor_type = reinterpret_cast<PyTypeObject*>(cls.ptr());
  cls.def_prop_ro("shape", &shape_tuple)
      .def_prop_ro("ndim", [](const EagerTensor& t) { return t.rank(); })
      .def_prop_ro("size", [](const EagerTensor& t) { return t.numel(); })
      .def_prop_ro("dtype", [](const EagerTensor& t) { return numpy_dtype(t.dtype()); })
      .def_prop_ro("runtime", [](const EagerTensor& t) { return t.runtime(); })
      .def_prop_ro("placement", [](const EagerTensor& t) { return t.placement().to_string(); })
      .def_prop_ro("device", [](const EagerTensor& t) { return device_name(t.placement()); })
      .def_prop_ro(
          "strides",
          [](const EagerTensor& t) {
            nb::list out;
            for (std::int64_t s : t.strides()) out.append(s * dtype_size(t.dtype()));
            return nb::tuple(out);
          },
          "Byte strides, as NumPy's.")
      .def("__repr__", &tensor_repr)
      .def("__len__",
           [](const EagerTensor& t) {
             if (t.rank() == 0) throw nb::type_error("len() of a 0-d tensor");
             return t.shape()[0];
           })
      .def(
          "download",
          [](const EagerTensor& t) {
            check_numpy_rank(t.rank(), "download");
            Tensor host = released([&] { return download_keeping_order(t); });
            return numpy_of_host(host);
          },
          "An explicit copy to host memory as a numpy.ndarray (counted in runtime.stats()).")
      .def("__array__", &array_protocol, nb::arg("dtype").none() = nb::none(),
           nb::arg("copy").none() = nb::none(),
           "Zero-copy NumPy view of a host tensor; HostAccessError for device tensors (call "
           "download()).")
      .def("__dlpack__", &dlpack_capsule, nb::kw_only(), nb::arg("stream").none() = nb::none(),
           nb::arg("max_version").none() = nb::none(), nb::arg("dl_device").none() = nb::none(),
           nb::arg("copy").none() = nb::none())
      .def("__dlpack_device__", &dlpack_device)
      .def("item",
           [](const EagerTensor& t) -> nb::object {
             const prims::Scalar v = host_scalar(t, "item");
             if (is_complex(t.dtype())) return py_complex(v);
             return nb::float_(v.real());
           })
      .def("__float__", [](const EagerTensor& t) { return real_scalar(t, "float"); })
      .def("__complex__",
           [](const EagerTensor& t) { return py_complex(host_scalar(t, "complex")); })
      .def("__bool__", [](const EagerTensor& t) { return host_scalar(t, "bool") != 0.0; })
      // Views (no kernel, no copy).
      .def_prop_ro("T", [](const EagerTensor& t) { return transpose_axes(t, {}); })
      .def_prop_ro("mT", &matrix_transpose)
      .def(
          "transpose",
          [](const EagerTensor& t, nb::args axes) {
            return transpose_axes(t, permutation_arg(axes, t.rank(), "transpose"));
          },
          "NumPy's transpose: a view with permuted axes (reversed when none are given).")
      .def(
          "reshape",
          [](const EagerTensor& t, nb::args shape) {
            Shape s = spread_int_args(shape, "reshape", "shape entry");
            return released([&] { return reshape_c(t, s); });
          },
          "C-order (row-major) reshape, as NumPy: a view when the strides allow, else a copy "
          "made inside the runtime.")
      .def("__getitem__", &index, nb::arg("key").none())
      .def("__iter__",
           [](const EagerTensor& t) {
             // Views along the first axis, as NumPy (without this, Python would iterate
             // through __getitem__ until an IndexError that tenferro reports as a
             // ValidationError).
             if (t.rank() == 0) throw nb::type_error("iteration over a 0-d tensor");
             nb::list rows;
             for (std::int64_t i = 0; i < t.shape()[0]; ++i) rows.append(index(t, nb::int_(i)));
             return rows.attr("__iter__")();
           })
      .def(
          "__array_namespace__",
          [](const EagerTensor&, nb::handle) { return nb::module_::import_("tenferro"); },
          nb::arg("api_version").none() = nb::none())
      // Element-wise.
      .def("conj", &unary<prims::conj>)
      .def("conjugate", &unary<prims::conj>)
      .def_prop_ro("real", &unary<prims::real>)
      .def_prop_ro("imag", &unary<prims::imag>)
      .def("__neg__", &unary<prims::neg>)
      // +t and astype(t.dtype) are new tensors, as NumPy's (a from_dlpack tensor's memory is the
      // exporter's, which may still write it).
      .def("__pos__", &copy_of)
      .def("__abs__", &unary<prims::abs>)
      .def(
          "astype",
          [](const EagerTensor& t, nb::handle dtype, bool copy) {
            const DType d = dtype_from_python(dtype);
            return released([&] { return d == t.dtype() && !copy ? t : prims::cast(t, d); });
          },
          nb::arg("dtype"), nb::arg("copy") = true)
      .def("copy", &copy_of)
      .def("__copy__", &copy_of)
      .def(
          "__deepcopy__", [](const EagerTensor& t, nb::handle) { return copy_of(t); },
          nb::arg("memo"))
      // pickle: refused, with Python's TypeError for an object that cannot be pickled (what
      // pickle's callers catch to fall back) and what to do instead. Loading would have to pick
      // a runtime (and a device tensor would be downloaded): the caller does both, explicitly.
      .def(
          "__reduce_ex__",
          [](const EagerTensor&, int) -> nb::object {
            throw nb::type_error(
                "cannot pickle 'Tensor' object: its memory belongs to a runtime, which "
                "unpickling would have to choose; pickle t.download() (a NumPy array) and "
                "upload it into the runtime you want");
          },
          nb::arg("protocol"))
      .def("__add__", &arith<BO::Add, false>)
      .def("__radd__", &arith<BO::Add, true>)
      .def("__sub__", &arith<BO::Sub, false>)
      .def("__rsub__", &arith<BO::Sub, true>)
      .def("__mul__", &arith<BO::Mul, false>)
      .def("__rmul__", &arith<BO::Mul, true>)
      .def("__truediv__", &arith<BO::Div, false>)
      .def("__rtruediv__", &arith<BO::Div, true>)
      .def("__pow__", &arith<BO::Pow, false>)
      .def("__rpow__", &arith<BO::Pow, true>)
      .def("__floordiv__", &arith<BO::FloorDiv, false>)
      .def("__rfloordiv__", &arith<BO::FloorDiv, true>)
      .def("__mod__", &arith<BO::Mod, false>)
      .def("__rmod__", &arith<BO::Mod, true>)
      .def("__divmod__",
           [](const EagerTensor& a, nb::handle b) -> nb::object {
             if (is_tracer(b)) return nb::borrow(Py_NotImplemented);
             return nb::make_tuple(arith<BO::FloorDiv, false>(a, b), arith<BO::Mod, false>(a, b));
           })
      .def("__rdivmod__",
           [](const EagerTensor& a, nb::handle b) -> nb::object {
             if (is_tracer(b)) return nb::borrow(Py_NotImplemented);
             return nb::make_tuple(arith<BO::FloorDiv, true>(a, b), arith<BO::Mod, true>(a, b));
           })
      .def("__matmul__",
           [](const EagerTensor& a, nb::handle b) -> nb::object {
             if (is_tracer(b)) return nb::borrow(Py_NotImplemented);
             return nb::cast(matmul(a, as_tensor(b, "matmul", 1)));
           })
      .def("__rmatmul__",
           [](const EagerTensor& a, nb::handle b) -> nb::object {
             if (is_tracer(b)) return nb::borrow(Py_NotImplemented);
             return nb::cast(matmul(as_tensor(b, "matmul", 0), a));
           })
      // Comparisons: 0.0/1.0 tensors (no boolean dtype), == and != too (NumPy's and PyTorch's
      // meaning: `where(x != 0, 1 / x, 0)` must mask, not see Python's identity test's True);
      // hashing stays by identity (below), as PyTorch's tensors.
      .def(
          "__eq__", [](const EagerTensor& a, nb::handle b) { return equality(a, b, true); },
          nb::arg("other").none())
      .def(
          "__ne__", [](const EagerTensor& a, nb::handle b) { return equality(a, b, false); },
          nb::arg("other").none())
      .def("__gt__",
           [](const EagerTensor& a, nb::handle b) { return compare(a, b, Compare::Greater); })
      .def("__ge__",
           [](const EagerTensor& a, nb::handle b) { return compare(a, b, Compare::GreaterEqual); })
      .def("__lt__",
           [](const EagerTensor& a, nb::handle b) { return compare(a, b, Compare::Less); })
      .def("__le__",
           [](const EagerTensor& a, nb::handle b) { return compare(a, b, Compare::LessEqual); })
      .def("__int__",
           [](const EagerTensor& t) {
             // Python's own int(float): exact for every finite value (int(1e300) is a big
             // int); NaN and inf have no integer, as in Python, but as typed errors.
             const double v = real_scalar(t, "int");
             if (std::isnan(v)) throw_validation("int", "cannot convert NaN to an integer");
             if (std::isinf(v)) {
               throw Error(ErrorKind::Numerical, ErrorPhase::Input, "int",
                           "cannot convert infinity to an integer");
             }
             return nb::steal(PyLong_FromDouble(v));
           })
      // Reductions (axis: None, an int or a tuple; NumPy's keepdims).
      .def("sum", &reduce<prims::sum>, nb::arg("axis").none() = nb::none(),
           nb::arg("keepdims") = false)
      .def("mean", &reduce<prims::mean>, nb::arg("axis").none() = nb::none(),
           nb::arg("keepdims") = false)
      .def("prod", &reduce<prims::prod>, nb::arg("axis").none() = nb::none(),
           nb::arg("keepdims") = false)
      .def("max", &reduce<prims::max>, nb::arg("axis").none() = nb::none(),
           nb::arg("keepdims") = false)
      .def("min", &reduce<prims::min>, nb::arg("axis").none() = nb::none(),
           nb::arg("keepdims") = false);
  // NumPy defers mixed arithmetic to us (then refused with a typed error), instead of turning
  // the tensor into an ndarray behind the caller's back.
  cls.attr("__hash__") = nb::module_::import_("builtins").attr("object").attr("__hash__");
  cls.attr("__array_ufunc__") = nb::none();
  cls.attr("__array_priority__") = 1000;
}

}  // namespace tenferro::python
