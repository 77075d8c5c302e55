// tenferro._tenferro.fft: numpy.fft's functions (axes are logical axes, as NumPy's).
#include <string>

#include "fft_binders.hpp"

namespace tenferro::python {

fft::Norm norm_of(nb::handle norm) {
  if (norm.is_none()) return fft::Norm::Backward;
  fft::Norm out;
  if (!nb::isinstance<nb::str>(norm)) {  // nb::cast<std::string> threw std::bad_cast
    throw_validation("fft", "norm must be None, 'backward', 'forward' or 'ortho', not a " +
                                nb::cast<std::string>(nb::str(norm.type().attr("__name__"))));
  }
  const std::string s = nb::cast<std::string>(norm);
  if (!fft::parse_norm(s, out)) {
    throw_validation("fft", "norm must be None, 'backward', 'forward' or 'ortho', not '" + s + "'");
  }
  return out;
}

void bind_fft(nb::module_& m) {
  nb::module_ f = m.def_submodule("fft", "numpy.fft on tenferro tensors.");
  def_fft_family<EagerTensor, fft::fft, fft::ifft, fft::rfft, fft::irfft, fft::fftn, fft::ifftn,
                 fft::rfftn, fft::irfftn>(f);
}

}  // namespace tenferro::python
