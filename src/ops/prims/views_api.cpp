// The prims views: new layouts over the same buffer (no kernel, no allocation), and the joins
// (concatenate/stack) that copy into one new output on the device.
#include <algorithm>
#include <numeric>
#include <string>

#include "ops/prims/registration.hpp"
#include "ops/prims/resolve.hpp"
#include "tenferro/prims.hpp"

namespace tenferro::prims {
namespace {

EagerTensor with_layout(const EagerTensor& x, TensorLayout layout) {
  return EagerTensor(x.runtime(), x.buffer(), std::move(layout));
}

// Strides for `to` over the same elements as `from` (column-major order), or nullopt when the
// old strides cannot express it without a copy. Size-1 axes are ignored on the way in and get
// the stride they would have in a compact layout on the way out.
std::optional<Strides> view_strides(const TensorLayout& from, const Shape& to) {
  Shape old_shape;
  Strides old_strides;
  for (std::size_t i = 0; i < from.shape.size(); ++i) {
    if (from.shape[i] != 1) {
      old_shape.push_back(from.shape[i]);
      old_strides.push_back(from.strides[i]);
    }
  }
  Strides out(to.size(), 0);
  std::size_t oi = 0, ni = 0;
  while (ni < to.size() || oi < old_shape.size()) {
    // A new size-1 axis takes no old axis.
    if (ni < to.size() && to[ni] == 1) {
      out[ni] = ni == 0 ? 1 : out[ni - 1] * std::max<std::int64_t>(to[ni - 1], 1);
      ++ni;
      continue;
    }
    if (ni >= to.size() || oi >= old_shape.size()) return std::nullopt;
    // The smallest groups [oi, oj) and [ni, nj) with equal element counts.
    std::size_t oj = oi + 1, nj = ni + 1;
    std::int64_t op = old_shape[oi], np = to[ni];
    while (op != np) {
      if (op < np) {
        if (oj >= old_shape.size()) return std::nullopt;
        op *= old_shape[oj++];
      } else {
        if (nj >= to.size()) return std::nullopt;
        np *= to[nj++];
      }
    }
    // The old group must be one strided run in column-major order.
    for (std::size_t k = oi; k + 1 < oj; ++k) {
      if (old_strides[k + 1] != old_strides[k] * old_shape[k]) return std::nullopt;
    }
    out[ni] = old_strides[oi];
    for (std::size_t k = ni + 1; k < nj; ++k) out[k] = out[k - 1] * to[k - 1];
    oi = oj;
    ni = nj;
  }
  return out;
}

}  // namespace

EagerTensor permute(const EagerTensor& x, std::span<const std::int64_t> perm) {
  prims_internal::require_defined("permute", x);
  return x.permute(perm);
}

EagerTensor transpose(const EagerTensor& x, std::int64_t axis_a, std::int64_t axis_b) {
  prims_internal::require_defined("transpose", x);
  const std::int64_t a = prims_internal::normalize_axis("transpose", axis_a, x.rank());
  const std::int64_t b = prims_internal::normalize_axis("transpose", axis_b, x.rank());
  std::vector<std::int64_t> perm(static_cast<std::size_t>(x.rank()));
  std::iota(perm.begin(), perm.end(), 0);
  std::swap(perm[static_cast<std::size_t>(a)], perm[static_cast<std::size_t>(b)]);
  return x.permute(perm);
}

namespace {

// `shape` with its -1 extent inferred, checked to hold x's elements.
Shape resolved_reshape(const EagerTensor& x, Shape shape) {
  prims_internal::require_defined("reshape", x);
  const std::int64_t n = x.numel();
  std::int64_t known = 1;
  std::size_t inferred = shape.size();
  for (std::size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] == -1) {
      if (inferred != shape.size()) throw_validation("reshape", "at most one extent may be -1");
      inferred = i;
    } else if (shape[i] < 0) {
      throw_validation("reshape", "extent " + std::to_string(shape[i]) + " at axis " +
                                      std::to_string(i) + " is negative");
    } else {
      known = known * shape[i];
    }
  }
  if (inferred != shape.size()) {
    if (known == 0 || n % known != 0) {
      throw_validation("reshape", "cannot infer the -1 extent: " + std::to_string(n) +
                                      " elements into " + shape_to_string(shape));
    }
    shape[inferred] = n / known;
  }
  prims_internal::check_shape("reshape", shape, x.dtype());
  if (checked_numel(shape) != n) {
    throw_validation("reshape", "cannot reshape " + shape_to_string(x.shape()) + " (" +
                                    std::to_string(n) + " elements) into " +
                                    shape_to_string(shape));
  }
  return shape;
}

}  // namespace

