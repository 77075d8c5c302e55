#include <nanobind/stl/string.h>

#include "operands.hpp"

#include <algorithm>
#include <complex>
#include <string>
#include <vector>

#include "ad_bridge.hpp"
#include "args.hpp"
#include "bindings.hpp"
#include "convert.hpp"
#include "ops/einsum/broadcast_axes.hpp"
#include "ops/prims/resolve.hpp"
#include "tenferro/einsum.hpp"
#include "tenferro/runtime/errors.hpp"
#include "tenferro/runtime/runtime.hpp"
#include "views.hpp"

namespace tenferro::python {

std::optional<prims::Scalar> as_scalar(nb::handle obj) {
  if (is_tensor(obj)) return std::nullopt;
  PyObject* p = obj.ptr();
  static nb::object* numpy_generic =
      new nb::object(nb::module_::import_("numpy").attr("generic"));  // leaked on purpose
  // NumPy scalars (numpy.float32, numpy.int64, ...) count; 0-d arrays are arrays.
  const bool number = PyBool_Check(p) || PyLong_Check(p) || PyFloat_Check(p) ||
                      PyComplex_Check(p) || nb::isinstance(obj, *numpy_generic);
  if (!number) return std::nullopt;
  Py_complex c = PyComplex_AsCComplex(p);
  if (c.real == -1.0 && PyErr_Occurred()) {
    // An int past float64's range (t + 10**400) is Python's OverflowError, as in NumPy, not
    // "not a number".
    if (PyErr_ExceptionMatches(PyExc_OverflowError)) throw nb::python_error();
    PyErr_Clear();
    return std::nullopt;
  }
  return prims::Scalar(c.real, c.imag);
}

std::optional<DType> numpy_scalar_dtype(nb::handle obj) {
  PyObject* p = obj.ptr();
  // Python's own numbers, tensors and NumPy's bool are weak (they take the tensor's dtype).
  if (PyFloat_CheckExact(p) || PyLong_CheckExact(p) || PyComplex_CheckExact(p) || is_tensor(obj) ||
      PyBool_Check(p)) {
    return std::nullopt;
  }
  static nb::object* numpy_generic =
      new nb::object(nb::module_::import_("numpy").attr("generic"));  // leaked on purpose
  if (!nb::isinstance(obj, *numpy_generic)) return std::nullopt;
  const nb::object dtype = obj.attr("dtype");
  const std::string kind = nb::cast<std::string>(dtype.attr("kind"));
  const auto size = nb::cast<std::int64_t>(dtype.attr("itemsize"));
  // float16 promotes as float32 would (to float32 with float32, float64 with float64); the
  // integers as NumPy's do with a float tensor: 8- and 16-bit ones fit float32, wider ones
  // widen it to float64.
  if (kind == "f") return size <= 4 ? DType::F32 : DType::F64;
  if (kind == "c") return size <= 8 ? DType::C32 : DType::C64;
  if (kind == "i" || kind == "u") return size <= 2 ? DType::F32 : DType::F64;
  return std::nullopt;  // np.bool_ (weak), and kinds as_scalar refuses
}

std::optional<EagerTensor> strong_scalar_tensor(nb::handle obj, const EagerTensor& like) {
  const std::optional<DType> d = numpy_scalar_dtype(obj);
  if (!d || prims_internal::promote(like.dtype(), *d) == like.dtype()) return std::nullopt;
  const std::optional<prims::Scalar> v = as_scalar(obj);
  if (!v) return std::nullopt;
  try {
    return released([&] { return prims::full(like.runtime(), *d, {}, *v); });
  } catch (const Error& e) {
    if (e.kind() != ErrorKind::Unsupported) throw;
    // The refusal names `full`, which the caller never wrote: say why a tensor of that dtype
    // was needed and what keeps the operand's dtype.
    const auto numpy_name = [](DType t) { return nb::cast<std::string>(nb::str(numpy_dtype(t))); };
    throw_error(ErrorKind::Unsupported, ErrorPhase::Input, "scalar operand",
                "a NumPy " + nb::cast<std::string>(obj.type().attr("__name__")) +
                    " scalar makes the result " + numpy_name(*d) +
                    " (NEP 50), which this runtime cannot hold (" + e.what() +
                    "); pass a Python number, which keeps the tensor's " +
                    numpy_name(like.dtype()) + ", or a NumPy scalar of that dtype");
  }
}

std::optional<EagerTensor> scalar_operand_tensor(nb::handle obj, const EagerTensor& like,
                                                 bool complex_as_tensor) {
  if (std::optional<EagerTensor> t = strong_scalar_tensor(obj, like)) return t;
  if (complex_as_tensor && is_complex_scalar(obj)) return complex_scalar_tensor(obj, like);
  return std::nullopt;
}

bool is_complex_scalar(nb::handle obj) {
  PyObject* p = obj.ptr();
  if (PyComplex_Check(p)) return true;
  // A tensor operand (every tensor-tensor operator call) or a real number: no isinstance walk.
  if (is_tensor(obj) || PyFloat_Check(p) || PyLong_Check(p)) return false;
  static nb::object* numpy_complex =
      new nb::object(nb::module_::import_("numpy").attr("complexfloating"));  // leaked on purpose
  return nb::isinstance(obj, *numpy_complex);
}

EagerTensor complex_scalar_tensor(nb::handle obj, const EagerTensor& like) {
  const prims::Scalar v = *as_scalar(obj);
  return released([&] { return prims::full(like.runtime(), complex_dtype(like.dtype()), {}, v); });
}

void refuse_host_operand(nb::handle obj, const char* op, int operand) {
  PyObject* p = obj.ptr();
  // Numbers and Tracers first, without the attribute lookups below (a Tracer's failed
  // hasattr calls were a sixth of a traced tf.add).
  if (PyFloat_Check(p) || PyLong_Check(p) || PyComplex_Check(p) || is_tracer(obj)) return;
  static nb::object* numpy_generic =
      new nb::object(nb::module_::import_("numpy").attr("generic"));  // leaked on purpose
  // A NumPy scalar has __array_interface__ too, but it is a number (NEP 50 types it).
  if (nb::isinstance(obj, *numpy_generic)) return;
  const bool sequence = PyList_Check(p) || PyTuple_Check(p);
  if (!sequence && !PyObject_CheckBuffer(p) && !nb::hasattr(obj, "__dlpack__") &&
      !nb::hasattr(obj, "__array_interface__") && !nb::hasattr(obj, "__array__")) {
    return;
  }
  const std::string type = nb::cast<std::string>(nb::str(nb::handle(Py_TYPE(p))));
  throw Error(ErrorKind::NoInputIngress, ErrorPhase::Input, op,
              "operand " + std::to_string(operand) + " is a " + type +
                  ", data outside any tenferro runtime; tenferro never uploads on its own: "
                  "call runtime.upload(x) (a copy)" +
                  (sequence ? std::string(" first")
                            : std::string(" or tenferro.from_dlpack(x, runtime=rt) (zero copy on "
                                          "the CPU) first")));
}

const EagerTensor& as_tensor(nb::handle obj, const char* op, int operand) {
  if (is_tensor(obj)) return tensor_of(obj);
  refuse_host_operand(obj, op, operand);
  throw_argument_type_error(op, "operand " + std::to_string(operand) +
                                    " must be a tenferro.Tensor, got " + python_type_name(obj));
}

const char* binary_op_name(BinaryOp op) {
  static const char* names[] = {"add",   "subtract",     "multiply", "divide",
                                "power", "floor_divide", "remainder"};
  return names[static_cast<int>(op)];
}

namespace {

// `lhs op rhs` of two tensors (broadcast and promoted by the prims).
EagerTensor tensor_binary(const EagerTensor& lhs, const EagerTensor& rhs, BinaryOp op) {
  return released_unless_short(short_on_host(lhs, rhs), [&]() -> EagerTensor {
    switch (op) {
      case BinaryOp::Add:
        return prims::add(lhs, rhs);
      case BinaryOp::Sub:
        return prims::sub(lhs, rhs);
      case BinaryOp::Mul:
        return prims::mul(lhs, rhs);
      case BinaryOp::Div:
        return prims::div(lhs, rhs);
      case BinaryOp::FloorDiv:
        return prims::floor_div(lhs, rhs);
      case BinaryOp::Mod:
        return prims::mod(lhs, rhs);
      case BinaryOp::Pow:
        break;
    }
    return prims::pow(lhs, rhs);
  });
}

}  // namespace

EagerTensor binary(const EagerTensor& a, nb::handle b, BinaryOp op, bool reflected) {
  // A Tensor operand (every tensor-tensor operator) first: the scalar probes below cost a
  // tenth of a short `x + y` (four type checks each asking whether b is a Tensor).
  if (is_tensor(b)) {
    const EagerTensor& t = tensor_of(b);
    return reflected ? tensor_binary(t, a, op) : tensor_binary(a, t, op);
  }
  const char* name = binary_op_name(op);
  // A NumPy scalar whose dtype widens the tensor's is a 0-d tensor of that dtype (NEP 50:
  // float32 * np.float64 is float64); other NumPy and Python scalars take the tensor's dtype.
  // pow's scalar forms stay (pow is real-only; a complex exponent is refused as a 0-d tensor).
  const std::optional<EagerTensor> scalar_tensor = scalar_operand_tensor(b, a, op != BinaryOp::Pow);
  if (std::optional<prims::Scalar> s = scalar_tensor ? std::nullopt : as_scalar(b)) {
    const prims::Scalar v = *s;
    return released_unless_short(short_on_host(a), [&]() -> EagerTensor {
      switch (op) {
        case BinaryOp::Add:
          return prims::shift(a, v);
        case BinaryOp::Sub:
          return reflected ? prims::shift(prims::neg(a), v) : prims::shift(a, -v);
        case BinaryOp::Mul:
          return prims::scale(a, v);
        case BinaryOp::Div:
          // A real division by a 0-d tensor, never a product with 1 / v: x / 0 is +-inf or
          // NaN (1 / 0 as a complex Scalar would make a real x complex) and a tiny v does not
          // overflow its reciprocal.
          return reflected ? prims::div(v, a) : prims::div(a, v);
        case BinaryOp::FloorDiv:
        case BinaryOp::Mod: {
          const EagerTensor s0 = prims::full(a.runtime(), a.dtype(), {}, v);
          const EagerTensor& x = reflected ? s0 : a;
          const EagerTensor& y = reflected ? a : s0;
          return op == BinaryOp::Mod ? prims::mod(x, y) : prims::floor_div(x, y);
        }
        case BinaryOp::Pow:
          break;
      }
      if (!reflected && v == prims::Scalar(2.0)) return prims::square(a);
      if (!reflected && v == prims::Scalar(0.5)) return prims::sqrt(a);
      if (!reflected && v == prims::Scalar(1.0)) return prims::scale(a, 1.0);
      if (!reflected && v == prims::Scalar(-1.0)) return prims::reciprocal(a);
      const EagerTensor s0 = prims::full(a.runtime(), a.dtype(), {}, v);
      return reflected ? prims::pow(s0, a) : prims::pow(a, s0);
    });
  }
  const EagerTensor& t = scalar_tensor ? *scalar_tensor : as_tensor(b, name, reflected ? 0 : 1);
  return reflected ? tensor_binary(t, a, op) : tensor_binary(a, t, op);
}

EagerTensor compare(const EagerTensor& a, nb::handle b, Compare op) {
  // A traced operand compares by its value: a comparison is piecewise constant (its derivative
  // is zero), so the result is a plain 0.0/1.0 Tensor, a constant mask for tf.where inside f.
  if (is_tracer(b)) {
    const nb::object value = nb::cast(nb::cast<const ad::Variable&>(b).value());
    return compare(a, value, op);
  }
  // A scalar is a 0-d tensor of a's dtype (NumPy's weak scalars: x > 0.1 compares in x's
  // precision); a complex scalar makes the comparison complex.
  std::optional<EagerTensor> scalar = strong_scalar_tensor(b, a);
  if (std::optional<prims::Scalar> s = scalar ? std::nullopt : as_scalar(b)) {
    const DType d =
        s->imag() != 0.0 && !is_complex(a.dtype()) ? complex_dtype(a.dtype()) : a.dtype();
    scalar = released([&] { return prims::full(a.runtime(), d, {}, *s); });
  }
  const EagerTensor& rhs = scalar ? *scalar : as_tensor(b, "compare", 1);
  return released([&]() -> EagerTensor {
    switch (op) {
      case Compare::Greater:
        return prims::greater(a, rhs);
      case Compare::GreaterEqual:
        return prims::greater_equal(a, rhs);
      case Compare::Less:
        return prims::less(a, rhs);
      case Compare::LessEqual:
        return prims::less_equal(a, rhs);
      case Compare::Equal:
        return prims::equal(a, rhs);
      case Compare::NotEqual:
        break;
    }
    return prims::not_equal(a, rhs);
  });
}

nb::object equality(const EagerTensor& a, nb::handle b, bool equal) {
  // Host data (an ndarray, a list, anything exporting memory) is refused as every other
  // operator refuses it (compare's typed error): falling back to identity there would make
  // `x != ndarray` a silent True. Tensors and numbers are asked about first (the common call).
  const auto host_data = [](nb::handle h) {
    return PyList_Check(h.ptr()) || PyTuple_Check(h.ptr()) ||
           nb::hasattr(h, "__array_interface__") || nb::hasattr(h, "__dlpack__") ||
           nb::hasattr(h, "__array__");
  };
  if (!is_tensor(b) && !is_tracer(b) && !as_scalar(b) && !host_data(b))
    return nb::borrow(Py_NotImplemented);
  return tensor_object(compare(a, b, equal ? Compare::Equal : Compare::NotEqual));
}

namespace {

// a @ b for equal batch shapes, computed on the axis-reversed views: NumPy's C-order [..., m, k]
// is the library's column-major [k, m, ...] reversed, so C^R = B^R A^R is one batched GEMM in
// its natural order (trailing batch, compact output) and the result, reversed back, is
// C-ordered as NumPy's. Written in the library's order, a C-order batch would be contracted
// into a column-major [..., m, n] output whose matrices are strided, and then copied.
EagerTensor matmul_in_numpy_order(const EagerTensor& a, const EagerTensor& b) {
  const std::size_t batch = static_cast<std::size_t>(a.rank()) - 2;
  std::string batch_labels;
  for (std::size_t i = 0; i < batch; ++i) batch_labels += static_cast<char>('A' + i);
  const std::string rev(batch_labels.rbegin(), batch_labels.rend());
  // Reversed views: a^R is [k, m, batch reversed], b^R is [n, k, batch reversed].
  const auto reversed = reversed_axes(a.rank());
  const EagerTensor c =
      einsum("nk" + rev + ",km" + rev + "->nm" + rev, {b.permute(reversed), a.permute(reversed)});
  return c.permute(reversed);
}

}  // namespace

namespace {

template <class T, class Cast>
void promote_all(std::vector<T>& ops, Cast cast) {
  if (ops.empty()) return;
  DType common = ops[0].dtype();
  for (const T& x : ops) common = prims_internal::promote(common, x.dtype());
  for (T& x : ops)
    if (x.dtype() != common) x = released([&] { return cast(x, common); });
}

// `x` cast to `dtype`, a broadcast view (stride-0 axes) at its distinct elements and broadcast
// again: the cast of the view itself writes every repeated element (26.8 GiB for a
// (60000, 60000) view of one number), which the contraction, reading a broadcast operand at its
// distinct elements, does not need.
// The broadcast axes are the ones einsum reads once (einsum_internal::broadcast_axes).
EagerTensor cast_distinct(const EagerTensor& x, DType dtype) {
  const std::uint64_t broadcast = einsum_internal::broadcast_axes(x);
  if (broadcast == 0) return prims::cast(x, dtype);
  std::vector<prims::Slice> slices(static_cast<std::size_t>(x.rank()));
  for (std::size_t a = 0; a < slices.size() && a < einsum_internal::kBroadcastAxesLimit; ++a)
    if ((broadcast >> a) & 1) slices[a] = prims::Slice{0, 1, 1};
  return prims::broadcast_to(prims::cast(prims::slice(x, slices), dtype), x.shape());
}

}  // namespace

void promote_operands(std::vector<EagerTensor>& ops) {
  promote_all(ops, cast_distinct);
}

void promote_operands(std::vector<ad::Variable>& ops) {
  promote_all(ops, [](const ad::Variable& x, DType d) { return ad::cast(x, d); });
}

void require_matmul_operands(const Shape& a, const Shape& b) {
  if (a.empty() || b.empty()) {
    throw_validation("matmul", "operands must have at least one axis (use * for scalars)");
  }
  const std::int64_t k_a = a.back(), k_b = b.size() == 1 ? b[0] : b[b.size() - 2];
  if (k_a != k_b) {
    throw_validation("matmul", "the contracted axes differ: a's last axis has " +
                                   std::to_string(k_a) + ", b's " +
                                   (b.size() == 1 ? "only" : "second-to-last") + " axis has " +
                                   std::to_string(k_b) + " (shapes " + shape_to_string(a) +
                                   " and " + shape_to_string(b) + ")");
  }
}

EagerTensor matmul(const EagerTensor& a, const EagerTensor& b) {
  // The runtimes first, by the caller's operand order: the einsum below takes b before a, and
  // its refusal named b as argument 0.
  if (a.defined() && b.defined() && a.runtime() != b.runtime()) {
    throw ContextMismatchError("matmul", 1, a.runtime()->id(), b.runtime()->id());
  }
  require_matmul_operands(a.shape(), b.shape());
  if (a.dtype() != b.dtype()) {  // NumPy's promotion; one dtype needs no copy of the handles
    std::vector<EagerTensor> ab{a, b};
    promote_operands(ab);
    return matmul(ab[0], ab[1]);
  }
  if (a.rank() >= 2 && a.rank() == b.rank() && a.rank() <= 26 &&
      std::equal(a.shape().begin(), a.shape().end() - 2, b.shape().begin())) {
    return released([&] { return matmul_in_numpy_order(a, b); });
  }
  std::string spec;
  if (a.rank() == 1 && b.rank() == 1) {
    spec = "i,i->";
  } else if (a.rank() == 1) {
    spec = "j,...jk->...k";
  } else if (b.rank() == 1) {
    spec = "...ij,j->...i";
  } else {
    spec = "...ij,...jk->...ik";
  }
  return released([&] { return einsum(spec, {a, b}); });
}

}  // namespace tenferro::python
