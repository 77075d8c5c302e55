// DLPack >= 1.0 export of tensors (the Array API's __dlpack__ / __dlpack_device__).
#pragma once

#include <nanobind/nanobind.h>

#include <optional>

#include "tenferro/runtime/eager_tensor.hpp"

namespace tenferro::python {

namespace nb = nanobind;

// (device_type, device_id) in DLPack's codes: (1, 0) CPU, (2, n) CUDA, (15, n) WebGPU.
nb::tuple dlpack_device(const EagerTensor& t);
// A DLPack capsule over the tensor's memory (zero copy; the capsule keeps the buffer alive).
// dl_device other than the tensor's own is a typed placement error; copy=True makes a copy
// inside the runtime first.
nb::object dlpack_capsule(const EagerTensor& t, nb::handle stream, nb::handle max_version,
                          nb::handle dl_device, std::optional<bool> copy);

}  // namespace tenferro::python
