#include <nanobind/stl/string.h>

#include "errors.hpp"

#include <string>
#include <string_view>
#include <utility>

#include "bindings.hpp"

namespace tenferro::python {

namespace {
// The library's messages name dtypes as its C++ enumerators (F32, F64, C32, C64), where
// NumPy's C64-looking name complex64 is tenferro's C32: for Python the whole-word names become
// NumPy's ("maximum is defined for real dtypes, not complex128", not "... not C64").
std::string with_numpy_dtype_names(std::string_view text) {
  static constexpr std::pair<std::string_view, std::string_view> kNames[] = {
      {"F32", "float32"}, {"F64", "float64"}, {"C32", "complex64"}, {"C64", "complex128"}};
  const auto word_char = [](char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
  };
  std::string out;
  out.reserve(text.size() + 16);
  for (std::size_t i = 0; i < text.size();) {
    bool replaced = false;
    if (i + 3 <= text.size() && (i == 0 || !word_char(text[i - 1])) &&
        (i + 3 == text.size() || !word_char(text[i + 3]))) {
      for (const auto& [cpp, numpy] : kNames) {
        if (text.substr(i, 3) == cpp) {
          out += numpy;
          i += 3;
          replaced = true;
          break;
        }
      }
    }
    if (!replaced) out += text[i++];
  }
  return out;
}

// {name: class}, installed once by tenferro/_errors.py through _set_error_classes.
nb::dict& error_classes() {
  static nb::dict* classes = new nb::dict();  // leaked: outlives interpreter shutdown order
  return *classes;
}
}  // namespace

nb::object python_error_object(const Error& e, const char* class_name) {
  const std::string key = class_name ? class_name : std::string(error_kind_name(e.kind()));
  nb::dict& classes = error_classes();
  // Only before tenferro/_errors.py ran: a plain RuntimeError.
  nb::object cls = classes.contains(key.c_str()) ? nb::object(classes[key.c_str()])
                                                 : nb::borrow(PyExc_RuntimeError);
  nb::object err = cls(nb::str(with_numpy_dtype_names(e.what()).c_str()));
  err.attr("kind") = nb::str(error_kind_name(e.kind()).data());
  err.attr("phase") = nb::str(error_phase_name(e.phase()).data());
  err.attr("op") = nb::str(e.op().c_str());
  err.attr("message") = nb::str(with_numpy_dtype_names(e.message()).c_str());
  return err;
}

void set_python_error(const Error& e, const char* class_name) {
  nb::object err = python_error_object(e, class_name);
  PyErr_SetObject(reinterpret_cast<PyObject*>(Py_TYPE(err.ptr())), err.ptr());
}

void bind_errors(nb::module_& m) {
  m.def("_set_error_classes", [](nb::dict classes) { error_classes().update(classes); });
  nb::register_exception_translator([](const std::exception_ptr& p, void*) {
    try {
      std::rethrow_exception(p);
    } catch (const Error& e) {
      set_python_error(e);
    }
  });
}

}  // namespace tenferro::python
