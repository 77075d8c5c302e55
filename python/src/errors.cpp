#include <nanobind/stl/string.h>

#include "errors.hpp"

#include <string>

#include "bindings.hpp"

namespace tenferro::python {

namespace {
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
  nb::object err = cls(nb::str(e.what()));
  err.attr("kind") = nb::str(error_kind_name(e.kind()).data());
  err.attr("phase") = nb::str(error_phase_name(e.phase()).data());
  err.attr("op") = nb::str(e.op().c_str());
  err.attr("message") = nb::str(e.message().c_str());
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
