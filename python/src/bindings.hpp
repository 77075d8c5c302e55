// Shared declarations of the nanobind module `tenferro._tenferro`: one bind_* function per
// file, each adding one part of the API (runtimes, tensors, einsum, linalg, fft, prims).
#pragma once

#include <nanobind/nanobind.h>

#include <cstdint>
#include <functional>
#include <utility>

#include "tenferro/runtime/backend.hpp"
#include "tenferro/runtime/eager_tensor.hpp"

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
void bind_config(nb::module_& m);

// The Python object of a Tensor result, built straight in the Tensor type: nb::cast looks the
// C++ type up by its typeid on every call, a tenth of a short element-wise call. (Set up by
// bind_tensor.)
using TensorObject = nb::typed<nb::object, EagerTensor>;  // a stub says "Tensor"
TensorObject tensor_object(EagerTensor&& t);
// `h` is an initialised tenferro.Tensor (the exact type, or a subclass through nanobind's
// check).
bool is_tensor(nb::handle h) noexcept;
// The tensor inside `h`, which is_tensor said is one.
inline const EagerTensor& tensor_of(nb::handle h) noexcept {
  return *nb::inst_ptr<EagerTensor>(h);
}

// Runs `f` with the GIL released (the call may take long and other Python threads may use the
// same runtime meanwhile). Exceptions leave after the GIL is taken back.
template <class F>
decltype(auto) released(F&& f) {
  nb::gil_scoped_release release;
  return std::forward<F>(f)();
}

// A Python exception on its way through the library: deliberately not a std::exception, so the
// library passes it on unchanged (einsum_planner.hpp, EinsumOptions::interrupt), and the
// binding raises the very same exception object again (a KeyboardInterrupt stays one; the
// translator is registered by bind_einsum).
struct PythonPassThrough {
  nb::python_error error;
};

// An interrupt check for a long call from Python that runs with the GIL released (einsum
// planning's EinsumOptions::interrupt, a Krylov solve's matrix operator): it takes the GIL
// briefly and runs Python's signal handlers; a pending KeyboardInterrupt (or whatever a handler
// raised) leaves through PythonPassThrough. Only on the calling thread: signals are handled on
// the main thread alone, and a worker thread that waited for the GIL could deadlock a caller
// that did not release it (the AD layer's backward einsums reuse the options).
std::function<void()> python_interrupt_hook();

// Element-wise work on at most this many elements of host memory runs with the GIL held: its
// kernel takes microseconds at most, and handing the GIL over and taking it back costs 30-50 ns,
// a tenth of such a call, more than another Python thread could gain in that time. (NumPy
// releases it from 500 elements, but its calls are cheaper to begin with.)
inline constexpr std::int64_t kHoldGilUpTo = std::int64_t{1} << 14;

inline bool short_on_host(const EagerTensor& t) {
  return t.buffer() != nullptr && t.buffer()->host_data() != nullptr && t.numel() <= kHoldGilUpTo;
}
// For a binary op: both short, and of one shape (a broadcast result can be far larger).
inline bool short_on_host(const EagerTensor& a, const EagerTensor& b) {
  return a.shape() == b.shape() && short_on_host(a) && short_on_host(b);
}

// `released`, but for a short element-wise call (`short_call`), which keeps the GIL.
template <class F>
decltype(auto) released_unless_short(bool short_call, F&& f) {
  if (short_call) return std::forward<F>(f)();
  nb::gil_scoped_release release;
  return std::forward<F>(f)();
}

}  // namespace tenferro::python
