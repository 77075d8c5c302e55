// The extension module: the Python package `tenferro` (python/tenferro/) re-exports it.
#include <nanobind/stl/string.h>

#include "ad_bridge.hpp"
#include "bindings.hpp"

NB_MODULE(_tenferro, m) {
  using namespace tenferro::python;
  m.doc() = "tenferro C++ runtime bindings (use the `tenferro` package, not this module)";
  bind_errors(m);
  bind_config(m);
  bind_runtime(m);
  bind_tensor(m);
  bind_dlpack(m);
  bind_prims(m);
  bind_einsum(m);
  bind_linalg(m);
  bind_fft(m);
  bind_krylov(m);
  // After the plain bindings: the traced overloads chain behind them (ad_ops.cpp).
  bind_ad_variable(m);
  bind_ad_ops(m);
  bind_ad_functional(m);
}
