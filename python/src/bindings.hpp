// Shared declarations of the nanobind module `tenferro._tenferro`: one bind_* function per
// file, each adding one part of the API (runtimes, tensors, einsum, linalg, fft, prims).
#pragma once

#include <nanobind/nanobind.h>

#include <utility>

namespace tenferro::python {

namespace nb = nanobind;

void bind_errors(nb::module_& m);
void bind_runtime(nb::module_& m);
void bind_tensor(nb::module_& m);
void bind_einsum(nb::module_& m);
void bind_linalg(nb::module_& m);
void bind_fft(nb::module_& m);
void bind_krylov(nb::module_& m);
void bind_prims(nb::module_& m);
void bind_dlpack(nb::module_& m);

// Runs `f` with the GIL released (the call may take long and other Python threads may use the
// same runtime meanwhile). Exceptions leave after the GIL is taken back.
template <class F>
decltype(auto) released(F&& f) {
  nb::gil_scoped_release release;
  return std::forward<F>(f)();
}

}  // namespace tenferro::python
