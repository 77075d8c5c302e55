// VJP/JVP rules of the prims reductions, the scan and the cast.
#include <algorithm>

#include "ad/helpers.hpp"
#include "ad/tape.hpp"
#include "tenferro/runtime/errors.hpp"

namespace tenferro::ad {
namespace {

using T = EagerTensor;

// The reduced axes, normalised (all axes for nullopt).
std::vector<std::int64_t> reduced_axes(const std::optional<Axes>& axes, std::int64_t rank) {
  std::vector<std::int64_t> r;
  if (!axes) {
    for (std::int64_t i = 0; i < rank; ++i) r.push_back(i);
    return r;
  }
  for (auto a : *axes) r.push_back(a < 0 ? a + rank : a);
  return r;
}

// A reduction's output brought back to the input's shape: size-1 axes reinserted (when not
// kept), then broadcast (a stride-0 view, no copy).
T expand_back(const T& y, const Shape& x_shape, const std::vector<std::int64_t>& axes) {
  Shape kept = x_shape;
  for (auto a : axes) kept[static_cast<std::size_t>(a)] = 1;
  return prims::broadcast_to(reshape_any(y, kept), x_shape);
}

// A reduction whose VJP is g_x = expand(g) * weight(x, y_expanded) and whose JVP is
// sum(t * conj-free weight) over the axes (weight real or holomorphic-derivative).
template <class Forward, class Weight>
Variable weighted(std::string op, const Variable& x, const std::optional<Axes>& axes, bool keepdims,
                  Forward forward, Weight weight) {
  T xv = x.value();
  T y = forward(xv, axes, keepdims);
  auto ax = reduced_axes(axes, xv.rank());
  return record1(
      std::move(op), std::span<const Variable>(&x, 1), y,
      [xv, y, ax, weight](std::span<const T> g, const std::vector<bool>&) {
        T w = weight(xv, expand_back(y, xv.shape(), ax));
        if (is_complex(w.dtype())) w = prims::conj(w);
        return std::vector<T>{prims::mul(expand_back(g[0], xv.shape(), ax), w)};
      },
      [xv, y, ax, axes, keepdims, weight](std::span<const T> t) {
        T w = weight(xv, expand_back(y, xv.shape(), ax));
        return std::vector<T>{prims::sum(prims::mul(t[0], w), axes, keepdims)};
      });
}

double count_of(const Shape& shape, const std::vector<std::int64_t>& axes) {
  double n = 1;
  for (auto a : axes) n *= static_cast<double>(shape[static_cast<std::size_t>(a)]);
  return n;
}

// Where x attains the reduction's extreme value, weighted 1/count so ties share equally (an
// equality, not the sign of x - y, which is NaN when the extreme is infinite).
T tie_weights(const T& x, const T& y_expanded, const std::vector<std::int64_t>& axes) {
  T hit = prims::equal(x, y_expanded);
  return prims::div(hit, prims::sum(hit, axes, /*keepdims=*/true));
}

}  // namespace

Variable sum(const Variable& x, std::optional<Axes> axes, bool keepdims) {
  T xv = x.value();
  auto ax = reduced_axes(axes, xv.rank());
  return record1(
      "sum", std::span<const Variable>(&x, 1), prims::sum(xv, axes, keepdims),
      [xv, ax](std::span<const T> g, const std::vector<bool>&) {
        return std::vector<T>{expand_back(g[0], xv.shape(), ax)};
      },
      [axes, keepdims](std::span<const T> t) {
        return std::vector<T>{prims::sum(t[0], axes, keepdims)};
      });
}

// A running sum is linear: its tangent is the running sum of the tangent, and its transpose the
// running sum taken from the other end (g_x[j] = sum over k >= j of g[k]).
Variable cumsum(const Variable& x, std::int64_t axis) {
  const Axes along{axis};
  return record1(
      "cumsum", std::span<const Variable>(&x, 1), prims::cumsum(x.value(), axis),
      [axis, along](std::span<const T> g, const std::vector<bool>&) {
        return std::vector<T>{prims::flip(prims::cumsum(prims::flip(g[0], along), axis), along)};
      },
      [axis](std::span<const T> t) { return std::vector<T>{prims::cumsum(t[0], axis)}; });
}

// A running product y_i = x_0 ... x_i, differentiated with zeros in x: with c_i the number of
// zeros among x_0..x_i and P the running product of x with its zeros replaced by 1,
//   dy_i / dx_j = P_i / x_j                         where c_i = 0 (no zero so far),
//               = P_i                               where c_i = 1 and x_j is that zero,
//               = 0                                 otherwise (some other factor is 0).
// So the tangent is P * cumsum(t / x) where c = 0 and P * t at the first zero (summed) where
// c = 1; the cotangent at j is the running sum from the other end of g * conj(P) over the
// outputs with c = 0, over conj(x_j), before the first zero, and of those with c = 1 at it.
// PyTorch's cumprod_backward makes the same split. Branches are selected, never multiplied by
// a 0/1 mask, so an Inf or NaN of a branch not taken does not leak. An infinite x_j before the
// first zero makes the quotients P_i / x_j NaN (inf / inf) where the derivative is finite, as
// in PyTorch and in prod's rule.
namespace {
// What cumprod's rules and prod's read, made when a rule runs (a forward call that is never
// differentiated builds none of it). `count` sums x's zero flags the way the product runs and
// `product` multiplies alike: along an axis (cumsum, cumprod) or over the reduced axes,
// expanded back to x's shape (sum, prod).
struct ProductSplit {
  T zero;        // zeros of x's dtype and shape
  T none_yet;    // 1 where no zero of x precedes or is at the output (real 0/1)
  T one_so_far;  // 1 where exactly one does
  T first_zero;  // 1 at that one zero
  T x1;          // x with its zeros replaced by 1
  T p;           // the product of x1

