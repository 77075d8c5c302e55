// Conversions at the Python boundary: dtypes <-> NumPy dtype objects, Python shapes and
// axes, and host memory <-> NumPy arrays without copies.
#pragma once

#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>

#include <optional>
#include <string>

#include "tenferro/core/tensor.hpp"
#include "tenferro/runtime/eager_tensor.hpp"
#include "tenferro/runtime/runtime.hpp"

namespace tenferro::python {

namespace nb = nanobind;

nb::object numpy_dtype(DType d);  // numpy.dtype('float64'), ...
// Accepts a NumPy dtype, a scalar type (numpy.float32, float, complex) or a name.
DType dtype_from_python(nb::handle obj);
// The dtype of a DLPack/NumPy array; nullopt for dtypes tenferro has no kernels for.
std::optional<DType> dtype_of(const nb::ndarray<>& a);
nb::dlpack::dtype dlpack_dtype(DType d);

// "cpu:0", "webgpu:0", "cuda:1": what error messages call a device.
std::string device_name(const Placement& p);
std::string device_name(int dlpack_device_type, int device_id);

// A NumPy array over the host memory of `t` (zero copy; keeps `t`'s storage alive). The
// value must be host-resident (a HostAccess error names download() otherwise).
nb::object numpy_view(const EagerTensor& t);
// A NumPy array over a host tensor (used by download: the tensor is a fresh copy).
nb::object numpy_of_host(const Tensor& t);

// A host tensor that views the memory of `a` (zero copy; the storage keeps `a` alive), or
// nullopt when the layout cannot be wrapped (negative or unaligned strides, misaligned data).
std::optional<Tensor> host_view_of(const nb::ndarray<>& a, DType dtype);

}  // namespace tenferro::python
