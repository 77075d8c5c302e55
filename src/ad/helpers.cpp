#include "ad/helpers.hpp"

#include <numeric>

#include "tenferro/einsum.hpp"

namespace tenferro::ad {
namespace {

DType promoted(DType a, DType b) {
  const bool c = is_complex(a) || is_complex(b);
  const bool d = is_double(a) || is_double(b);
  return c ? (d ? DType::C64 : DType::C32) : (d ? DType::F64 : DType::F32);
}

}  // namespace

EagerTensor add_opt(const EagerTensor& a, const EagerTensor& b) {
  if (!a.defined()) return b;
  if (!b.defined()) return a;
  return prims::add(a, b);
}

EagerTensor sum_to(const EagerTensor& g, const Shape& shape) {
  if (g.shape() == shape) return g;
  const auto lead = static_cast<std::int64_t>(g.shape().size() - shape.size());
  prims::Axes axes;
  for (std::int64_t i = 0; i < g.rank(); ++i) {
    if (i < lead || (shape[static_cast<std::size_t>(i - lead)] == 1 &&
                     g.shape()[static_cast<std::size_t>(i)] != 1)) {
      axes.push_back(i);
    }
  }
  // keepdims keeps the stretched axes as size 1; the leading ones go with the reshape.
  EagerTensor s = axes.empty() ? g : prims::sum(g, axes, /*keepdims=*/true);
  return reshape_any(s, shape);
}

EagerTensor to_dtype(const EagerTensor& x, DType to) {
  if (x.dtype() == to) return x;
  if (is_complex(x.dtype()) && !is_complex(to)) return prims::cast(prims::real(x), to);
  return prims::cast(x, to);
}

EagerTensor fit(const EagerTensor& g, const TensorMeta& like) {
  return to_dtype(sum_to(g, like.shape), like.dtype);
}

EagerTensor reshape_any(const EagerTensor& x, Shape shape) {
  if (x.shape() == shape) return x;
  return prims::reshape(prims::contiguous(x), std::move(shape));
}

EagerTensor matmul(const EagerTensor& a_in, const EagerTensor& b_in) {
  const DType d = promoted(a_in.dtype(), b_in.dtype());
  const EagerTensor a = to_dtype(a_in, d), b = to_dtype(b_in, d);
  EinsumLabels labels;
  labels.inputs = {{0, 1}, {1, 2}};
  labels.output = {0, 2};
  for (std::int64_t k = 2; k < a.rank(); ++k) {
    const int l = static_cast<int>(k + 1);
    labels.inputs[0].push_back(l);
    labels.inputs[1].push_back(l);
    labels.output.push_back(l);
  }
  const EagerTensor ops[] = {a, b};
  return einsum(labels, ops);
}

EagerTensor mtranspose(const EagerTensor& a) {
  return prims::transpose(a, 0, 1);
}

EagerTensor adjoint(const EagerTensor& a) {
  return is_complex(a.dtype()) ? prims::conj(mtranspose(a)) : mtranspose(a);
}

EagerTensor hermitian_part(const EagerTensor& a) {
  return prims::scale(prims::add(a, adjoint(a)), 0.5);
}

EagerTensor eye_batched(const EagerTensor& like, std::int64_t n, std::int64_t rank) {
  EagerTensor e = prims::eye(like.runtime(), like.dtype(), n);
  Shape s{n, n};
  s.resize(static_cast<std::size_t>(std::max<std::int64_t>(rank, 2)), 1);
  return reshape_any(e, s);
}

EagerTensor diag_embed(const EagerTensor& v) {
  const std::int64_t n = v.shape()[0];
  Shape s = v.shape();
  s.insert(s.begin() + 1, n);
  return prims::mul(as_col(v), eye_batched(v, n, static_cast<std::int64_t>(s.size())));
}

EagerTensor diag_part(const EagerTensor& a) {
  // prims::diagonal puts the diagonal last; bring it back to the front.
  EagerTensor d = prims::diagonal(a, 0, 0, 1);
  std::vector<std::int64_t> perm(static_cast<std::size_t>(d.rank()));
  perm[0] = d.rank() - 1;
  std::iota(perm.begin() + 1, perm.end(), 0);
  return prims::permute(d, perm);
}

EagerTensor as_row(const EagerTensor& v) {
  Shape s = v.shape();
  s.insert(s.begin(), 1);
  return reshape_any(v, s);
}

EagerTensor as_col(const EagerTensor& v) {
  Shape s = v.shape();
  s.insert(s.begin() + 1, 1);
  return reshape_any(v, s);
}

EagerTensor times_i(const EagerTensor& x) {
  const EagerTensor c = to_dtype(x, complex_dtype(x.dtype()));
  return prims::scale(c, prims::Scalar(0.0, 1.0));
}

EagerTensor real_inner(const EagerTensor& a, const EagerTensor& b) {
  const DType d = promoted(a.dtype(), b.dtype());
  EagerTensor p = prims::mul(prims::conj(to_dtype(a, d)), to_dtype(b, d));
  EagerTensor s = prims::sum(p);
  return is_complex(d) ? prims::real(s) : s;
}

}  // namespace tenferro::ad

namespace tenferro::ad {
namespace {
// (1 + sign(d - k + 1/2)) / 2 with d = j - i: 1 where j - i >= k, 0 elsewhere (exact in
// floating point: the argument is never 0).
EagerTensor band_mask(const EagerTensor& like, std::int64_t n, std::int64_t k, std::int64_t rank,
                      bool upper) {
  const DType d = real_dtype(like.dtype());
  EagerTensor idx = prims::arange(like.runtime(), d, 0.0, static_cast<double>(n));
  EagerTensor diff = prims::sub(as_row(idx), as_col(idx));  // j - i
  if (!upper) diff = prims::neg(diff);
  EagerTensor m = prims::scale(
      prims::shift(prims::sign(prims::shift(diff, -static_cast<double>(k) + 0.5)), 1.0), 0.5);
  Shape s{n, n};
  s.resize(static_cast<std::size_t>(std::max<std::int64_t>(rank, 2)), 1);
  return reshape_any(m, s);
}
}  // namespace

EagerTensor triu_mask(const EagerTensor& like, std::int64_t n, std::int64_t k, std::int64_t rank) {
  return band_mask(like, n, k, rank, true);
}
EagerTensor tril_mask(const EagerTensor& like, std::int64_t n, std::int64_t k, std::int64_t rank) {
  return band_mask(like, n, k, rank, false);
}

EagerTensor inverse_gaps(const EagerTensor& x, double eps) {
  const std::int64_t n = x.shape()[0];
  EagerTensor e = prims::sub(as_row(x), as_col(x));  // x_j - x_i
  EagerTensor denom = prims::add(prims::shift(prims::square(e), eps),
                                 eye_batched(e, n, e.rank()));  // 1 on the diagonal: no 0/0
  return prims::div(e, denom);
}
}  // namespace tenferro::ad
