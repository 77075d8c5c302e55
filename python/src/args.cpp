#include <nanobind/stl/string.h>

#include "args.hpp"

#include <algorithm>
#include <string>

#include "errors.hpp"
#include "tenferro/core/error.hpp"
#include "tenferro/runtime/eager_tensor.hpp"

namespace tenferro::python {

std::string python_type_name(nb::handle obj) {
  return nb::cast<std::string>(nb::str(nb::handle(Py_TYPE(obj.ptr()))));
}

namespace {

// The pending Python exception's text, cleared (it is replaced by a typed error).
std::string take_python_error() {
  nb::python_error e;  // fetches and clears the error indicator
  return nb::cast<std::string>(nb::str(e.value()));
}

[[noreturn]] void throw_as(const char* class_name, const char* op, const std::string& message) {
  set_python_error(Error(ErrorKind::Validation, ErrorPhase::Input, op, message), class_name);
  throw nb::python_error();
}

bool is_text(PyObject* p) {
  return PyUnicode_Check(p) || PyBytes_Check(p) || PyByteArray_Check(p);
}

// PyNumber_Index(p) as an int64, or nullopt with `why` set (the error indicator is cleared);
// `overflow` tells an integer too large for 64 bits from a value that is no integer.
std::optional<std::int64_t> try_index(PyObject* p, std::string& why, bool* overflow_out = nullptr) {
  PyObject* idx = PyNumber_Index(p);
  if (idx == nullptr) {
    why = take_python_error();
    return std::nullopt;
  }
  int overflow = 0;
  const long long v = PyLong_AsLongLongAndOverflow(idx, &overflow);
  Py_DECREF(idx);
  if (overflow != 0) {
    why = "it does not fit in 64 bits";
    if (overflow_out != nullptr) *overflow_out = true;
    return std::nullopt;
  }
  if (v == -1 && PyErr_Occurred()) {
    why = take_python_error();
    return std::nullopt;
  }
  return static_cast<std::int64_t>(v);
}

bool is_numpy_array(nb::handle obj) {
  static nb::object* ndarray =
      new nb::object(nb::module_::import_("numpy").attr("ndarray"));  // leaked on purpose
  return nb::isinstance(obj, *ndarray);
}

bool is_boolean(nb::handle obj) {
  static nb::object* bool_ =
      new nb::object(nb::module_::import_("numpy").attr("bool_"));  // leaked on purpose
  if (PyBool_Check(obj.ptr()) || nb::isinstance(obj, *bool_)) return true;
  return is_numpy_array(obj) && nb::cast<std::string>(obj.attr("dtype").attr("kind")) == "b";
}

}  // namespace

void check_numpy_rank(std::int64_t rank, const char* op) {
  if (rank > kMaxNumpyRank) {
    throw_validation(op, "the tensor has " + std::to_string(rank) +
                             " axes; NumPy arrays (and DLPack consumers) take at most " +
                             std::to_string(kMaxNumpyRank));
  }
}

void throw_axis_error(const char* op, std::int64_t axis, std::int64_t ndim) {
  throw_as("AxisError", op,
           "axis " + std::to_string(axis) + " is out of bounds for a tensor of dimension " +
               std::to_string(ndim));
}

void throw_indexing_error(const char* op, const std::string& message) {
  throw_as("IndexingError", op, message);
}

void throw_argument_type_error(const char* op, const std::string& message) {
  throw_as("ArgumentTypeError", op, message);
}

namespace {

// Why `obj` was refused: what try_index said, or else its type. Built only on the way to an
// error: the type's name is a Python call and a string (a third of a 2^10-element zeros call
// went to naming the type of every shape entry that was fine).
std::string refusal(nb::handle obj, const std::string& why) {
  return why.empty() ? "it is a " + python_type_name(obj) : why;
}

// An argument that is no integer where one is due: an ArgumentTypeError, which is a
// ValidationError and, as NumPy raises, a TypeError (`except TypeError` caught nothing of
// `tf.sum(x, axis=1.0)`: an adversarial sweep found it).
[[noreturn]] void throw_not_an_integer(nb::handle obj, const char* op, const std::string& message,
                                       const std::string& why) {
  throw_argument_type_error(op, message + " (" + refusal(obj, why) + ")");
}

// p as an int64 when it is an integer object; an integer beyond 64 bits is a value out of range
// (a ValidationError), not a wrong type; nullopt, with `why` set, for anything else.
std::optional<std::int64_t> integer_of(PyObject* p, const char* op, const char* what,
                                       std::string& why) {
  bool overflow = false;
  std::optional<std::int64_t> v = try_index(p, why, &overflow);
  if (overflow) throw_validation(op, std::string(what) + " must be an integer (" + why + ")");
  return v;
}

}  // namespace

std::int64_t int_arg(nb::handle obj, const char* op, const char* what) {
  PyObject* p = obj.ptr();
  std::string why;
  if (!is_text(p) && PyIndex_Check(p)) {
    if (std::optional<std::int64_t> v = integer_of(p, op, what, why)) return *v;
  }
  throw_not_an_integer(obj, op, std::string(what) + " must be an integer", why);
}

std::vector<std::int64_t> int_list_arg(nb::handle obj, const char* op, const char* what) {
  PyObject* p = obj.ptr();
  std::string why;
  if (is_text(p)) throw_not_an_integer(obj, op, std::string(what) + " must be an integer", why);
  if (PyIndex_Check(p)) {
    if (std::optional<std::int64_t> v = integer_of(p, op, what, why)) return {*v};
    if (!is_numpy_array(obj) || nb::cast<int>(obj.attr("ndim")) == 0) {
      throw_not_an_integer(obj, op, std::string(what) + " must be an integer", why);
    }
  }
  PyObject* it = PyObject_GetIter(p);
  if (it == nullptr) {
    PyErr_Clear();
    throw_not_an_integer(obj, op,
                         std::string(what) + " must be an integer or a sequence of integers", why);
  }
  nb::object iter = nb::steal(it);
  std::vector<std::int64_t> out;
  while (PyObject* item = PyIter_Next(iter.ptr())) {
    nb::object owned = nb::steal(item);
    out.push_back(int_arg(owned, op, what));
  }
  if (PyErr_Occurred()) throw nb::python_error();  // the iterable itself failed
  return out;
}

std::vector<std::int64_t> spread_int_args(const nb::args& args, const char* op, const char* what) {
  if (args.size() == 1) return int_list_arg(args[0], op, what);
  std::vector<std::int64_t> out;
  for (nb::handle a : args) out.push_back(int_arg(a, op, what));
  return out;
}

std::int64_t normalize_axis(std::int64_t axis, std::int64_t ndim, const char* op) {
  if (axis < -ndim || axis >= ndim) throw_axis_error(op, axis, ndim);
  return axis < 0 ? axis + ndim : axis;
}

std::optional<std::vector<std::int64_t>> axes_arg(nb::handle axis, std::int64_t ndim,
                                                  const char* op) {
  if (axis.is_none()) return std::nullopt;
  // A bool is an integer to Python but not a reduction's axis to NumPy (axis=True was taken as
  // axis 1); fft axes, offsets and counts take bools as NumPy's do.
  if (is_boolean(axis)) throw_argument_type_error(op, "axis must be an integer, not a bool");
  std::vector<std::int64_t> axes = int_list_arg(axis, op, "axis");
  std::vector<bool> seen(static_cast<std::size_t>(ndim), false);
  for (std::int64_t& a : axes) {
    a = normalize_axis(a, ndim, op);
    if (seen[static_cast<std::size_t>(a)]) {
      throw_validation(op, "repeated axis " + std::to_string(a));
    }
    seen[static_cast<std::size_t>(a)] = true;
  }
  return axes;
}

std::vector<std::int64_t> permutation_arg(const nb::args& args, std::int64_t ndim, const char* op) {
  if (args.size() == 0 || (args.size() == 1 && args[0].is_none())) return {};
  std::vector<std::int64_t> perm =
      *axes_arg(args.size() == 1 ? nb::handle(args[0]) : nb::handle(args), ndim, op);
  if (static_cast<std::int64_t>(perm.size()) != ndim) {
    throw_validation(op, "axes don't match the tensor: " + std::to_string(perm.size()) +
                             " given for " + std::to_string(ndim) + " axes");
  }
  return perm;
}

std::vector<IndexItem> parse_index(nb::handle key, const Shape& shape, const char* op) {
  std::vector<nb::handle> items;
  if (nb::isinstance<nb::tuple>(key)) {
    for (nb::handle item : nb::borrow<nb::tuple>(key)) items.push_back(item);
  } else {
    items.push_back(key);
  }
  const auto rank = static_cast<std::int64_t>(shape.size());
  std::int64_t consumed = 0;  // axes the items index (Ellipsis fills the rest)
  int ellipses = 0;
  for (nb::handle item : items) {
    if (item.is(Py_Ellipsis)) {
      ++ellipses;
      continue;
    }
    if (item.is_none()) continue;
    if (is_boolean(item)) {
      throw Error(ErrorKind::Unsupported, ErrorPhase::Input, op,
                  "boolean indexing (a[True], a[mask]) is not supported: tenferro has no "
                  "boolean dtype; select with tenferro.where, or index with ints and slices");
    }
    const bool sequence = nb::isinstance<nb::list>(item) || nb::isinstance<nb::tuple>(item) ||
                          (is_numpy_array(item) && nb::cast<int>(item.attr("ndim")) > 0);
    if (sequence || nb::isinstance<EagerTensor>(item)) {
      throw Error(ErrorKind::Unsupported, ErrorPhase::Input, op,
                  "integer-array (fancy) indexing is not supported: views need ints, slices, "
                  "Ellipsis and None; gather with an einsum against a selection matrix, or "
                  "download() and index the NumPy array");
    }
    if (!PySlice_Check(item.ptr()) && (is_text(item.ptr()) || !PyIndex_Check(item.ptr()))) {
      throw_indexing_error(op,
                           "only integers, slices (':'), Ellipsis ('...') and None are "
                           "valid indices, got a " +
                               python_type_name(item));
    }
    ++consumed;
  }
  if (ellipses > 1) throw_indexing_error(op, "an index can only have a single ellipsis ('...')");
  if (consumed > rank) {
    throw_indexing_error(op, "too many indices: the tensor has " + std::to_string(rank) +
                                 " axes but " + std::to_string(consumed) + " were indexed");
  }
  std::vector<IndexItem> out;
  std::size_t axis = 0;
  auto whole = [&](std::int64_t count) {
    for (std::int64_t i = 0; i < count; ++i, ++axis)
      out.push_back({IndexItem::Kind::Slice, 0, 1, shape[axis]});
  };
  for (nb::handle item : items) {
    if (item.is(Py_Ellipsis)) {
      whole(rank - consumed);
    } else if (item.is_none()) {
      out.push_back({IndexItem::Kind::NewAxis});
    } else if (PySlice_Check(item.ptr())) {
      Py_ssize_t start = 0, stop = 0, step = 0;
      if (PySlice_Unpack(item.ptr(), &start, &stop, &step) < 0) {
        throw_validation(op, take_python_error());  // e.g. a zero step
      }
      if (step < 0) {
        throw Error(ErrorKind::Unsupported, ErrorPhase::Input, op,
                    "negative slice steps would need negative strides, which tenferro's kernels "
                    "do not take; reverse with an explicit copy instead");
      }
      const Py_ssize_t len = PySlice_AdjustIndices(shape[axis], &start, &stop, step);
      out.push_back({IndexItem::Kind::Slice, start, step, len});
      ++axis;
    } else {
      const std::int64_t n = shape[axis];
      std::string why;
      bool overflow = false;
      std::optional<std::int64_t> i = try_index(item.ptr(), why, &overflow);
      if (!i && !overflow) {
        throw_indexing_error(op,
                             "only integers, slices (':'), Ellipsis ('...') and None are "
                             "valid indices (" +
                                 why + ")");
      }
      if (!i || *i < -n || *i >= n) {
        throw_indexing_error(op, "index " + nb::cast<std::string>(nb::repr(item)) +
                                     " is out of bounds for axis " + std::to_string(axis) +
                                     " with size " + std::to_string(n));
      }
      out.push_back({IndexItem::Kind::Integer, *i < 0 ? *i + n : *i});
      ++axis;
    }
  }
  whole(rank - static_cast<std::int64_t>(axis));
  return out;
}

}  // namespace tenferro::python
