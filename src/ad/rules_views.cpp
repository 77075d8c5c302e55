// VJP/JVP rules of the prims views and joins. The views' cotangents are the inverse layouts;
// slice and diagonal scatter the cotangent back into zeros with eager ops (no host access).
#include <algorithm>
#include <numeric>

#include "ad/helpers.hpp"
#include "ad/tape.hpp"
#include "tenferro/einsum.hpp"
#include "tenferro/runtime/errors.hpp"

namespace tenferro::ad {
namespace {

using T = EagerTensor;

T zeros_shaped(const T& like, Shape shape) {
  return prims::zeros(like.runtime(), like.dtype(), std::move(shape));
}

// One axis of a slice's cotangent: g (n_out entries along `axis`) placed at start, start +
// step, ... of an axis of extent n, zeros elsewhere. Stacking g with step - 1 zero blocks on a
// new axis before `axis` and merging the two (column-major: the new axis runs fastest)
// interleaves the zeros; then trim and pad with zeros.
T unslice_axis(const T& g, std::size_t axis, std::int64_t n, std::int64_t start,
               std::int64_t step) {
  const std::int64_t n_out = g.shape()[axis];
  T spread = g;
  if (step > 1 && n_out > 0) {
    std::vector<T> parts{g};
    for (std::int64_t k = 1; k < step; ++k)
      parts.push_back(prims::zeros(g.runtime(), g.dtype(), g.shape()));
    T stacked = prims::stack(parts, static_cast<std::int64_t>(axis));
    Shape merged = g.shape();
    merged[axis] = step * n_out;
    spread = reshape_any(stacked, merged);
    const std::int64_t keep = std::min(n - start, step * n_out);
    std::vector<prims::Slice> cut(axis + 1);
    cut[axis] = prims::Slice{0, keep, 1};
    spread = prims::slice(spread, cut);
  }
  const std::int64_t len = spread.shape()[axis];
  std::vector<T> pieces;
  if (start > 0) {
    Shape s = spread.shape();
    s[axis] = start;
    pieces.push_back(zeros_shaped(spread, s));
  }
  pieces.push_back(spread);
  if (n - start - len > 0) {
    Shape s = spread.shape();
    s[axis] = n - start - len;
    pieces.push_back(zeros_shaped(spread, s));
  }
  return pieces.size() == 1 ? spread : prims::concatenate(pieces, static_cast<std::int64_t>(axis));
}

}  // namespace

Variable permute(const Variable& x, std::span<const std::int64_t> perm) {
  std::vector<std::int64_t> p(perm.begin(), perm.end()), inverse(perm.size());
  for (std::size_t i = 0; i < p.size(); ++i) {
    const std::int64_t a = p[i] < 0 ? p[i] + x.rank() : p[i];
    if (a >= 0 && a < x.rank()) inverse[static_cast<std::size_t>(a)] = static_cast<std::int64_t>(i);
  }
  return record1(
      "permute", std::span<const Variable>(&x, 1), prims::permute(x.value(), p),
      [inverse](std::span<const T> g, const std::vector<bool>&) {
        return std::vector<T>{prims::permute(g[0], inverse)};
      },
      [p](std::span<const T> t) { return std::vector<T>{prims::permute(t[0], p)}; });
}

Variable transpose(const Variable& x, std::int64_t axis_a, std::int64_t axis_b) {
  return record1(
      "transpose", std::span<const Variable>(&x, 1), prims::transpose(x.value(), axis_a, axis_b),
      [axis_a, axis_b](std::span<const T> g, const std::vector<bool>&) {
        return std::vector<T>{prims::transpose(g[0], axis_a, axis_b)};
      },
      [axis_a, axis_b](std::span<const T> t) {
        return std::vector<T>{prims::transpose(t[0], axis_a, axis_b)};
      });
}

Variable reshape(const Variable& x, Shape shape) {
  T y = reshape_any(x.value(), std::move(shape));
  Shape in = x.shape(), out = y.shape();
  return record1(
      "reshape", std::span<const Variable>(&x, 1), y,
      [in](std::span<const T> g, const std::vector<bool>&) {
        return std::vector<T>{reshape_any(g[0], in)};
      },
      [out](std::span<const T> t) { return std::vector<T>{reshape_any(t[0], out)}; });
}

Variable slice(const Variable& x, std::span<const prims::Slice> slices) {
  std::vector<prims::Slice> s(slices.begin(), slices.end());
  T y = prims::slice(x.value(), s);
  // The normalised starts, as prims::slice resolves them (Python's clamping).
  Shape in = x.shape();
  std::vector<std::int64_t> starts;
  for (std::size_t a = 0; a < s.size(); ++a) {
    const std::int64_t n = in[a];
    std::int64_t i = s[a].start.value_or(0);
    if (i < 0) i += n;
    starts.push_back(std::clamp<std::int64_t>(i, 0, n));
  }
  return record1(
      "slice", std::span<const Variable>(&x, 1), y,
      [s, in, starts](std::span<const T> g, const std::vector<bool>&) {
        T r = g[0];
        for (std::size_t a = 0; a < s.size(); ++a) {
          if (r.shape()[a] == in[a]) continue;  // the whole axis
          r = unslice_axis(r, a, in[a], starts[a], s[a].step);
        }
        return std::vector<T>{r};
      },
      [s](std::span<const T> t) { return std::vector<T>{prims::slice(t[0], s)}; });
}

Variable diagonal(const Variable& x, std::int64_t offset, std::int64_t axis_a,
                  std::int64_t axis_b) {
  T xv = x.value();
  T y = prims::diagonal(xv, offset, axis_a, axis_b);
  const std::int64_t rank = xv.rank();
  const std::int64_t a = axis_a < 0 ? axis_a + rank : axis_a;
  const std::int64_t b = axis_b < 0 ? axis_b + rank : axis_b;
  return record1(
      "diagonal", std::span<const Variable>(&x, 1), y,
      [xv, offset, a, b, rank](std::span<const T> g, const std::vector<bool>&) {
        // x[.., i, .., j, ..] gets g[.., k] where i = k + r0 and j = k + c0: an einsum with the
        // 0/1 matrices P[i, k] and Q[j, k] (rectangular identities, shifted).
        const std::int64_t len = g[0].shape().back();
        const std::int64_t r0 = offset >= 0 ? 0 : -offset, c0 = offset >= 0 ? offset : 0;
        const std::int64_t rows = xv.shape()[static_cast<std::size_t>(a)];
        const std::int64_t cols = xv.shape()[static_cast<std::size_t>(b)];
        T p = prims::eye(g[0].runtime(), g[0].dtype(), rows, len, -r0);
        T q = prims::eye(g[0].runtime(), g[0].dtype(), cols, len, -c0);
        const int k = static_cast<int>(rank);  // the diagonal's label
        EinsumLabels labels;
        std::vector<int> glabels, out;
        for (int i = 0; i < static_cast<int>(rank); ++i) {
          out.push_back(i);
          if (i != a && i != b) glabels.push_back(i);
        }
        glabels.push_back(k);
        labels.inputs = {glabels, {static_cast<int>(a), k}, {static_cast<int>(b), k}};
        labels.output = out;
        const T ops[] = {g[0], p, q};
        return std::vector<T>{einsum(labels, ops)};
      },
      [offset, axis_a, axis_b](std::span<const T> t) {
        return std::vector<T>{prims::diagonal(t[0], offset, axis_a, axis_b)};
      });
}

Variable broadcast_to(const Variable& x, Shape shape) {
  Shape out = shape;
  return record1(
      "broadcast_to", std::span<const Variable>(&x, 1), prims::broadcast_to(x.value(), shape),
      [](std::span<const T> g, const std::vector<bool>&) { return std::vector<T>{g[0]}; },
      [out](std::span<const T> t) { return std::vector<T>{prims::broadcast_to(t[0], out)}; });
}

Variable contiguous(const Variable& x) {
  return record1(
      "contiguous", std::span<const Variable>(&x, 1), prims::contiguous(x.value()),
      [](std::span<const T> g, const std::vector<bool>&) { return std::vector<T>{g[0]}; },
      [](std::span<const T> t) { return std::vector<T>{prims::contiguous(t[0])}; });
}

// A reversal is its own adjoint: the cotangent and the tangent are flipped along the same axes.
Variable flip(const Variable& x, std::optional<Axes> axes) {
  return record1(
      "flip", std::span<const Variable>(&x, 1), prims::flip(x.value(), axes),
      [axes](std::span<const T> g, const std::vector<bool>&) {
        return std::vector<T>{prims::flip(g[0], axes)};
      },
      [axes](std::span<const T> t) { return std::vector<T>{prims::flip(t[0], axes)}; });
}

namespace {

std::vector<T> values_of(std::span<const Variable> xs) {
  std::vector<T> v;
  for (const auto& x : xs) v.push_back(x.value());
  return v;
}

// Tangents with zeros for the undefined ones (a join needs every piece).
std::vector<T> filled(std::span<const T> t, const std::vector<T>& like) {
  std::vector<T> r;
  for (std::size_t i = 0; i < t.size(); ++i) {
    r.push_back(t[i].defined() ? t[i]
                               : prims::zeros(like[i].runtime(), like[i].dtype(), like[i].shape()));
  }
  return r;
}

}  // namespace

Variable concatenate(std::span<const Variable> xs, std::int64_t axis) {
  auto vals = values_of(xs);
  T y = prims::concatenate(vals, axis);
  const std::int64_t ax = axis < 0 ? axis + y.rank() : axis;
  return record(
      "concatenate", xs, {y},
      [vals, ax](std::span<const T> g, const std::vector<bool>& needs) {
        std::vector<T> r(vals.size());
        std::int64_t off = 0;
        for (std::size_t i = 0; i < vals.size(); ++i) {
          const std::int64_t n = vals[i].shape()[static_cast<std::size_t>(ax)];
          if (needs[i]) {
            std::vector<prims::Slice> cut(static_cast<std::size_t>(ax) + 1);
            cut[static_cast<std::size_t>(ax)] = prims::Slice{off, off + n, 1};
            r[i] = prims::slice(g[0], cut);
          }
          off += n;
        }
        return r;
      },
      [vals, axis](std::span<const T> t) {
        return std::vector<T>{prims::concatenate(filled(t, vals), axis)};
      })[0];
}

Variable stack(std::span<const Variable> xs, std::int64_t axis) {
  auto vals = values_of(xs);
  T y = prims::stack(vals, axis);
  const std::int64_t ax = axis < 0 ? axis + y.rank() : axis;
  return record(
      "stack", xs, {y},
      [vals, ax](std::span<const T> g, const std::vector<bool>& needs) {
        std::vector<T> r(vals.size());
        for (std::size_t i = 0; i < vals.size(); ++i) {
          if (!needs[i]) continue;
          std::vector<prims::Slice> cut(static_cast<std::size_t>(ax) + 1);
          const auto k = static_cast<std::int64_t>(i);
          cut[static_cast<std::size_t>(ax)] = prims::Slice{k, k + 1, 1};
          r[i] = reshape_any(prims::slice(g[0], cut), vals[i].shape());
        }
        return r;
      },
      [vals, axis](std::span<const T> t) {
        return std::vector<T>{prims::stack(filled(t, vals), axis)};
      })[0];
}

}  // namespace tenferro::ad
