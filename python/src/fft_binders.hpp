// numpy.fft's twelve functions bound once for any tensor type: tenferro.fft on Tensors and its
// traced overloads on Tracers (ad::Variable) share the argument handling and the name list.
#pragma once

#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <cstdint>
#include <optional>
#include <vector>

#include "bindings.hpp"
#include "tenferro/fft.hpp"
#include "views.hpp"

namespace tenferro::python {

// norm=None | 'backward' | 'forward' | 'ortho' (Validation otherwise).
fft::Norm norm_of(nb::handle norm);

template <class T>
using FftOneAxis = T (*)(const T&, std::optional<std::int64_t>, std::int64_t, fft::Norm);
template <class T>
using FftNAxes = T (*)(const T&, fft::Lengths, fft::Lengths, fft::Norm);

template <class T, FftOneAxis<T> F>
void def_fft_one(nb::module_& f, const char* name) {
  f.def(
      name,
      [](const T& a, std::optional<std::int64_t> n, nb::handle axis, nb::handle norm) {
        const fft::Norm nm = norm_of(norm);
        const std::int64_t ax = normalize_axis(int_arg(axis, "fft", "axis"), a.rank(), "fft");
        return released([&] { return F(a, n, ax, nm); });
      },
      nb::arg("a"), nb::arg("n").none() = nb::none(), nb::arg("axis") = -1,
      nb::arg("norm").none() = nb::none());
}

// NumPy 2's -1 in s: the input's whole length along that axis. (The C++ API's -1 is the
// default length, which differs on irfftn's last axis: 2 (m - 1), not m; irfftn(z, s=(-1, -1))
// had a last axis of 6 for NumPy's 4.) Counts that do not fit the axes are left to the C++
// checks and their errors.
template <class T>
void whole_axis_lengths(const T& a, fft::Lengths& s, const fft::Lengths& axes) {
  if (!s) return;
  const auto count = static_cast<std::int64_t>(s->size());
  if (axes ? axes->size() != s->size() : count > a.rank()) return;
  for (std::int64_t i = 0; i < count; ++i) {
    std::int64_t& v = (*s)[static_cast<std::size_t>(i)];
    const std::int64_t axis = axes ? (*axes)[static_cast<std::size_t>(i)] : a.rank() - count + i;
    if (v == -1) v = a.shape()[static_cast<std::size_t>(axis)];
  }
}

// fftn-style (s, axes); the 2-D variants default axes to the last two, and an explicit
// axes=None means every axis there too (NumPy's fft2(a, axes=None) is fftn(a)).
template <class T, FftNAxes<T> F>
void def_fft_n(nb::module_& f, const char* name, bool two_d) {
  f.def(
      name,
      [](const T& a, nb::handle s, nb::handle axes, nb::handle norm) {
        fft::Lengths sl, al;
        if (!s.is_none()) sl = shape_arg(s, "fft");
        if (!axes.is_none()) {
          al = int_list_arg(axes, "fft", "axis");
          for (std::int64_t& x : *al) x = normalize_axis(x, a.rank(), "fft");
        }
        whole_axis_lengths(a, sl, al);
        const fft::Norm nm = norm_of(norm);
        return released([&] { return F(a, sl, al, nm); });
      },
      nb::arg("a"), nb::arg("s").none() = nb::none(),
      nb::arg("axes").none() = two_d ? nb::object(nb::make_tuple(-2, -1)) : nb::object(nb::none()),
      nb::arg("norm").none() = nb::none());
}

// The family: fft, ifft, rfft, irfft (one axis) and their n-D and 2-D forms.
template <class T, FftOneAxis<T> Fft, FftOneAxis<T> Ifft, FftOneAxis<T> Rfft, FftOneAxis<T> Irfft,
          FftNAxes<T> Fftn, FftNAxes<T> Ifftn, FftNAxes<T> Rfftn, FftNAxes<T> Irfftn>
void def_fft_family(nb::module_& f) {
  def_fft_one<T, Fft>(f, "fft");
  def_fft_one<T, Ifft>(f, "ifft");
  def_fft_one<T, Rfft>(f, "rfft");
  def_fft_one<T, Irfft>(f, "irfft");
  def_fft_n<T, Fftn>(f, "fftn", false);
  def_fft_n<T, Ifftn>(f, "ifftn", false);
  def_fft_n<T, Rfftn>(f, "rfftn", false);
  def_fft_n<T, Irfftn>(f, "irfftn", false);
  def_fft_n<T, Fftn>(f, "fft2", true);
  def_fft_n<T, Ifftn>(f, "ifft2", true);
  def_fft_n<T, Rfftn>(f, "rfft2", true);
  def_fft_n<T, Irfftn>(f, "irfft2", true);
}

}  // namespace tenferro::python
