// Discrete Fourier transforms with NumPy's semantics (numpy.fft):
//   auto y = tenferro::fft::fft(x);                       // last axis, backward norm
//   auto z = tenferro::fft::irfftn(y, {{64, 64}}, {{0, 1}}, tenferro::fft::Norm::Ortho);
// One-axis ops take (n, axis, norm); n-axis ops take (s, axes, norm). `n`/`s` truncate or
// zero-pad the input along the transformed axes. A real input to fft/ifft/fftn/ifftn/irfft/
// irfftn is promoted to the complex dtype of the same precision; rfft/rfftn need a real input.
// Deviations from NumPy: repeated axes and an empty axis list are Validation errors.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "tenferro/runtime/admission.hpp"
#include "tenferro/runtime/eager_tensor.hpp"

// The public API: exported from the shared library (the rest of it is hidden).
#pragma GCC visibility push(default)

namespace tenferro::fft {

// Which direction carries the 1/n factor: "backward" (the inverse), "forward" (the forward
// transform) or "ortho" (1/sqrt(n) on both).
enum class Norm : std::uint8_t { Backward, Forward, Ortho };
std::string_view norm_name(Norm norm);              // "backward", "forward", "ortho"
bool parse_norm(std::string_view text, Norm& out);  // false when unknown

using Lengths = std::optional<std::vector<std::int64_t>>;

EagerTensor fft(const EagerTensor& x, std::optional<std::int64_t> n = std::nullopt,
                std::int64_t axis = -1, Norm norm = Norm::Backward);
EagerTensor ifft(const EagerTensor& x, std::optional<std::int64_t> n = std::nullopt,
                 std::int64_t axis = -1, Norm norm = Norm::Backward);
// Real input -> the n/2+1 non-negative frequencies.
EagerTensor rfft(const EagerTensor& x, std::optional<std::int64_t> n = std::nullopt,
                 std::int64_t axis = -1, Norm norm = Norm::Backward);
// One-sided spectrum -> real signal of length n (default 2*(len-1)).
EagerTensor irfft(const EagerTensor& x, std::optional<std::int64_t> n = std::nullopt,
                  std::int64_t axis = -1, Norm norm = Norm::Backward);

// `axes` defaults to all axes, or to the last len(s) axes when `s` is given; `s` defaults to
// the input's extents (irfftn: 2*(len-1) on the last axis). An entry -1 in `s` keeps the default.
EagerTensor fftn(const EagerTensor& x, Lengths s = std::nullopt, Lengths axes = std::nullopt,
                 Norm norm = Norm::Backward);
EagerTensor ifftn(const EagerTensor& x, Lengths s = std::nullopt, Lengths axes = std::nullopt,
                  Norm norm = Norm::Backward);
EagerTensor rfftn(const EagerTensor& x, Lengths s = std::nullopt, Lengths axes = std::nullopt,
                  Norm norm = Norm::Backward);
EagerTensor irfftn(const EagerTensor& x, Lengths s = std::nullopt, Lengths axes = std::nullopt,
                   Norm norm = Norm::Backward);

}  // namespace tenferro::fft

namespace tenferro::fft_family {
inline constexpr std::string_view kFamily = "tenferro.fft.v1";
// Ops "fft ifft rfft irfft fftn ifftn rfftn irfftn", keyed by the input dtype.
const AdmissionTable& admission_table();
}  // namespace tenferro::fft_family

#pragma GCC visibility pop
