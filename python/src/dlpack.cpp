#include <nanobind/stl/string.h>

#include "dlpack.hpp"

#include <nanobind/ndarray.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/shared_ptr.h>

#include <algorithm>
#include <array>
#include <string>
#include <vector>

#include "args.hpp"
#include "bindings.hpp"
#include "convert.hpp"
#include "tenferro/prims.hpp"
#include "tenferro/runtime/runtime.hpp"
#include "tensor_from_python.hpp"

namespace tenferro::python {

namespace {

constexpr int kDLCpu = 1, kDLCuda = 2, kDLWebGPU = 15;

// DLPack's device type of each backend, indexed by BackendKind. A backend without an entry
// keeps the 0 the table starts with, which the static_assert below refuses.
constexpr std::array<int, kBackendKindCount> kDLDeviceType = [] {
  std::array<int, kBackendKindCount> t{};
  t[static_cast<std::size_t>(BackendKind::Cpu)] = kDLCpu;
  t[static_cast<std::size_t>(BackendKind::Cuda)] = kDLCuda;
  t[static_cast<std::size_t>(BackendKind::WebGpu)] = kDLWebGPU;
  return t;
}();
static_assert(std::find(kDLDeviceType.begin(), kDLDeviceType.end(), 0) == kDLDeviceType.end(),
              "every backend needs its DLPack device type");

int dlpack_type(const Placement& p) {
  return kDLDeviceType[static_cast<std::size_t>(p.backend)];
}

}  // namespace

nb::tuple dlpack_device(const EagerTensor& t) {
  const Placement& p = t.placement();
  return nb::make_tuple(dlpack_type(p), p.device_ordinal);
}

nb::object dlpack_capsule(const EagerTensor& t, nb::handle stream, nb::handle max_version,
                          nb::handle dl_device, std::optional<bool> copy) {
  const Placement& p = t.placement();
  if (!dl_device.is_none()) {
    std::pair<int, int> want;
    if (!nb::try_cast(dl_device, want)) {
      throw_validation("__dlpack__",
                       "dl_device must be a (device_type, device_id) pair of "
                       "ints, got " +
                           nb::cast<std::string>(nb::repr(dl_device)));
    }
    if (want.first != dlpack_type(p) || want.second != p.device_ordinal) {
      throw Error(ErrorKind::NoInputIngress, ErrorPhase::Transfer, "__dlpack__",
                  "the tensor lives on " + device_name(p) + " but " +
                      device_name(want.first, want.second) +
                      " was asked for; tenferro never copies between devices on its own: call "
                      "tensor.download() for a host copy");
    }
  }
  if (p.backend != BackendKind::Cpu) {
    throw Error(ErrorKind::Unsupported, ErrorPhase::Transfer, "__dlpack__",
                "DLPack export of " + device_name(p) +
                    " memory is not implemented yet; call tensor.download() for an explicit "
                    "host copy");
  }
  if (!stream.is_none()) {
    int overflow = 0;
    const bool minus_one = nb::isinstance<nb::int_>(stream) &&
                           PyLong_AsLongLongAndOverflow(stream.ptr(), &overflow) == -1 &&
                           overflow == 0;
    if (!minus_one) {
      throw_validation("__dlpack__", "a CPU tensor takes stream=None (or -1), got " +
                                         nb::cast<std::string>(nb::repr(stream)));
    }
  }
  EagerTensor value =
      copy.value_or(false) ? released([&] { return prims::cast(t, t.dtype()); }) : t;
  check_numpy_rank(value.rank(), "__dlpack__");
  Tensor host = value.host_view();
  auto* holder = new Tensor(host);
  nb::capsule owner(holder, [](void* ptr) noexcept { delete static_cast<Tensor*>(ptr); });
  std::vector<std::size_t> shape(host.shape().begin(), host.shape().end());
  std::vector<std::int64_t> strides(host.strides().begin(), host.strides().end());
  nb::ndarray<nb::array_api> arr(holder->raw_data(), shape.size(), shape.data(), owner,
                                 strides.data(), dlpack_dtype(host.dtype()), kDLCpu, 0);
  nb::object exported = arr.cast(nb::rv_policy::reference);
  nb::kwargs kw;
  if (!max_version.is_none()) kw["max_version"] = max_version;
  return exported.attr("__dlpack__")(**kw);
}

void bind_dlpack(nb::module_& m) {
  m.def(
      "from_dlpack",
      [](nb::handle x, std::shared_ptr<EagerRuntime> runtime, std::optional<bool> copy) {
        return from_dlpack(x, runtime, copy);
      },
      nb::arg("x"), nb::kw_only(), nb::arg("runtime"), nb::arg("copy").none() = nb::none(),
      "A tensor of `runtime` viewing x's memory (zero copy for host memory on a CPU runtime; "
      "the producer stays alive meanwhile). copy=True copies; a device mismatch is a "
      "PlacementError, never a silent transfer.");
}

}  // namespace tenferro::python