  template <class Count, class Product>
  ProductSplit(const T& x, Count count, Product product) {
    const DType real = real_dtype(x.dtype());
    const auto& rt = x.runtime();
    zero = prims::full(rt, x.dtype(), x.shape(), 0.0);
    const T is_zero = prims::equal(x, zero);
    const T zeros_so_far = count(is_zero);
    none_yet = prims::equal(zeros_so_far, prims::full(rt, real, x.shape(), 0.0));
    one_so_far = prims::equal(zeros_so_far, prims::full(rt, real, x.shape(), 1.0));
    first_zero = prims::mul(is_zero, one_so_far);
    x1 = prims::where(is_zero, prims::full(rt, x.dtype(), x.shape(), 1.0), x);
    p = product(x1);
  }
};

ProductSplit running_split(const T& x, std::int64_t axis) {
  return ProductSplit(
      x, [axis](const T& v) { return prims::cumsum(v, axis); },
      [axis](const T& v) { return prims::cumprod(v, axis); });
}
}  // namespace

Variable cumprod(const Variable& x, std::int64_t axis) {
  T xv = x.value();
  const Axes along{axis};
  const auto from_end = [axis, along](const T& v) {
    return prims::flip(prims::cumsum(prims::flip(v, along), axis), along);
  };
  return record1(
      "cumprod", std::span<const Variable>(&x, 1), prims::cumprod(xv, axis),
      [xv, axis, from_end](std::span<const T> g, const std::vector<bool>&) {
        const ProductSplit s = running_split(xv, axis);
        const T gp = prims::mul(g[0], prims::conj(s.p));
        const T before =
            prims::div(from_end(prims::where(s.none_yet, gp, s.zero)), prims::conj(s.x1));
        const T at = from_end(prims::where(s.one_so_far, gp, s.zero));
        return std::vector<T>{
            prims::where(s.none_yet, before, prims::where(s.first_zero, at, s.zero))};
      },
      [xv, axis](std::span<const T> t) {
        const ProductSplit s = running_split(xv, axis);
        const T before = prims::mul(s.p, prims::cumsum(prims::div(t[0], s.x1), axis));
        const T at = prims::mul(s.p, prims::cumsum(prims::where(s.first_zero, t[0], s.zero), axis));
        return std::vector<T>{
            prims::where(s.none_yet, before, prims::where(s.one_so_far, at, s.zero))};
      });
}

Variable mean(const Variable& x, std::optional<Axes> axes, bool keepdims) {
  T xv = x.value();
  auto ax = reduced_axes(axes, xv.rank());
  const double n = count_of(xv.shape(), ax);
  return record1(
      "mean", std::span<const Variable>(&x, 1), prims::mean(xv, axes, keepdims),
      [xv, ax, n](std::span<const T> g, const std::vector<bool>&) {
        return std::vector<T>{prims::scale(expand_back(g[0], xv.shape(), ax), 1.0 / n)};
      },
      [axes, keepdims](std::span<const T> t) {
        return std::vector<T>{prims::mean(t[0], axes, keepdims)};
      });
}

namespace {
// d prod / d x_i (holomorphic) for each entry of x, over the reduced axes `ax`, split as
// cumprod's (ProductSplit): prod / x_i where the output has no zero, the product of the others at
// its zero where it has one, 0 where it has more. Selected, never multiplied by a mask: prod / x_i
// alone gave 0 / 0 = NaN at a zero, whose derivative is finite (an adversarial sweep; PyTorch's
// prod_backward splits alike). An infinite entry still makes prod / x_i NaN.
T product_weights(const T& x, const std::vector<std::int64_t>& ax) {
  const Axes axes(ax.begin(), ax.end());
  const ProductSplit s(
      x, [&](const T& v) { return expand_back(prims::sum(v, axes, true), x.shape(), ax); },
      [&](const T& v) { return expand_back(prims::prod(v, axes, true), x.shape(), ax); });
  return prims::where(s.none_yet, prims::div(s.p, s.x1), prims::where(s.first_zero, s.p, s.zero));
}
}  // namespace

Variable prod(const Variable& x, std::optional<Axes> axes, bool keepdims) {
  auto ax = reduced_axes(axes, x.rank());
  return weighted(
      "prod", x, axes, keepdims,
      [](const T& v, const std::optional<Axes>& a, bool k) { return prims::prod(v, a, k); },
      [ax](const T& v, const T&) { return product_weights(v, ax); });
}

Variable max(const Variable& x, std::optional<Axes> axes, bool keepdims) {
  auto ax = reduced_axes(axes, x.rank());
  return weighted(
      "max", x, axes, keepdims,
      [](const T& v, const std::optional<Axes>& a, bool k) { return prims::max(v, a, k); },
      [ax](const T& v, const T& ye) { return tie_weights(v, ye, ax); });
}

Variable min(const Variable& x, std::optional<Axes> axes, bool keepdims) {
  auto ax = reduced_axes(axes, x.rank());
  return weighted(
      "min", x, axes, keepdims,
      [](const T& v, const std::optional<Axes>& a, bool k) { return prims::min(v, a, k); },
      [ax](const T& v, const T& ye) { return tie_weights(v, ye, ax); });
}

Variable norm(const Variable& x, std::optional<Axes> axes, bool keepdims) {
  T xv = x.value();
  T y = prims::norm(xv, axes, keepdims);
  auto ax = reduced_axes(axes, xv.rank());
  // |x| = sqrt(sum |x_i|^2): g_x = g x / |x|, d|x| = Re sum conj(x) dx / |x|. A zero vector
  // divides by 1 instead (its x is 0, so the gradient is the subgradient 0, as abs's at 0 and
  // PyTorch's; g / 0 times x = 0 was NaN).
  const T safe = prims::add(y, prims::equal(y, prims::zeros(y.runtime(), y.dtype(), y.shape())));
  return record1(
      "norm", std::span<const Variable>(&x, 1), y,
      [xv, safe, ax](std::span<const T> g, const std::vector<bool>&) {
        return std::vector<T>{prims::mul(xv, expand_back(prims::div(g[0], safe), xv.shape(), ax))};
      },
      [xv, safe, axes, keepdims](std::span<const T> t) {
        T p = prims::mul(is_complex(xv.dtype()) ? prims::conj(xv) : xv, t[0]);
        if (is_complex(p.dtype())) p = prims::real(p);
        return std::vector<T>{prims::div(prims::sum(p, axes, keepdims), safe)};
      });
}

Variable cast(const Variable& x, DType to) {
  // The cotangent goes back through fit(): real part and precision of the input.
  return record1(
      "cast", std::span<const Variable>(&x, 1), prims::cast(x.value(), to),
      [](std::span<const T> g, const std::vector<bool>&) { return std::vector<T>{g[0]}; },
      [to](std::span<const T> t) { return std::vector<T>{prims::cast(t[0], to)}; });
}

}  // namespace tenferro::ad