EagerTensor reshape(const EagerTensor& x, Shape shape) {
  std::optional<EagerTensor> view = prims_internal::reshape_view(x, shape);
  if (!view) {
    throw_validation("reshape", "the strides of this " + shape_to_string(x.shape()) +
                                    " view cannot express shape " + shape_to_string(shape) +
                                    " without a copy; call prims::contiguous(x) first");
  }
  return std::move(*view);
}

EagerTensor slice(const EagerTensor& x, std::span<const Slice> slices) {
  prims_internal::require_defined("slice", x);
  if (static_cast<std::int64_t>(slices.size()) > x.rank()) {
    throw_validation("slice", std::to_string(slices.size()) + " slices for a tensor of rank " +
                                  std::to_string(x.rank()));
  }
  TensorLayout l = x.layout();
  for (std::size_t a = 0; a < slices.size(); ++a) {
    const Slice& s = slices[a];
    if (s.step <= 0) {
      throw_validation("slice", "step " + std::to_string(s.step) + " at axis " + std::to_string(a) +
                                    " must be positive");
    }
    const std::int64_t n = l.shape[a];
    const auto clamp = [n](std::optional<std::int64_t> v, std::int64_t fallback) {
      if (!v) return fallback;
      const std::int64_t i = *v < 0 ? *v + n : *v;
      return std::clamp<std::int64_t>(i, 0, n);
    };
    const std::int64_t start = clamp(s.start, 0), stop = clamp(s.stop, n);
    // (stop - start - 1) / step + 1, not (stop - start + step - 1) / step, which overflows for a
    // step near INT64_MAX (x[0:4:2**63-1] had no element, NumPy's has one). A stride times a
    // step that leaves at most one element is never used, and may overflow: kept as it is.
    const std::int64_t len = stop > start ? (stop - start - 1) / s.step + 1 : 0;
    if (len > 0) l.offset += start * l.strides[a];
    l.shape[a] = len;
    if (len > 1) l.strides[a] *= s.step;
  }
  return with_layout(x, std::move(l));
}

EagerTensor diagonal(const EagerTensor& x, std::int64_t offset, std::int64_t axis_a,
                     std::int64_t axis_b) {
  prims_internal::require_defined("diagonal", x);
  const auto a =
      static_cast<std::size_t>(prims_internal::normalize_axis("diagonal", axis_a, x.rank()));
  const auto b =
      static_cast<std::size_t>(prims_internal::normalize_axis("diagonal", axis_b, x.rank()));
  if (a == b)
    throw_validation("diagonal", "axis_a and axis_b must differ, both are " + std::to_string(a));
  const TensorLayout& in = x.layout();
  const std::int64_t rows = in.shape[a], cols = in.shape[b];
  const std::int64_t len = std::max<std::int64_t>(
      0, offset >= 0 ? std::min(rows, cols - offset) : std::min(rows + offset, cols));
  TensorLayout l;
  l.dtype = in.dtype;
  l.offset = in.offset;
  if (len > 0) l.offset += offset >= 0 ? offset * in.strides[b] : -offset * in.strides[a];
  for (std::size_t i = 0; i < in.shape.size(); ++i) {
    if (i == a || i == b) continue;
    l.shape.push_back(in.shape[i]);
    l.strides.push_back(in.strides[i]);
  }
  l.shape.push_back(len);
  l.strides.push_back(in.strides[a] + in.strides[b]);
  return with_layout(x, std::move(l));
}

EagerTensor broadcast_to(const EagerTensor& x, Shape shape) {
  prims_internal::require_defined("broadcast_to", x);
  prims_internal::check_shape("broadcast_to", shape, x.dtype());
  const Shape& from = x.shape();
  if (from.size() > shape.size()) {
    throw_validation("broadcast_to", "cannot broadcast " + shape_to_string(from) +
                                         " to the lower rank " + shape_to_string(shape));
  }
  const std::size_t lead = shape.size() - from.size();
  TensorLayout l;
  l.dtype = x.dtype();
  l.offset = x.layout().offset;
  l.shape = shape;
  l.strides.assign(shape.size(), 0);
  for (std::size_t i = 0; i < from.size(); ++i) {
    if (from[i] == shape[lead + i]) {
      l.strides[lead + i] = x.strides()[i];
    } else if (from[i] != 1) {
      throw_validation("broadcast_to", "cannot broadcast " + shape_to_string(from) + " to " +
                                           shape_to_string(shape) + ": axis " + std::to_string(i) +
                                           " has extent " + std::to_string(from[i]) +
                                           ", neither 1 nor " + std::to_string(shape[lead + i]));
    }
  }
  return with_layout(x, std::move(l));
}

EagerTensor contiguous(const EagerTensor& x) {
  prims_internal::require_defined("contiguous", x);
  if (x.layout().is_compact()) return x;
  return cast(x, x.dtype());
}

