// VJP/JVP rules of fft and ifft. Both are linear, y = F_norm P_n x (P_n truncates or
// zero-pads the axis to n), so the JVP is the op itself and the VJP its adjoint
// P_n^T F_norm^H: the adjoint of fft with norm "backward" (unscaled) is the unscaled inverse,
// i.e. ifft with norm "forward", and vice versa; "ortho" is unitary. P_n^T truncates where P_n
// padded and pads where it truncated.
#include "ad/helpers.hpp"
#include "ad/tape.hpp"

namespace tenferro::ad {
namespace {
using T = EagerTensor;

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

// g's axis brought back to length `len` (truncated, or zero-padded at the end).
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

template <class Op, class Adjoint>
Variable linear_fft(std::string name, const Variable& x, std::optional<std::int64_t> n,
                    std::int64_t axis, fft::Norm norm, Op op, Adjoint adjoint_op) {
  T y = op(x.value(), n, axis, norm);
  const auto ax = static_cast<std::size_t>(axis < 0 ? axis + x.rank() : axis);
  const std::int64_t len = x.shape()[ax];
  return record1(
      std::move(name), std::span<const Variable>(&x, 1), y,
      [=](std::span<const T> g, const std::vector<bool>&) {
        return std::vector<T>{
            resize_axis(adjoint_op(g[0], std::nullopt, axis, dual(norm)), ax, len)};
      },
      [=](std::span<const T> t) { return std::vector<T>{op(t[0], n, axis, norm)}; });
}
}  // namespace

Variable fft(const Variable& x, std::optional<std::int64_t> n, std::int64_t axis, fft::Norm norm) {
  return linear_fft(
      "fft", x, n, axis, norm,
      [](const T& v, std::optional<std::int64_t> m, std::int64_t a, fft::Norm k) {
        return fft::fft(v, m, a, k);
      },
      [](const T& v, std::optional<std::int64_t> m, std::int64_t a, fft::Norm k) {
        return fft::ifft(v, m, a, k);
      });
}

Variable ifft(const Variable& x, std::optional<std::int64_t> n, std::int64_t axis, fft::Norm norm) {
  return linear_fft(
      "ifft", x, n, axis, norm,
      [](const T& v, std::optional<std::int64_t> m, std::int64_t a, fft::Norm k) {
        return fft::ifft(v, m, a, k);
      },
      [](const T& v, std::optional<std::int64_t> m, std::int64_t a, fft::Norm k) {
        return fft::fft(v, m, a, k);
      });
}

}  // namespace tenferro::ad
