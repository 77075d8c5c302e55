// tenferro._tenferro.fft: numpy.fft's functions (axes are logical axes, as NumPy's).
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <string>

#include "bindings.hpp"
#include "tenferro/fft.hpp"
#include "views.hpp"

namespace tenferro::python {

namespace {

fft::Norm norm_of(nb::handle norm) {
  if (norm.is_none()) return fft::Norm::Backward;
  fft::Norm out;
  const std::string s = nb::cast<std::string>(norm);
  if (!fft::parse_norm(s, out)) {
    throw_validation("fft", "norm must be None, 'backward', 'forward' or 'ortho', not '" + s + "'");
  }
  return out;
}

using OneAxis = EagerTensor (*)(const EagerTensor&, std::optional<std::int64_t>, std::int64_t,
                                fft::Norm);
using NAxes = EagerTensor (*)(const EagerTensor&, fft::Lengths, fft::Lengths, fft::Norm);

template <OneAxis F>
void def_one(nb::module_& f, const char* name) {
  f.def(
      name,
      [](const EagerTensor& a, std::optional<std::int64_t> n, std::int64_t axis, nb::handle norm) {
        const fft::Norm nm = norm_of(norm);
        return released([&] { return F(a, n, axis, nm); });
      },
      nb::arg("a"), nb::arg("n").none() = nb::none(), nb::arg("axis") = -1,
      nb::arg("norm").none() = nb::none());
}

template <NAxes F>
void def_n(nb::module_& f, const char* name, bool two_d) {
  f.def(
      name,
      [two_d](const EagerTensor& a, nb::handle s, nb::handle axes, nb::handle norm) {
        fft::Lengths sl, al;
        if (!s.is_none()) sl = shape_arg(s);
        if (!axes.is_none()) {
          al = shape_arg(axes);
        } else if (two_d) {
          al = std::vector<std::int64_t>{-2, -1};
        }
        const fft::Norm nm = norm_of(norm);
        return released([&] { return F(a, sl, al, nm); });
      },
      nb::arg("a"), nb::arg("s").none() = nb::none(), nb::arg("axes").none() = nb::none(),
      nb::arg("norm").none() = nb::none());
}

}  // namespace

void bind_fft(nb::module_& m) {
  nb::module_ f = m.def_submodule("fft", "numpy.fft on tenferro tensors.");
  def_one<fft::fft>(f, "fft");
  def_one<fft::ifft>(f, "ifft");
  def_one<fft::rfft>(f, "rfft");
  def_one<fft::irfft>(f, "irfft");
  def_n<fft::fftn>(f, "fftn", false);
  def_n<fft::ifftn>(f, "ifftn", false);
  def_n<fft::rfftn>(f, "rfftn", false);
  def_n<fft::irfftn>(f, "irfftn", false);
  def_n<fft::fftn>(f, "fft2", true);
  def_n<fft::ifftn>(f, "ifft2", true);
  def_n<fft::rfftn>(f, "rfft2", true);
  def_n<fft::irfftn>(f, "irfft2", true);
}

}  // namespace tenferro::python
