#include <nanobind/stl/string.h>

#include "tensor_from_python.hpp"

#include <nanobind/ndarray.h>

#include <optional>
#include <string>
#include <vector>

#include "backends/cpu/cpu_backend.hpp"
#include "bindings.hpp"
#include "convert.hpp"
#include "memory_order.hpp"
#include "tenferro/runtime/runtime.hpp"

namespace tenferro::python {

namespace {

std::string repr_of(nb::handle obj) {
  return nb::cast<std::string>(nb::str(obj));
}

// A NumPy array of a tenferro dtype holding `data`, in native byte order. Integer and boolean
// data become float64; a big-endian float64 is byte-swapped (a copy, as upload is anyway);
// dtypes tenferro has no kernels for (float16, longdouble, structured, object) are refused.
nb::object as_numpy(nb::handle data, nb::handle dtype) {
  nb::module_ np = nb::module_::import_("numpy");
  nb::object arr;
  try {
    arr = np.attr("asarray")(data);
    if (!dtype.is_none()) {
      const DType target = dtype_from_python(dtype);
      // Complex to real only through real/imag/abs (docs/prims.md): NumPy's cast would drop
      // the imaginary parts with a warning, as astype on a Tensor refuses to.
      if (!is_complex(target) && nb::cast<std::string>(arr.attr("dtype").attr("kind")) == "c") {
        throw_validation("upload", "complex data to the real dtype " +
                                       repr_of(numpy_dtype(target)) +
                                       " would drop the imaginary parts: upload it as complex and "
                                       "take .real (or abs) explicitly");
      }
      arr = np.attr("asarray")(arr, numpy_dtype(target));
    }
  } catch (nb::python_error& e) {
    if (!e.matches(PyExc_ValueError) && !e.matches(PyExc_TypeError)) throw;
    // A tenferro error from inside the data (a device tensor in a list: its host_view's
    // HostAccessError) keeps its type and message.
    if (nb::hasattr(e.value(), "kind")) throw;
    throw_validation("upload", "not array-like data: " + repr_of(e.value()));
  }
  nb::object dt = arr.attr("dtype");
  const std::string kind = nb::cast<std::string>(dt.attr("kind"));
  if (kind == "b" || kind == "i" || kind == "u") return arr.attr("astype")("float64");
  nb::object native = dt.attr("newbyteorder")("=");
  for (DType d : kAllDTypes) {
    if (!native.equal(numpy_dtype(d))) continue;
    return nb::cast<bool>(dt.attr("isnative")) ? arr : arr.attr("astype")(native);
  }
  throw_validation("upload", "tenferro has float32, float64, complex64 and complex128, not " +
                                 repr_of(dt) + "; convert with astype() first");
}

// A C-ordered, freshly allocated (so aligned) NumPy copy of `a`'s elements.
nb::object aligned_copy(const nb::ndarray<nb::ro>& a) {
  std::vector<std::size_t> shape(a.ndim());
  std::vector<std::int64_t> strides(a.ndim());
  for (std::size_t i = 0; i < a.ndim(); ++i) {
    shape[i] = a.shape(i);
    strides[i] = a.stride(i);
  }
  // A NumPy view of a's memory (a outlives it: the copy is made before returning).
  nb::ndarray<nb::numpy, nb::ro> view(a.data(), a.ndim(), shape.data(), nb::handle(),
                                      strides.data(), a.dtype(), a.device_type(), a.device_id());
  return nb::module_::import_("numpy").attr("array")(view.cast(nb::rv_policy::reference),
                                                     nb::arg("order") = "C");
}

EagerTensor upload_host(const std::shared_ptr<EagerRuntime>& rt, const nb::ndarray<nb::ro>& a,
                        nb::handle source) {
  const std::optional<DType> dtype = dtype_of(nb::ndarray<>(a));
  if (!dtype) {
    throw_validation("upload", "tenferro has float32, float64, complex64 and complex128, not " +
                                   repr_of(source.attr("dtype")));
  }
  std::optional<Tensor> view = host_view_of(nb::ndarray<>(a), *dtype);
  nb::object copy;  // keeps the aligned copy alive until the upload is done
  if (!view) {      // negative strides or misaligned data: a fresh aligned copy first
    copy = aligned_copy(a);
    view = host_view_of(nb::ndarray<>(nb::cast<nb::ndarray<nb::ro>>(copy)), *dtype);
    if (!view) {
      throw Error(ErrorKind::Backend, ErrorPhase::Transfer, "upload",
                  "NumPy's copy of the array is still misaligned; please report this");
    }
  }
  const Tensor host = *view;
  nb::gil_scoped_release release;
  return upload_keeping_order(*rt, host);
}

// `arr` (a NumPy array of a supported dtype) as an ndarray; a layout nanobind cannot describe
// in elements (a structured field's view, whose strides are no multiple of its item) is
// copied by NumPy first.
nb::ndarray<nb::ro> ndarray_of(nb::object& arr) {
  nb::ndarray<nb::ro> a;
  if (nb::try_cast(arr, a)) return a;
  arr = nb::module_::import_("numpy").attr("array")(arr, nb::arg("order") = "C");
  if (nb::try_cast(arr, a)) return a;
  throw_validation("upload",
                   "the array's memory layout cannot be read (" + repr_of(arr.attr("dtype")) + ")");
}

[[noreturn]] void throw_placement(const std::string& producer, const EagerRuntime& rt) {
  throw Error(ErrorKind::NoInputIngress, ErrorPhase::Transfer, "from_dlpack",
              "the array lives on " + producer + " but the runtime is " +
                  device_name(rt.backend().placement()) +
                  "; tenferro never copies between devices on its own: call runtime.upload(x) "
                  "(or from_dlpack(x, runtime=..., copy=True)) for an explicit transfer, or "
                  "pass a runtime of the array's device");
}

// The producer's own __dlpack__ decides whether its memory may be shared. When it refuses
// (BufferError), nanobind falls back to the framework's legacy to_dlpack(), and torch's
// exports the raw memory of a lazily conjugated or negated tensor: silently wrong values.
// So a refusal here is final. Any other failure is left to the import below, as before.
// torch 2.15's __dlpack__ itself exports a negated view (`z.conj().imag`) as its raw memory,
// the values with the wrong sign, so torch's lazy bits are checked by hand first.
void check_producer_allows_export(nb::handle x) {
  if (PyCapsule_CheckExact(x.ptr()) || !nb::hasattr(x, "__dlpack__")) return;
  for (const char* lazy : {"is_neg", "is_conj"}) {
    if (nb::hasattr(x, lazy) && nb::cast<bool>(x.attr(lazy)())) {
      throw_validation("from_dlpack", std::string("the tensor's ") + lazy +
                                          "() is true: its memory does not hold its values; "
                                          "call resolve_neg() / resolve_conj() first");
    }
  }
  // With the buffer protocol nanobind never reaches to_dlpack(); and NumPy < 2.1 refuses a
  // read-only array's unversioned export, which the buffer protocol then shares or copies.
  if (PyObject_CheckBuffer(x.ptr())) return;
  nb::object dlpack = x.attr("__dlpack__");
  std::optional<std::string> refusal;
  try {
    try {
      dlpack(nb::arg("max_version") = nb::make_tuple(1, 0));  // the capsule is dropped unused
    } catch (nb::python_error& e) {
      if (!e.matches(PyExc_TypeError)) throw;  // a producer older than max_version
      dlpack();
    }
  } catch (nb::python_error& e) {
    if (!e.matches(PyExc_BufferError)) return;
    refusal = nb::cast<std::string>(nb::str(e.value()));
  }
  if (refusal) {
    throw_validation("from_dlpack", "the producer refuses to share its memory (" + *refusal +
                                        "); make a plain tensor first, e.g. torch's "
                                        "resolve_conj(), resolve_neg() or detach()");
  }
}

bool is_byte_swapped_numpy(nb::handle x) {
  nb::object ndarray = nb::module_::import_("numpy").attr("ndarray");
  return nb::isinstance(x, ndarray) && !nb::cast<bool>(x.attr("dtype").attr("isnative"));
}

// A tenferro Tensor in device memory given to from_dlpack: the host cannot read it, so the
// typed HostAccess error that says what to call (the DLPack import would report "supports
// neither __dlpack__ nor the buffer protocol"). upload gets the same error from as_numpy.
void refuse_device_tensor(nb::handle x) {
  if (!is_tensor(x)) return;
  const EagerTensor& t = tensor_of(x);
  if (t.is_host_resident()) return;
  throw_error(ErrorKind::HostAccess, ErrorPhase::Transfer, "from_dlpack",
              std::string("the tensor lives in ") + t.placement().to_string() +
                  " memory that the host cannot read; call tensor.download() for an explicit "
                  "copy, then upload that to the runtime you want");
}

}  // namespace

EagerTensor upload_from_python(const std::shared_ptr<EagerRuntime>& rt, nb::handle data,
                               nb::handle dtype) {
  nb::object arr = as_numpy(data, dtype);
  const nb::ndarray<nb::ro> a = ndarray_of(arr);
  return upload_host(rt, a, arr);
}

EagerTensor from_dlpack(nb::handle x, const std::shared_ptr<EagerRuntime>& rt,
                        std::optional<bool> copy) {
  refuse_device_tensor(x);
  // A host tensor of ours for a CPU runtime: a handle on the same storage, with no DLPack round
  // trip. Through DLPack the new tensor held a Python reference to x's Python object, which
  // outlived the interpreter's last collection when both lived to exit (nanobind reported them
  // leaked; an adversarial sweep found it).
  if (is_tensor(x) && rt->backend_kind() == BackendKind::Cpu && !copy.value_or(false)) {
    return adopt_host_tensor(rt, tensor_of(x).host_view());
  }
  check_producer_allows_export(x);
  if (is_byte_swapped_numpy(x)) {  // DLPack has no byte order: NumPy refuses to export it
    if (copy.has_value() && !*copy) {
      throw Error(ErrorKind::Unsupported, ErrorPhase::Transfer, "from_dlpack",
                  "a non-native byte order array cannot be shared without a copy; pass "
                  "copy=None or copy=True");
    }
    if (rt->backend_kind() != BackendKind::Cpu && !copy.value_or(false)) {
      throw_placement("cpu:0", *rt);
    }
    return upload_from_python(rt, x, nb::none());
  }
  nb::ndarray<nb::ro> a;
  if (!nb::try_cast(x, a)) {
    throw_validation("from_dlpack",
                     "the object supports neither __dlpack__ nor the buffer protocol");
  }
  const std::optional<DType> dtype = dtype_of(nb::ndarray<>(a));
  if (!dtype)
    throw_validation("from_dlpack", "tenferro has float32, float64, complex64 and complex128 only");
  const bool host_array = a.device_type() == nb::device::cpu::value;
  const std::string producer = device_name(a.device_type(), a.device_id());
  if (rt->backend_kind() != BackendKind::Cpu || !host_array) {
    // A device array, or a host array for a device runtime: only an explicit copy may move it.
    if (host_array && copy.value_or(false)) return upload_host(rt, a, x);
    if (!host_array && rt->backend_kind() == BackendKind::Cuda) {
      throw Error(ErrorKind::Unsupported, ErrorPhase::Transfer, "from_dlpack",
                  "zero-copy import of " + producer +
                      " memory is not implemented yet; download it to the host and call "
                      "runtime.upload(x)");
    }
    throw_placement(producer, *rt);
  }
  if (copy.value_or(false)) return upload_host(rt, a, x);
  // Zero copy: the tensor views the producer's memory. Writable producers only, since the
  // tensor may be exported again (DLPack, __array__) as writable memory.
  nb::ndarray<> writable;
  std::optional<Tensor> view;
  if (nb::try_cast(x, writable)) view = host_view_of(writable, *dtype);
  if (!view) {
    if (copy.has_value()) {  // copy=False: the caller asked for no copy at all
      throw Error(ErrorKind::Unsupported, ErrorPhase::Transfer, "from_dlpack",
                  "this array cannot be shared without a copy (read-only, negative strides or "
                  "misaligned data); pass copy=None or copy=True");
    }
    return upload_host(rt, a, x);
  }
  return adopt_host_tensor(rt, *view);
}

}  // namespace tenferro::python
