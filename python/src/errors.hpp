// tenferro::Error -> the Python exception classes of tenferro/_errors.py (one per ErrorKind,
// each also deriving from the natural built-in), with kind, phase, op and message attached.
#pragma once

#include <nanobind/nanobind.h>

#include "tenferro/core/error.hpp"

namespace tenferro::python {

// Sets the Python error for `e`. `class_name` overrides the class picked by the kind (e.g.
// "LinAlgError" for a Numerical error of a linalg call).
void set_python_error(const Error& e, const char* class_name = nullptr);
// The exception instance set_python_error raises, for callers that attach more attributes
// (tenferro.NotConvergedError's best iterate) before raising it with PyErr_SetObject.
nanobind::object python_error_object(const Error& e, const char* class_name = nullptr);

// Calls f(); a Numerical error leaves as tenferro.LinAlgError (NumPy's LinAlgError too).
template <class F>
decltype(auto) linalg_errors(F&& f) {
  try {
    return f();
  } catch (const Error& e) {
    if (e.kind() != ErrorKind::Numerical) throw;
    set_python_error(e, "LinAlgError");
    throw nanobind::python_error();
  }
}

}  // namespace tenferro::python
