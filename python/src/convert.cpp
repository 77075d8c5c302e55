#include <nanobind/stl/string.h>

#include "convert.hpp"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "args.hpp"
#include "tenferro/runtime/placement.hpp"

namespace tenferro::python {

namespace {

constexpr int kDLWebGPU = 15;  // DLPack's kDLWebGPU (nanobind names no constant for it)

const std::array<const char*, 4> kNumpyNames = {"float32", "float64", "complex64", "complex128"};

// The NumPy dtype objects, made once (they are immutable singletons in NumPy).
const std::array<nb::object, 4>& numpy_dtypes() {
  static auto* dtypes = [] {
    auto* out = new std::array<nb::object, 4>();  // leaked: outlives interpreter shutdown order
    nb::object np_dtype = nb::module_::import_("numpy").attr("dtype");
    for (std::size_t i = 0; i < kNumpyNames.size(); ++i) (*out)[i] = np_dtype(kNumpyNames[i]);
    return out;
  }();
  return *dtypes;
}

// Keeps a DLPack/NumPy producer alive for as long as a tenferro storage views its memory.
// The last reference may drop on a thread that does not hold the GIL (a tensor freed inside a
// released call), so the GIL is taken to release it.
std::shared_ptr<void> keep_alive(const nb::ndarray<>& a) {
  return std::shared_ptr<void>(new nb::ndarray<>(a), [](void* p) {
    if (!Py_IsInitialized()) return;  // interpreter gone: nothing left to release
    nb::gil_scoped_acquire gil;
    delete static_cast<nb::ndarray<>*>(p);
  });
}

std::size_t required_alignment(DType d) {
  // Natural alignment of the element (C64 keeps 16 bytes at vendor-library boundaries).
  return d == DType::C32 ? 8 : dtype_size(d);
}

}  // namespace

nb::object numpy_dtype(DType d) {
  return numpy_dtypes()[static_cast<std::size_t>(d)];
}

namespace {

// The NumPy scalar types of numpy_dtypes() (numpy.float64, ...), made once.
const std::array<nb::object, 4>& numpy_scalar_types() {
  static auto* types = [] {
    auto* out = new std::array<nb::object, 4>();  // leaked, as numpy_dtypes()
    for (std::size_t i = 0; i < kNumpyNames.size(); ++i) (*out)[i] = numpy_dtypes()[i].attr("type");
    return out;
  }();
  return *types;
}

// The dtype the common spellings name without asking NumPy: one of its dtype objects or scalar
// types (identity), or a string that is one of their names. numpy.dtype(obj) and the
// comparisons after it were half of a small astype (0.5 us of 1.05).
std::optional<DType> common_dtype(nb::handle obj) {
  for (std::size_t i = 0; i < kNumpyNames.size(); ++i) {
    if (obj.is(numpy_dtypes()[i]) || obj.is(numpy_scalar_types()[i])) return kAllDTypes[i];
  }
  if (PyUnicode_Check(obj.ptr())) {
    const char* name = PyUnicode_AsUTF8(obj.ptr());
    if (name == nullptr) {
      PyErr_Clear();
      return std::nullopt;
    }
    for (std::size_t i = 0; i < kNumpyNames.size(); ++i) {
      if (std::string_view(name) == kNumpyNames[i]) return kAllDTypes[i];
    }
  }
  return std::nullopt;
}

}  // namespace

DType dtype_from_python(nb::handle obj) {
  if (const std::optional<DType> d = common_dtype(obj)) return *d;
  nb::object d;
  try {
    d = nb::module_::import_("numpy").attr("dtype")(obj);
  } catch (nb::python_error& e) {
    throw_validation("dtype", "not a dtype: " + nb::cast<std::string>(nb::repr(obj)) + " (" +
                                  nb::cast<std::string>(nb::str(e.value())) + ")");
  }
  const auto& all = numpy_dtypes();
  for (std::size_t i = 0; i < all.size(); ++i) {
    if (d.equal(all[i])) return kAllDTypes[i];
  }
  throw_validation("dtype", "tenferro has float32, float64, complex64 and complex128, not " +
                                nb::cast<std::string>(nb::str(d)));
}

std::optional<DType> dtype_of(const nb::ndarray<>& a) {
  const nb::dlpack::dtype t = a.dtype();
  if (t.lanes != 1) return std::nullopt;
  if (t.code == static_cast<std::uint8_t>(nb::dlpack::dtype_code::Float)) {
    if (t.bits == 32) return DType::F32;
    if (t.bits == 64) return DType::F64;
  }
  if (t.code == static_cast<std::uint8_t>(nb::dlpack::dtype_code::Complex)) {
    if (t.bits == 64) return DType::C32;
    if (t.bits == 128) return DType::C64;
  }
  return std::nullopt;
}

nb::dlpack::dtype dlpack_dtype(DType d) {
  switch (d) {
    case DType::F32:
      return nb::dtype<float>();
    case DType::F64:
      return nb::dtype<double>();
    case DType::C32:
      return nb::dtype<std::complex<float>>();
    case DType::C64:
      break;
  }
  return nb::dtype<std::complex<double>>();
}

std::string device_name(const Placement& p) {
  return std::string(backend_kind_name(p.backend)) + ":" + std::to_string(p.device_ordinal);
}

std::string device_name(int dlpack_device_type, int device_id) {
  std::string kind;
  switch (dlpack_device_type) {
    case nb::device::cpu::value:
      kind = "cpu";
      break;
    case nb::device::cuda::value:
      kind = "cuda";
      break;
    case nb::device::cuda_host::value:
      kind = "cuda_host";
      break;
    case nb::device::cuda_managed::value:
      kind = "cuda_managed";
      break;
    case kDLWebGPU:
      kind = "webgpu";
      break;
    default:
      kind = "dlpack-device-" + std::to_string(dlpack_device_type);
  }
  return kind + ":" + std::to_string(device_id);
}

namespace {
nb::object numpy_over(std::byte* data, const TensorLayout& layout, nb::handle owner) {
  const std::size_t rank = layout.shape.size();
  check_numpy_rank(static_cast<std::int64_t>(rank), "to NumPy");
  std::vector<std::size_t> shape(layout.shape.begin(), layout.shape.end());
  std::vector<std::int64_t> strides(layout.strides.begin(), layout.strides.end());
  nb::ndarray<nb::numpy> arr(data, rank, shape.data(), owner, strides.data(),
                             dlpack_dtype(layout.dtype), nb::device::cpu::value, 0);
  nb::object out = arr.cast(nb::rv_policy::reference);
  // A broadcast view (a zero stride over an axis longer than 1) is read-only, as NumPy's
  // broadcast_to: one write would change every row it repeats, and the tensor it views.
  for (std::size_t i = 0; i < rank; ++i) {
    if (layout.strides[i] == 0 && layout.shape[i] > 1) {
      out.attr("setflags")(nb::arg("write") = false);
      break;
    }
  }
  return out;
}
}  // namespace

nb::object numpy_view(const EagerTensor& t) {
  Tensor host = t.host_view();  // HostAccess for device values: no implicit download
  auto* holder = new Tensor(host);
  nb::capsule owner(holder, [](void* p) noexcept { delete static_cast<Tensor*>(p); });
  return numpy_over(holder->raw_data(), holder->layout(), owner);
}

nb::object numpy_of_host(const Tensor& t) {
  auto* holder = new Tensor(t);
  nb::capsule owner(holder, [](void* p) noexcept { delete static_cast<Tensor*>(p); });
  return numpy_over(holder->raw_data(), holder->layout(), owner);
}

std::optional<Tensor> host_view_of(const nb::ndarray<>& a, DType dtype) {
  const std::size_t item = dtype_size(dtype);
  auto* data = static_cast<std::byte*>(a.data());
  TensorLayout layout{dtype, Shape(a.ndim()), Strides(a.ndim()), 0};
  std::int64_t reach = 1;  // elements from data to one past the last one
  bool empty = false;
  for (std::size_t i = 0; i < a.ndim(); ++i) {
    layout.shape[i] = static_cast<std::int64_t>(a.shape(i));
    layout.strides[i] = a.stride(i);
    if (layout.shape[i] == 0) empty = true;
    if (layout.strides[i] < 0) return std::nullopt;  // our kernels walk forward only
    reach += (layout.shape[i] - 1) * layout.strides[i];
  }
  // The shape's size as every tensor builder checks it: a zero-copy view of a broadcast of 2^61
  // elements was accepted and its byte count wrapped further on.
  if (std::string violation = shape_size_violation(layout.shape, item); !violation.empty())
    throw_validation("import", violation);
  if (empty) reach = 0;
  if (reach > 0 && reinterpret_cast<std::uintptr_t>(data) % required_alignment(dtype) != 0)
    return std::nullopt;
  auto storage =
      std::make_shared<HostStorage>(data, static_cast<std::size_t>(reach) * item, keep_alive(a));
  return Tensor::view_of(std::move(storage), std::move(layout));
}

}  // namespace tenferro::python
