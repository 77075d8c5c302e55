// svd with full_matrices and complete qr: the extra columns of U / Q (rows of Vh) through the
// gradient checker, with losses that depend on them through their projector only (the losses
// that are well defined: the extra columns are fixed up to a unitary mixing among themselves).
// Each loss really depends on the complement, so dropping the complement rule's term
// (rules_linalg_complement.cpp) fails the VJP, the JVP or both.
#include <gtest/gtest.h>

#include "ad/gradcheck.hpp"
#include "ad/matrix_variables.hpp"

namespace tenferro::ad_test {
namespace {

using V = ad::Variable;
constexpr DType kDTypes[] = {DType::F64, DType::C64};

// Columns [from, to) and rows [from, to) of a batched matrix.
V cols(const V& x, std::int64_t from, std::int64_t to) {
  const prims::Slice s[] = {{}, {from, to, 1}};
  return ad::slice(x, s);
}
V rows(const V& x, std::int64_t from, std::int64_t to) {
  const prims::Slice s[] = {{from, to, 1}};
  return ad::slice(x, s);
}

// Gauge-invariant functions of an extra block E [p, q, batch...] (columns when `columns`):
// its projector E E^H, Re-bilinear X^H E E^H Y with fixed X, Y, and sum |E^H Z|^2 with fixed Z.
std::vector<V> complement_losses(const V& e, bool columns, const Shape& batch, DType d,
                                 std::uint64_t seed) {
  const V ec = columns ? e : adjoint(e);  // the extra vectors as columns [p, r, batch...]
  const std::int64_t p = ec.shape()[0];
  Shape xs{p, 2};
  xs.insert(xs.end(), batch.begin(), batch.end());
  const V x(randn(d, xs, seed)), y(randn(d, xs, seed + 1)), z(randn(d, xs, seed + 2));
  const V proj = matmul(ec, adjoint(ec));
  return {proj, matmul(adjoint(x), matmul(proj, y)),
          ad::sum(ad::square(ad::abs(matmul(adjoint(ec), z))))};
}

Shape batch_of(const Shape& s) {
  return Shape(s.begin() + 2, s.end());
}

TEST(AdComplement, FullMatricesSvd) {
  for (DType d : kDTypes) {
    for (Shape s : {Shape{5, 3, 2}, Shape{3, 5, 2}, Shape{4, 2}}) {
      const EagerTensor a = randn(d, s, 1100 + static_cast<std::uint64_t>(s[0] * 10 + s[1]));
      const std::int64_t m = s[0], n = s[1], k = std::min(m, n);
      linalg::SvdOptions o;
      o.full_matrices = true;
      check_gradients(
          "full svd " + std::string(dtype_name(d)) + " " + shape_to_string(s),
          [=](std::span<const V> v) {
            auto [u, sv, vh] = ad::svd(v[0], o);
            EXPECT_EQ(u.shape()[1], m);
            EXPECT_EQ(vh.shape()[0], n);
            // The thin part as in AdLinalg.Svd (U diag(s) Vh, gauge invariant) ...
            Shape row{1, k};
            for (std::int64_t b : batch_of(s)) row.push_back(b);
            std::vector<V> out{sv, matmul(cols(u, 0, k) * ad::reshape(sv, row), rows(vh, 0, k))};
            // ... and the complement of whichever factor has one.
            for (const V& l : m > k ? complement_losses(cols(u, k, m), true, batch_of(s), d, 7)
                                    : complement_losses(rows(vh, k, n), false, batch_of(s), d, 9))
              out.push_back(l);
            return out;
          },
          {a});
    }
  }
}

TEST(AdComplement, FullMatricesSvdLossOfBothComplementsAndTheThinFactors) {
  // One real loss mixing U_perp, V_perp (square A has neither, so a 4 x 4 A padded as 4 x 6
  // and 6 x 4 has one each way) with the thin U: exercises the cotangents summed on thin U.
  for (DType d : kDTypes) {
    for (Shape s : {Shape{6, 4, 3}, Shape{4, 6, 3}}) {
      const EagerTensor a = randn(d, s, 1200 + static_cast<std::uint64_t>(s[0]));
      const std::int64_t m = s[0], n = s[1], k = std::min(m, n);
      linalg::SvdOptions o;
      o.full_matrices = true;
      const V w(randn(d, {m, m, 3}, 1250)), wv(randn(d, {n, n, 3}, 1260));
      check_gradients(
          "full svd mixed " + std::string(dtype_name(d)) + " " + shape_to_string(s),
          [=](std::span<const V> v) {
            auto [u, sv, vh] = ad::svd(v[0], o);
            const V ut = cols(u, 0, k);
            // Re tr(W (U_perp U_perp^H) W^H (U U^H)): depends on U and on U_perp.
            const V pu = matmul(ut, adjoint(ut));
            const V pfull = matmul(u, adjoint(u));  // the identity, a function of both parts
            V loss = ad::real(ad::einsum("ij...,jk...,kl...,li...->...",
                                         {w, ad::sub(pfull, pu), adjoint(w), pu}));
            if (n > k) {
              const V vp = adjoint(rows(vh, k, n));
              // Re sum(W_v o V_perp V_perp^H) (not |P|^2: the squared norm of a projector is
              // its rank, a constant).
              loss = loss + ad::sum(ad::real(wv * matmul(vp, adjoint(vp))), ad::Axes{0, 1});
            }
            return std::vector<V>{loss};
          },
          {a});
    }
  }
}

TEST(AdComplement, CompleteQr) {
  for (DType d : kDTypes) {
    for (Shape s : {Shape{5, 3, 2}, Shape{3, 5, 2}, Shape{4, 4}}) {
      const EagerTensor a = randn(d, s, 1300 + static_cast<std::uint64_t>(s[0] * 10 + s[1]));
      const std::int64_t m = s[0], n = s[1], k = std::min(m, n);
      const linalg::QrOptions o{.mode = linalg::QrMode::Complete};
      check_gradients(
          "complete qr " + std::string(dtype_name(d)) + " " + shape_to_string(s),
          [=](std::span<const V> v) {
            auto [q, r] = ad::qr(v[0], o);
            EXPECT_EQ(q.shape()[1], m);
            EXPECT_EQ(r.shape()[0], m);
            // The reduced factors are smooth functions of A (as in AdLinalg.Qr); the extra
            // columns enter through their projector.
            std::vector<V> out{cols(q, 0, k), rows(r, 0, k)};
            if (m > k) {
              for (const V& l : complement_losses(cols(q, k, m), true, batch_of(s), d, 11))
                out.push_back(l);
            }
            return out;
          },
          {a});
    }
  }
}

TEST(AdComplement, CompleteQrZeroRowsOfRAreConstant) {
  // R's rows below the diagonal block are zero for every A: no tangent, no gradient.
  ad::GradientTape tape(cpu());
  const V a = tape.watch(randn(DType::F64, {5, 2}, 1400));
  auto [q, r] = ad::qr(a, {.mode = linalg::QrMode::Complete});
  const V zero_rows = rows(r, 2, 5);
  for (double x : zero_rows.value().download().to_vector<double>()) EXPECT_EQ(x, 0.0);
  const auto g = tape.gradient(ad::sum(zero_rows), {a});
  for (double x : g[0].download().to_vector<double>()) EXPECT_EQ(x, 0.0);
}

}  // namespace
}  // namespace tenferro::ad_test
