// VJP/JVP rules of the eight FFT ops. Each is (real-)linear, so its JVP is the op itself on the
// tangent and its VJP the adjoint under Re<a, b>. With P the zero-padding/truncation to the
// transform lengths and F the DFT (scaled by the norm):
// - C2C (fft, ifft, fftn, ifftn): y = F P x, adjoint P^T F^H. F^H of the unscaled forward DFT
//   is the unscaled inverse, i.e. the opposite-direction op with the dual norm ("backward" <->
//   "forward", "ortho" unitary); P^T truncates where P padded and pads where it truncated.
// - R2C (rfft, rfftn): y = T F P x keeps n/2+1 bins of the last axis; adjoint P^T F^H T^T: pad
//   the bins back to n with zeros, inverse with the dual norm; the real part (x is real) is
//   taken by the reverse pass.
// - C2R (irfft, irfftn): x = Re(F^-1 of the Hermitian extension of y); each bin 0 < k < n/2
//   stands for itself and its mirror, so the adjoint is c o rfftn(g) with the dual norm, c = 1
//   at k = 0 (and at k = n/2 for even n), 2 elsewhere; the imaginary parts of those
//   self-mirrored bins do not reach x and get no gradient.
#include "ad/helpers.hpp"
#include "ad/tape.hpp"
#include "ops/fft/fft_spec.hpp"

