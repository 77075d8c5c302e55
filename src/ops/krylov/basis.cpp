#include "ops/krylov/basis.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <string>

#include "ops/einsum/write_into.hpp"
#include "tenferro/einsum.hpp"
#include "tenferro/prims.hpp"
#include "tenferro/runtime/errors.hpp"
#include "tenferro/runtime/runtime.hpp"

namespace tenferro::krylov_internal {
namespace {

EagerTensor columns(const EagerTensor& m, std::int64_t first, std::int64_t count) {
  const std::array<prims::Slice, 2> s{prims::Slice{}, prims::Slice{first, first + count, 1}};
  return prims::slice(m, s);
}

}  // namespace

EagerTensor Basis::leading(std::int64_t cols) const {
  return columns(storage_, 0, cols);
}

EagerTensor Basis::column(std::int64_t i) const {
  // The storage past size_ is unwritten: reading it would be reading garbage, not an error.
  if (i < 0 || i >= size_) {
    throw_error(
        ErrorKind::RuntimeState, ErrorPhase::Execute, space_.op(),
        "internal: Krylov basis column " + std::to_string(i) + " of " + std::to_string(size_));
  }
  if (i == size_ - 1 && last_.defined()) return last_;  // the next Lanczos/Arnoldi vector
  return prims::reshape(columns(storage_, i, 1), Shape{space_.dim()});
}

EagerTensor Basis::fresh_storage(std::int64_t cols) {
  return space_.runtime()->empty(space_.dtype(), Shape{space_.dim(), std::max(capacity_, cols)});
}

void Basis::write_columns(const EagerTensor& values, std::int64_t first, std::int64_t count) {
  const EagerTensor target = columns(storage_, first, count);
  einsum_internal::write_into(prims::reshape(values, target.shape()), target, space_.op());
}

void Basis::reset(const EagerTensor& unit) {
  storage_ = fresh_storage(1);
  write_columns(unit, 0, 1);
  last_ = unit;
  size_ = 1;
}

void Basis::append(const EagerTensor& unit) {
  const std::int64_t capacity = storage_.shape()[1];
  if (size_ == capacity) {  // more columns than the caller expected: grow geometrically
    const EagerTensor kept = leading(size_);
    storage_ = fresh_storage(2 * capacity);
    write_columns(kept, 0, size_);
  }
  write_columns(unit, size_, 1);
  last_ = unit;
  ++size_;
}

void Basis::rotate(const std::vector<cplx>& c, std::int64_t cols, std::int64_t p,
                   const EagerTensor& next) {
  const EagerTensor coeffs = space_.write(c, cols, p);
  const EagerTensor rotated = einsum("nj,jp->np", {leading(cols), coeffs});
  storage_ = fresh_storage(p + 1);  // the old columns may be read by views handed out
  write_columns(rotated, 0, p);
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
  for (std::int64_t i = 0; i < p; ++i)
    out.push_back(prims::reshape(prims::contiguous(columns(x, i, 1)), Shape{space_.dim()}));
  return out;
}

bool Projection::invariant(double eps) const {
  // ||(h, beta)|| scaled by its largest part: the plain sum of squares overflowed for an
  // operator norm above ~1e154, so every first step looked invariant and eigsh, eigs and
  // expm_multiply returned after one Krylov step, silently wrong.
  double scale = beta;
  for (const cplx& c : h) scale = std::max({scale, std::abs(c.real()), std::abs(c.imag())});
  if (!(scale > 0) || !std::isfinite(scale)) return !(beta > 10 * eps * scale);
  double sum = (beta / scale) * (beta / scale);
  for (const cplx& c : h) sum += std::norm(c / scale);
  return beta <= 10 * eps * scale * std::sqrt(sum);
}

namespace {

// One classical Gram-Schmidt pass: w less V h for h = V^H w, returned. h is computed as
// conj(w^H V) so that only the vector (not the basis) is conjugated.
EagerTensor project_out(const VectorSpace& space, const EagerTensor& v, EagerTensor& w) {
  const EagerTensor h = space.complex() ? prims::conj(einsum("n,nj->j", {prims::conj(w), v}))
                                        : einsum("n,nj->j", {w, v});
  w = w - einsum("nj,j->n", {v, h});
  return h;
}

// ||w|| as a one-entry tensor of the space's dtype, to be read with the coefficients.
EagerTensor norm_entry(const VectorSpace& space, const EagerTensor& w) {
  return prims::reshape(prims::cast(prims::norm(w), space.dtype()), Shape{1});
}

// DGKS: a pass that leaves less than this fraction of the norm it found calls for another.
const double kDgksRatio = 1 / std::sqrt(2.0);

}  // namespace

Projection Basis::orthogonalize(const EagerTensor& w0) const {
  const EagerTensor v = leading(size_);
  EagerTensor w = w0;
  const EagerTensor h1 = project_out(space_, v, w);
  const EagerTensor h2 = project_out(space_, v, w);
  const std::array<EagerTensor, 2> parts{h1 + h2, norm_entry(space_, w)};
  std::vector<cplx> values = space_.read(prims::concatenate(parts, 0));
  Projection out;
  out.beta = values.back().real();
  values.pop_back();
  out.h = std::move(values);
  out.w = w;
  return out;
}

Projection Basis::orthogonalize_lanczos(const EagerTensor& w0, double previous_beta) const {
  const std::int64_t j = size_ - 1;
  // The recurrence's two terms: alpha = v_j^H w (a pass over v_j alone) and previous_beta.
  EagerTensor w = w0;
  const EagerTensor alpha = project_out(space_, columns(storage_, j, 1), w);
  if (j >= 1 && previous_beta != 0) w = w - prims::scale(column(j - 1), previous_beta);
  // One CGS pass takes out what the recurrence left on the whole basis (rounding, lost
  // orthogonality); a second only when DGKS asks, which a recurrence that did its job never
  // makes it do.
  const EagerTensor v = leading(size_);
  const EagerTensor before = norm_entry(space_, w);
  const EagerTensor h = project_out(space_, v, w);
  const std::array<EagerTensor, 4> parts{h, alpha, before, norm_entry(space_, w)};
  std::vector<cplx> values = space_.read(prims::concatenate(parts, 0));  // h, alpha, before, beta
  double beta = values.back().real();
  const double norm_before = values[values.size() - 2].real();
  const cplx alpha_value = values[values.size() - 3];
  values.resize(static_cast<std::size_t>(size_));
  if (beta < kDgksRatio * norm_before) {
    const EagerTensor h2 = project_out(space_, v, w);
    const std::array<EagerTensor, 2> again{h2, norm_entry(space_, w)};
    const std::vector<cplx> more = space_.read(prims::concatenate(again, 0));
    for (std::int64_t i = 0; i < size_; ++i)
      values[static_cast<std::size_t>(i)] += more[static_cast<std::size_t>(i)];
    beta = more.back().real();
  }
  values[static_cast<std::size_t>(j)] += alpha_value;
  if (j >= 1) values[static_cast<std::size_t>(j - 1)] += previous_beta;
  Projection out;
  out.h = std::move(values);
  out.beta = beta;
  out.w = w;
  return out;
}

}  // namespace tenferro::krylov_internal
