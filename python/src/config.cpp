// tenferro._tenferro.blas_info: what `tenferro info` says of the BLAS/LAPACK, for Python users
// (who have no CLI): tenferro.show_config() prints it (tenferro/_config.py).
#include <nanobind/stl/string.h>

#include "backends/cpu/blas_info.hpp"
#include "bindings.hpp"

namespace tenferro::python {

void bind_config(nb::module_& m) {
  m.def(
      "blas_info",
      [] {
        const cpu_blas::BlasInfo b = cpu_blas::blas_info();
        nb::dict d;
        d["vendor"] = b.vendor;
        d["version"] = b.version;
        d["core"] = b.core;
        d["config"] = b.config;
        d["cpu_isa"] = b.cpu_isa;
        d["kernel_isa"] = b.kernel_isa;
        d["coretype_env"] = b.coretype_env.empty() ? nb::object(nb::none())
                                                   : nb::object(nb::str(b.coretype_env.c_str()));
        d["generic_kernel"] = b.generic_kernel;
        d["forced_below_cpu"] = b.forced_below_cpu;
        d["line"] = cpu_blas::blas_line(b);
        d["warning"] = cpu_blas::blas_warning(b);
        return d;
      },
      "The BLAS/LAPACK tenferro's CPU backend links and the kernel it runs on this CPU, as "
      "`tenferro info` reports them; 'line' is its BLAS line, 'warning' its one-line warning or "
      "note, or empty.");
}

}  // namespace tenferro::python
