#include <nanobind/stl/string.h>

#include "tensor_from_python.hpp"

#include <nanobind/ndarray.h>

#include <string>

#include "backends/cpu/cpu_backend.hpp"
#include "convert.hpp"
#include "tenferro/runtime/runtime.hpp"

namespace tenferro::python {

namespace {

// A NumPy array of a tenferro dtype holding `data`.
nb::object as_numpy(nb::handle data, nb::handle dtype) {
  nb::module_ np = nb::module_::import_("numpy");
  if (!dtype.is_none()) return np.attr("asarray")(data, numpy_dtype(dtype_from_python(dtype)));
  nb::object arr = np.attr("asarray")(data);
  const std::string kind = nb::cast<std::string>(arr.attr("dtype").attr("kind"));
  if (kind == "b" || kind == "i" || kind == "u") return arr.attr("astype")("float64");
  if (kind != "f" && kind != "c") {
    throw_validation("upload", "tenferro has float32, float64, complex64 and complex128, not " +
                                   nb::cast<std::string>(nb::str(nb::object(arr.attr("dtype")))));
  }
  return arr;
}

EagerTensor upload_host(const std::shared_ptr<EagerRuntime>& rt, const nb::ndarray<nb::ro>& a,
                        nb::handle source) {
  const std::optional<DType> dtype = dtype_of(nb::ndarray<>(a));
  if (!dtype) {
    throw_validation("upload",
                     "tenferro has float32, float64, complex64 and complex128, not " +
                         nb::cast<std::string>(nb::str(nb::object(source.attr("dtype")))));
  }
  std::optional<Tensor> view = host_view_of(nb::ndarray<>(a), *dtype);
  if (!view) {  // negative strides or misaligned data: let NumPy make it plain first
    nb::object plain = nb::module_::import_("numpy").attr("ascontiguousarray")(source);
    view = host_view_of(nb::ndarray<>(nb::cast<nb::ndarray<nb::ro>>(plain)), *dtype);
  }
  const Tensor host = *view;
  nb::gil_scoped_release release;
  return rt->upload(host);
}

[[noreturn]] void throw_placement(const std::string& producer, const EagerRuntime& rt) {
  throw Error(ErrorKind::NoInputIngress, ErrorPhase::Transfer, "from_dlpack",
              "the array lives on " + producer + " but the runtime is " +
                  device_name(rt.backend().placement()) +
                  "; tenferro never copies between devices on its own: call runtime.upload(x) "
                  "(or from_dlpack(x, runtime=..., copy=True)) for an explicit transfer, or "
                  "pass a runtime of the array's device");
}

}  // namespace

EagerTensor upload_from_python(const std::shared_ptr<EagerRuntime>& rt, nb::handle data,
                               nb::handle dtype) {
  nb::object arr = as_numpy(data, dtype);
  return upload_host(rt, nb::cast<nb::ndarray<nb::ro>>(arr), arr);
}

EagerTensor from_dlpack(nb::handle x, const std::shared_ptr<EagerRuntime>& rt,
                        std::optional<bool> copy) {
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