namespace tenferro::ad {
namespace {
using T = EagerTensor;
using fft_internal::FftOpKind;
using fft_internal::FftRequest;
using fft_internal::Transform;

fft::Norm dual(fft::Norm n) {
  switch (n) {
    case fft::Norm::Backward:
      return fft::Norm::Forward;
    case fft::Norm::Forward:
      return fft::Norm::Backward;
    case fft::Norm::Ortho:
      break;
  }
  return fft::Norm::Ortho;
}

// g's axis brought to length `len` (truncated, or zero-padded at the end).
T resize_axis(const T& g, std::size_t axis, std::int64_t len) {
  const std::int64_t have = g.shape()[axis];
  if (have == len) return g;
  if (have > len) {
    std::vector<prims::Slice> cut(axis + 1);
    cut[axis] = prims::Slice{0, len, 1};
    return prims::slice(g, cut);
  }
  Shape pad = g.shape();
  pad[axis] = len - have;
  const T parts[] = {g, prims::zeros(g.runtime(), g.dtype(), pad)};
  return prims::concatenate(parts, static_cast<std::int64_t>(axis));
}

// The op the user called, on any input (for the primal and the JVP).
T call(const FftRequest& r, const T& x) {
  switch (r.kind) {
    case FftOpKind::Fft:
      return fft::fft(x, r.n, r.axis, r.norm);
    case FftOpKind::Ifft:
      return fft::ifft(x, r.n, r.axis, r.norm);
    case FftOpKind::Rfft:
      return fft::rfft(x, r.n, r.axis, r.norm);
    case FftOpKind::Irfft:
      return fft::irfft(x, r.n, r.axis, r.norm);
    case FftOpKind::Fftn:
      return fft::fftn(x, r.s, r.axes, r.norm);
    case FftOpKind::Ifftn:
      return fft::ifftn(x, r.s, r.axes, r.norm);
    case FftOpKind::Rfftn:
      return fft::rfftn(x, r.s, r.axes, r.norm);
    case FftOpKind::Irfftn:
      break;
  }
  return fft::irfftn(x, r.s, r.axes, r.norm);
}

// c: 1 for the self-mirrored bins (0, and n/2 for even n), 2 for the others; shaped to
// broadcast along `axis` of a rank-`rank` tensor.
T mirror_weights(const T& like, std::int64_t bins, std::int64_t n, std::size_t axis,
                 std::int64_t rank) {
  const DType d = real_dtype(like.dtype());
  std::vector<T> parts{prims::ones(like.runtime(), d, {1})};
  const std::int64_t nyquist = n % 2 == 0 ? 1 : 0;
  const std::int64_t doubled = bins - 1 - nyquist;
  if (doubled > 0) parts.push_back(prims::full(like.runtime(), d, {doubled}, 2.0));
  if (nyquist && bins > 1) parts.push_back(prims::ones(like.runtime(), d, {1}));
  T c = parts.size() == 1 ? parts[0] : prims::concatenate(parts, 0);
  Shape s(static_cast<std::size_t>(rank), 1);
  s[axis] = bins;
  return reshape_any(c, s);
}

Variable fft_rule(std::string name, const Variable& x, FftRequest request) {
  const T xv = x.value();
  const auto spec = fft_internal::resolve(request, xv.dtype(), xv.shape());
  T y = call(request, xv);
  const Shape in_shape = xv.shape();
  return record1(
      std::move(name), std::span<const Variable>(&x, 1), y,
      [spec, request, in_shape](std::span<const T> g, const std::vector<bool>&) {
        const std::vector<std::int64_t> axes = spec.axes;
        const fft::Norm norm = dual(request.norm);
        T r;
        if (spec.transform == Transform::C2C) {
          r = spec.forward ? fft::ifftn(g[0], std::nullopt, axes, norm)
                           : fft::fftn(g[0], std::nullopt, axes, norm);
        } else if (spec.transform == Transform::R2C) {
          const auto last = static_cast<std::size_t>(axes.back());
          r = fft::ifftn(resize_axis(g[0], last, spec.lengths.back()), std::nullopt, axes, norm);
        } else {
          const auto last = static_cast<std::size_t>(axes.back());
          r = fft::rfftn(g[0], std::nullopt, axes, norm);
          r = prims::mul(r,
                         mirror_weights(r, r.shape()[last], spec.lengths.back(), last, r.rank()));
        }
        for (auto a : axes)
          r = resize_axis(r, static_cast<std::size_t>(a), in_shape[static_cast<std::size_t>(a)]);
        return std::vector<T>{r};
      },
      [request](std::span<const T> t) { return std::vector<T>{call(request, t[0])}; });
}

FftRequest one_axis(FftOpKind kind, std::optional<std::int64_t> n, std::int64_t axis,
                    fft::Norm norm) {
  FftRequest r;
  r.kind = kind;
  r.n = n;
  r.axis = axis;
  r.norm = norm;
  return r;
}
FftRequest n_axes(FftOpKind kind, const fft::Lengths& s, const fft::Lengths& axes, fft::Norm norm) {
  FftRequest r;
  r.kind = kind;
  r.s = s;
  r.axes = axes;
  r.norm = norm;
  return r;
}
}  // namespace

Variable fft(const Variable& x, std::optional<std::int64_t> n, std::int64_t axis, fft::Norm norm) {
  return fft_rule("fft", x, one_axis(FftOpKind::Fft, n, axis, norm));
}
Variable ifft(const Variable& x, std::optional<std::int64_t> n, std::int64_t axis, fft::Norm norm) {
  return fft_rule("ifft", x, one_axis(FftOpKind::Ifft, n, axis, norm));
}
Variable rfft(const Variable& x, std::optional<std::int64_t> n, std::int64_t axis, fft::Norm norm) {
  return fft_rule("rfft", x, one_axis(FftOpKind::Rfft, n, axis, norm));
}
Variable irfft(const Variable& x, std::optional<std::int64_t> n, std::int64_t axis,
               fft::Norm norm) {
  return fft_rule("irfft", x, one_axis(FftOpKind::Irfft, n, axis, norm));
}
Variable fftn(const Variable& x, fft::Lengths s, fft::Lengths axes, fft::Norm norm) {
  return fft_rule("fftn", x, n_axes(FftOpKind::Fftn, s, axes, norm));
}
Variable ifftn(const Variable& x, fft::Lengths s, fft::Lengths axes, fft::Norm norm) {
  return fft_rule("ifftn", x, n_axes(FftOpKind::Ifftn, s, axes, norm));
}
Variable rfftn(const Variable& x, fft::Lengths s, fft::Lengths axes, fft::Norm norm) {
  return fft_rule("rfftn", x, n_axes(FftOpKind::Rfftn, s, axes, norm));
}
Variable irfftn(const Variable& x, fft::Lengths s, fft::Lengths axes, fft::Norm norm) {
  return fft_rule("irfftn", x, n_axes(FftOpKind::Irfftn, s, axes, norm));
}

}  // namespace tenferro::ad