EagerTensor flip(const EagerTensor& x, std::optional<Axes> axes) {
  prims_internal::require_defined("flip", x);
  const prims_internal::PrimsOp op([&](prims_internal::PrimsPayload& p) {
    p.kind = prims_internal::PrimKind::Flip;
    p.reduced = prims_internal::axes_mask("flip", axes, x.rank());  // the flipped axes
    p.inputs.assign(std::span(&x, 1));
    p.out.dtype = x.dtype();
    p.out.shape = x.shape();
  });
  return prims_internal::run(op, std::span(&x, 1));
}

EagerTensor concatenate(std::span<const EagerTensor> xs, std::int64_t axis) {
  if (xs.empty()) throw_validation("concatenate", "needs at least one tensor");
  require_one_runtime("concatenate", xs, xs.size());
  const EagerTensor& first = xs[0];
  if (first.rank() == 0)
    throw_validation("concatenate", "0-d tensors cannot be concatenated; use stack");
  const auto ax =
      static_cast<std::size_t>(prims_internal::normalize_axis("concatenate", axis, first.rank()));
  DType dtype = first.dtype();
  Shape out = first.shape();
  out[ax] = 0;
  for (std::size_t i = 0; i < xs.size(); ++i) {
    const Shape& s = xs[i].shape();
    if (s.size() != first.shape().size()) {
      throw_validation("concatenate", "tensor " + std::to_string(i) + " has rank " +
                                          std::to_string(s.size()) + ", tensor 0 has rank " +
                                          std::to_string(first.rank()));
    }
    for (std::size_t d = 0; d < s.size(); ++d) {
      if (d != ax && s[d] != first.shape()[d]) {
        throw_validation("concatenate", "tensor " + std::to_string(i) + " has extent " +
                                            std::to_string(s[d]) + " at axis " + std::to_string(d) +
                                            ", tensor 0 has " + std::to_string(first.shape()[d]) +
                                            " (only axis " + std::to_string(ax) + " may differ)");
      }
    }
    // Checked: a wrapped sum (32 views of 2^59 elements) sized the output for what was left
    // (0 or a few elements) and the copies wrote past it.
    if (__builtin_add_overflow(out[ax], s[ax], &out[ax])) {
      throw_validation("concatenate", "the extents along axis " + std::to_string(ax) +
                                          " add up to more than 2^63 - 1 elements");
    }
    dtype = prims_internal::promote(dtype, xs[i].dtype());
  }
  prims_internal::check_shape("concatenate", out, dtype);
  std::vector<EagerTensor> in;
  in.reserve(xs.size());
  for (const EagerTensor& x : xs) in.push_back(prims_internal::kernel_operand(x, dtype));
  prims_internal::PrimsPayload p;
  p.kind = prims_internal::PrimKind::Cast;
  p.inputs.assign(in);
  p.out = {dtype, out};
  p.axis = static_cast<std::int64_t>(ax);
  if (in.size() == 1) p.axis = 0;  // one input: a plain copy (the executor's single-input form)
  return prims_internal::run_operands(xs[0].runtime(), prims_internal::PrimsOp(std::move(p)), in);
}

EagerTensor stack(std::span<const EagerTensor> xs, std::int64_t axis) {
  if (xs.empty()) throw_validation("stack", "needs at least one tensor");
  require_one_runtime("stack", xs, xs.size());
  const auto ax =
      static_cast<std::size_t>(prims_internal::normalize_axis("stack", axis, xs[0].rank() + 1));
  std::vector<EagerTensor> expanded;
  expanded.reserve(xs.size());
  for (std::size_t i = 0; i < xs.size(); ++i) {
    if (xs[i].shape() != xs[0].shape()) {
      throw_validation("stack", "tensor " + std::to_string(i) + " has shape " +
                                    shape_to_string(xs[i].shape()) + ", tensor 0 has " +
                                    shape_to_string(xs[0].shape()) + " (stack needs equal shapes)");
    }
    TensorLayout l = xs[i].layout();
    l.shape.insert(l.shape.begin() + static_cast<std::ptrdiff_t>(ax), 1);
    l.strides.insert(l.strides.begin() + static_cast<std::ptrdiff_t>(ax), 0);
    expanded.push_back(with_layout(xs[i], std::move(l)));
  }
  return concatenate(expanded, static_cast<std::int64_t>(ax));
}

}  // namespace tenferro::prims

namespace tenferro::prims_internal {

std::optional<EagerTensor> reshape_view(const EagerTensor& x, Shape shape) {
  shape = prims::resolved_reshape(x, std::move(shape));
  TensorLayout l = x.layout();
  std::optional<Strides> strides = x.numel() == 0 ? std::optional<Strides>(col_major_strides(shape))
                                                  : prims::view_strides(l, shape);
  if (!strides) return std::nullopt;
  l.shape = std::move(shape);
  l.strides = std::move(*strides);
  return prims::with_layout(x, std::move(l));
}

}  // namespace tenferro::prims_internal
