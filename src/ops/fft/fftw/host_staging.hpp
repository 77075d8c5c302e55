// Host-side helpers of the FFTW executor: the explicit staging copy that zero-pads,
// truncates and promotes real to complex, and the normalization pass.
#pragma once

#include "tenferro/core/tensor.hpp"

namespace tenferro::fft_internal {

// Copies the overlap (per-axis minimum extent) of `src` into `dst`, converting real to complex
// when the dtypes differ (same precision). `dst` elements outside the overlap are untouched.
void copy_overlap(const Tensor& src, Tensor& dst);

// Multiplies every element of the compact tensor `t` by `factor`.
void scale_in_place(Tensor& t, double factor);

}  // namespace tenferro::fft_internal
