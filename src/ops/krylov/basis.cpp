#include "ops/krylov/basis.hpp"

#include <array>
#include <cmath>

#include "tenferro/einsum.hpp"
#include "tenferro/prims.hpp"

namespace tenferro::krylov_internal {
namespace {

EagerTensor as_column(const EagerTensor& v) {
  return prims::reshape(v, Shape{v.numel(), 1});
}

}  // namespace

EagerTensor Basis::leading(std::int64_t cols) const {
  if (cols == size_) return matrix_;
  const std::array<prims::Slice, 2> s{prims::Slice{}, prims::Slice{0, cols, 1}};
  return prims::slice(matrix_, s);
}

EagerTensor Basis::column(std::int64_t i) const {
  if (i == size_ - 1 && last_.defined()) return last_;  // the next Lanczos/Arnoldi vector
  const std::array<prims::Slice, 2> s{prims::Slice{}, prims::Slice{i, i + 1, 1}};
  return prims::reshape(prims::contiguous(prims::slice(matrix_, s)), Shape{space_.dim()});
}

void Basis::reset(const EagerTensor& unit) {
  matrix_ = prims::contiguous(as_column(unit));
  last_ = unit;
  size_ = 1;
}

void Basis::append(const EagerTensor& unit) {
  const std::array<EagerTensor, 2> parts{matrix_, as_column(unit)};
  matrix_ = prims::concatenate(parts, 1);
  last_ = unit;
  ++size_;
}

void Basis::rotate(const std::vector<cplx>& c, std::int64_t cols, std::int64_t p,
                   const EagerTensor& next) {
  const EagerTensor coeffs = space_.write(c, cols, p);
  matrix_ = einsum("nj,jp->np", {leading(cols), coeffs});
  last_ = EagerTensor();
  size_ = p;
  if (next.defined()) append(next);
}

EagerTensor Basis::combine(const std::vector<cplx>& y, std::int64_t cols) const {
  const EagerTensor coeffs = prims::reshape(space_.write(y, cols, 1), Shape{cols});
  return einsum("nj,j->n", {leading(cols), coeffs});
}

std::vector<EagerTensor> Basis::combine_columns(const std::vector<cplx>& y, std::int64_t cols,
                                                std::int64_t p) const {
  const EagerTensor coeffs = space_.write(y, cols, p);
  const EagerTensor x = einsum("nj,jp->np", {leading(cols), coeffs});
  std::vector<EagerTensor> out;
  out.reserve(static_cast<std::size_t>(p));
  for (std::int64_t i = 0; i < p; ++i) {
    const std::array<prims::Slice, 2> s{prims::Slice{}, prims::Slice{i, i + 1, 1}};
    out.push_back(prims::reshape(prims::contiguous(prims::slice(x, s)), Shape{space_.dim()}));
  }
  return out;
}

bool Projection::invariant(double eps) const {
  double norm2 = beta * beta;
  for (const cplx& c : h) norm2 += std::norm(c);
  return beta <= 10 * eps * std::sqrt(norm2);
}

Projection Basis::orthogonalize(const EagerTensor& w0) const {
  // h = V^H w, computed as conj(w^H V) so that only the vector (not the basis) is conjugated.
  auto coefficients = [&](const EagerTensor& w) {
    if (!space_.complex()) return einsum("n,nj->j", {w, matrix_});
    return prims::conj(einsum("n,nj->j", {prims::conj(w), matrix_}));
  };
  EagerTensor w = w0;
  const EagerTensor h1 = coefficients(w);
  w = w - einsum("nj,j->n", {matrix_, h1});
  const EagerTensor h2 = coefficients(w);
  w = w - einsum("nj,j->n", {matrix_, h2});
  const EagerTensor h = h1 + h2;
  const EagerTensor beta = prims::reshape(prims::cast(prims::norm(w), space_.dtype()), Shape{1});
  const std::array<EagerTensor, 2> parts{h, beta};
  std::vector<cplx> values = space_.read(prims::concatenate(parts, 0));
  Projection out;
  out.beta = values.back().real();
  values.pop_back();
  out.h = std::move(values);
  out.w = w;
  return out;
}

}  // namespace tenferro::krylov_internal
