// svds: the k largest singular triplets through eigsh on the smaller Gram matrix. The Gram
// matrix is formed once (one GEMM: cheaper than two GEMVs per matvec once there are more than
// a few matvecs), the other side's vectors from one more GEMM, A V (or A^H U), orthonormalised.
#include <array>
#include <cmath>
#include <memory>
#include <string>

#include "ops/krylov/krylov_schur.hpp"
#include "ops/krylov/vector_space.hpp"
#include "tenferro/einsum.hpp"
#include "tenferro/prims.hpp"

namespace tenferro::krylov {

SvdsResult svds(const EagerTensor& a, std::int64_t k, double tol, std::uint64_t seed) {
  const std::string op = "krylov.svds";
  if (!a.defined()) throw_validation(op, "the matrix is an empty handle");
  if (a.rank() != 2) {
    throw_validation(op, "expects a matrix [m, n], got rank " + std::to_string(a.rank()) +
                             " (reshape the tensor into the matrix to factorise)");
  }
  const std::int64_t m = a.shape()[0], n = a.shape()[1];
  if (k < 1 || k > std::min(m, n)) {
    throw_validation(op, "k = " + std::to_string(k) + " must satisfy 1 <= k <= min(m, n) = " +
                             std::to_string(std::min(m, n)));
  }
  if (!(tol >= 0)) throw_validation(op, "tol must be >= 0 (0: the dtype's default)");
  const bool cplx = is_complex(a.dtype());
  const bool right = n <= m;  // eigenvectors of A^H A are V; of A A^H, U
  const std::int64_t dim = right ? n : m;
  auto gram = std::make_shared<EagerTensor>();  // formed below, once the scale is known
  const LinearOperator apply = [gram](const EagerTensor& x) {
    return einsum("ij,j->i", {*gram, x});
  };
  const EagerTensor v0 = prims::random_normal(a.runtime(), a.dtype(), Shape{dim}, seed);
  krylov_internal::VectorSpace gram_space(op, apply, v0, a.dtype());
  // A divided by its largest magnitude: the Gram matrix squares A's scale, which under- or
  // overflows beyond ~1e+-154 in float64 (1e+-19 in float32): 1e-200 B gave singular values 0,
  // reported as a result. The singular values are scaled back at the end. (One counted scalar
  // read, which refuses a NaN or Inf in A.)
  const double largest = gram_space.read(prims::max(prims::abs(a)))[0].real();
  // Only outside a band whose squares stay normal, and by a power of two at or below the
  // largest magnitude (so it is finite: rounding up gave 2^1024 = inf near DBL_MAX) that
  // rounds nothing. Inside the band A is used as it is (no copy).
  const double band = a.dtype() == DType::F32 || a.dtype() == DType::C32 ? 0x1p50 : 0x1p400;
  const double scale = largest > 0 && (largest > band || largest < 1 / band)
                           ? std::ldexp(1.0, std::ilogb(largest))
                           : 1.0;
  const EagerTensor as = scale == 1 ? a : prims::div(a, prims::Scalar(scale));
  const EagerTensor ac = cplx ? prims::conj(as) : as;
  *gram = right ? einsum("ki,kj->ij", {ac, as}) : einsum("ik,jk->ij", {as, ac});
  // The Krylov-Schur driver directly, not eigsh: k may be the whole Gram dimension (a bond
  // that is not truncated), where the basis spans the space and the projection is exact.
  const krylov_internal::RitzOutcome ritz = krylov_internal::krylov_schur(
      gram_space, prims::reshape(v0, Shape{dim}),
      {.k = k, .which = Which::LargestAlgebraic, .tol = tol}, /*hermitian=*/true);

  SvdsResult r;
  const double lambda_max = std::max(ritz.values.front().real(), 0.0);
  std::vector<bool> resolved;  // the other side's vector A v / s carries information
  for (const auto& z : ritz.values) {
    const double lambda = z.real();
    r.singular_values.push_back(std::sqrt(std::max(lambda, 0.0)));
    resolved.push_back(lambda > gram_space.eps() * lambda_max);  // s > sqrt(eps) s_max
  }
  std::vector<krylov_internal::cplx> values;
  for (const double sv : r.singular_values) values.emplace_back(sv * scale);
  r.s = prims::reshape(gram_space.write(values, k, 1), Shape{k});
  if (cplx) r.s = prims::real(r.s);
  const EagerTensor w = prims::stack(ritz.vectors, 1);  // [dim, k], orthonormal
  // The other side: the directions of A v_i (or A^H u_i; u_i = A v_i / s_i once normalised),
  // then CGS2 on them. Below sqrt(eps) s_max rounding weighs on that direction, so such a
  // column is what is left of it after the earlier ones, and where nothing is left (s_i
  // numerically zero) a seeded random direction turned to A v_i's phase stands in: U stays an
  // orthonormal basis whatever the spectrum, each u_i keeps the sign of A v_i (a random one
  // missed A by 2 s_i), and U S Vh stays within those s_i of A.
  const EagerTensor image =
      right ? einsum("ij,jk->ik", {as, w}) : einsum("jk,ji->ik", {w, ac});  // A V, or A^H U
  const std::int64_t other_dim = right ? m : n;
  std::vector<EagerTensor> columns;
  auto projected = [&](const EagerTensor& c) {  // one classical Gram-Schmidt pass
    if (columns.empty()) return c;
    const EagerTensor q = prims::stack(columns, 1);
    return c - einsum("jk,k->j", {q, einsum("jk,j->k", {cplx ? prims::conj(q) : q, c})});
  };
  auto normalised = [&](const EagerTensor& c) {
    return c / prims::cast(prims::norm(c), a.dtype());
  };
  // What rounding leaves of a column of A v in the scaled units: a few eps of s_max.
  const double noise = 16 * gram_space.eps() * std::sqrt(lambda_max);
  for (std::int64_t i = 0; i < k; ++i) {
    const std::array<prims::Slice, 2> col{prims::Slice{}, prims::Slice{i, i + 1, 1}};
    const EagerTensor direction =
        prims::reshape(prims::contiguous(prims::slice(image, col)), Shape{other_dim});
    const EagerTensor left = projected(direction);
    if (resolved[static_cast<std::size_t>(i)] ||
        gram_space.read(prims::norm(left))[0].real() > noise) {
      columns.push_back(normalised(projected(normalised(left))));  // CGS2's second pass
      continue;
    }
    const EagerTensor random = prims::random_normal(a.runtime(), a.dtype(), Shape{other_dim},
                                                    seed + 1 + static_cast<std::uint64_t>(i));
    EagerTensor c = normalised(projected(normalised(projected(random))));
    // The phase that makes <c, A v_i> real and non-negative (none when it is zero).
    const krylov_internal::cplx h =
        gram_space.read(einsum("j,j->", {cplx ? prims::conj(c) : c, direction}))[0];
    if (std::abs(h) > 0) {
      const krylov_internal::cplx phase = h / std::abs(h);
      c = cplx ? prims::scale(c, phase) : (phase.real() < 0 ? prims::neg(c) : c);
    }
    columns.push_back(c);
  }
  const EagerTensor orth = prims::stack(columns, 1);  // [other_dim, k]
  if (right) {
    r.u = orth;
    r.vh = prims::contiguous(prims::transpose(cplx ? prims::conj(w) : w));
  } else {
    r.u = w;
    r.vh = prims::contiguous(prims::transpose(cplx ? prims::conj(orth) : orth));
  }
  for (double& sv : r.singular_values) sv *= scale;
  r.matvecs = gram_space.matvecs();
  return r;
}

}  // namespace tenferro::krylov
