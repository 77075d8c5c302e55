// Python data -> tensors of a runtime: the explicit upload of array-likes and DLPack import.
#pragma once

#include <nanobind/nanobind.h>

#include <memory>
#include <optional>

#include "tenferro/runtime/eager_tensor.hpp"

namespace tenferro::python {

namespace nb = nanobind;

// numpy.asarray(data) (integers and booleans become float64 unless `dtype` says otherwise),
// copied into `rt` (an explicit, counted upload).
EagerTensor upload_from_python(const std::shared_ptr<EagerRuntime>& rt, nb::handle data,
                               nb::handle dtype);

// DLPack import (Array API from_dlpack). CPU producer + CPU runtime: zero copy, the producer
// stays alive while the tensor lives; copy=True forces a copy. Any other device pairing is a
// typed placement error naming both devices, unless copy=True asks for the explicit transfer.
EagerTensor from_dlpack(nb::handle x, const std::shared_ptr<EagerRuntime>& rt,
                        std::optional<bool> copy);

}  // namespace tenferro::python
