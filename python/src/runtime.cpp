// tenferro.Runtime: one EagerRuntime (one backend) with its explicit transfers and counters.
#include <nanobind/stl/shared_ptr.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "bindings.hpp"
#include "convert.hpp"
#include "tenferro/runtime/runtime.hpp"
#include "tensor_from_python.hpp"

namespace tenferro::python {

namespace {

nb::dict stats_dict(const RuntimeStats& s) {
  nb::dict d;
  d["epoch"] = s.epoch;
  d["module_installs"] = s.module_installs;
  d["retained_snapshots"] = s.retained_snapshots;
  d["ensure_fast_path_hits"] = s.ensure_fast_path_hits;
  d["cache_hits"] = s.cache_hits;
  d["cache_misses"] = s.cache_misses;
  d["cache_entries"] = s.cache_entries;
  d["cache_bytes"] = s.cache_bytes;
  d["uploads"] = s.uploads;
  d["upload_bytes"] = s.upload_bytes;
  d["downloads"] = s.downloads;
  d["download_bytes"] = s.download_bytes;
  d["status_reads"] = s.status_reads;
  d["status_read_bytes"] = s.status_read_bytes;
  d["scalar_reads"] = s.scalar_reads;
  d["scalar_read_bytes"] = s.scalar_read_bytes;
  d["scalar_writes"] = s.scalar_writes;
  d["scalar_write_bytes"] = s.scalar_write_bytes;
  d["backend_constructions"] = s.backend_constructions;
  d["numerical_retries"] = s.numerical_retries;
  nb::dict launches;
  for (const auto& [k, v] : s.kernel_launches) launches[k.c_str()] = v;
  d["kernel_launches"] = launches;
  return d;
}

std::string runtime_repr(const EagerRuntime& rt) {
  return "tenferro.Runtime(" + device_name(rt.backend().placement()) +
         ", id=" + std::to_string(rt.id()) + ")";
}

}  // namespace

void bind_runtime(nb::module_& m) {
  nb::class_<EagerRuntime>(m, "Runtime",
                           "One backend (CPU, WebGPU or CUDA device) and the tensors that live "
                           "on it. Data moves in and out only through upload() and download().")
      .def_static(
          "cpu", [] { return EagerRuntime::cpu(); }, "A new CPU runtime.")
      .def_static(
          "webgpu", [] { return released([] { return EagerRuntime::webgpu(); }); },
          "A new WebGPU runtime (adapter 0). UnsupportedError when not built in.")
      .def_static(
          "cuda", [](int device) { return released([&] { return EagerRuntime::cuda(device); }); },
          nb::arg("device") = 0, "A new CUDA runtime. UnsupportedError when not built in.")
      .def_prop_ro(
          "backend",
          [](const EagerRuntime& rt) { return std::string(backend_kind_name(rt.backend_kind())); })
      .def_prop_ro("device",
                   [](const EagerRuntime& rt) { return device_name(rt.backend().placement()); })
      .def_prop_ro("description", [](const EagerRuntime& rt) { return rt.backend().description(); })
      .def_prop_ro("id", &EagerRuntime::id)
      .def(
          "upload",
          [](EagerRuntime& rt, nb::handle data, nb::handle dtype) {
            return upload_from_python(rt.shared_from_this(), data, dtype);
          },
          nb::arg("data"), nb::arg("dtype").none() = nb::none(),
          "Copies array-like host data into this runtime (explicit, counted in stats()). "
          "Integer and boolean data become float64 unless dtype is given.")
      .def("synchronize", [](EagerRuntime& rt) { released([&] { rt.synchronize(); }); })
      .def(
          "stats", [](const EagerRuntime& rt) { return stats_dict(rt.stats()); },
          "The runtime's counters: transfers, caches, module installs, kernel launches.")
      .def("__repr__", &runtime_repr)
      .def("__eq__",
           [](const EagerRuntime& a, nb::handle b) {
             return nb::isinstance<EagerRuntime>(b) && &a == nb::inst_ptr<EagerRuntime>(b);
           })
      .def("__hash__", [](const EagerRuntime& rt) { return static_cast<std::int64_t>(rt.id()); });
}

}  // namespace tenferro::python
