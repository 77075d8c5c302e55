// A physics check of the eigh rule: for H(J) = J H_XXZ + H_field, the Hellmann-Feynman theorem
// says dE0/dJ = <psi0| H_XXZ |psi0> for the non-degenerate ground state psi0. AD through eigh
// must agree to 1e-10.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "ad/gradcheck.hpp"

namespace tenferro::ad_test {
namespace {

// Spin-1/2 chain of L sites, periodic; basis state b has spin i up when bit i is set.
// H_XXZ = sum_i (Sx Sx + Sy Sy + delta Sz Sz)_{i,i+1}; H_field = h sum_i Sx_i (transverse, so
// the ground state is non-degenerate and total Sz is not conserved).
struct Chain {
  int sites;
  double delta, field;

  std::int64_t dim() const { return std::int64_t{1} << sites; }
  Tensor xxz() const {
    const std::int64_t n = dim();
    Tensor h = Tensor::zeros(DType::F64, {n, n});
    double* p = h.data<double>();
    for (std::int64_t b = 0; b < n; ++b) {
      for (int i = 0; i < sites; ++i) {
        const int j = (i + 1) % sites;
        const bool si = (b >> i) & 1, sj = (b >> j) & 1;
        p[b + n * b] += delta * (si == sj ? 0.25 : -0.25);
        if (si != sj) {
          // (S+S- + S-S+)/2 flips an anti-aligned pair with amplitude 1/2.
          const std::int64_t c = b ^ (std::int64_t{1} << i) ^ (std::int64_t{1} << j);
          p[c + n * b] += 0.5;
        }
      }
    }
    return h;
  }
  Tensor transverse() const {
    const std::int64_t n = dim();
    Tensor h = Tensor::zeros(DType::F64, {n, n});
    double* p = h.data<double>();
    for (std::int64_t b = 0; b < n; ++b) {
      for (int i = 0; i < sites; ++i) p[(b ^ (std::int64_t{1} << i)) + n * b] += 0.5 * field;
    }
    return h;
  }
};

TEST(AdPhysics, HellmannFeynmanThroughEigh) {
  auto rt = EagerRuntime::cpu();
  const Chain chain{8, 0.5, 0.3};
  const EagerTensor hxxz = rt->upload(chain.xxz());
  const EagerTensor hfield = rt->upload(chain.transverse());
  const double j0 = 1.0;

  ad::GradientTape tape(rt);
  ad::Variable j = tape.watch(rt->upload(Tensor::scalar<double>(j0)));
  ad::Variable h = j * ad::Variable(hxxz) + ad::Variable(hfield);
  auto [w, v] = ad::eigh(h);
  const prims::Slice lowest[] = {{0, 1, 1}};
  ad::Variable e0 = ad::sum(ad::slice(w, lowest));
  const double de0_dj = tape.gradient(e0, {j})[0].download().to_vector<double>()[0];

  // <psi0| H_XXZ |psi0> from the ground-state vector, on the host.
  const Tensor vecs = v.value().download();
  const Tensor hx = hxxz.download();
  const std::int64_t n = chain.dim();
  std::vector<double> psi(static_cast<std::size_t>(n));
  for (std::int64_t a = 0; a < n; ++a) psi[static_cast<std::size_t>(a)] = vecs.at<double>({a, 0});
  double expectation = 0;
  for (std::int64_t a = 0; a < n; ++a) {
    for (std::int64_t b = 0; b < n; ++b) {
      expectation += psi[static_cast<std::size_t>(a)] * hx.at<double>({a, b}) *
                     psi[static_cast<std::size_t>(b)];
    }
  }
  // The gap to the first excited state must be open for the theorem (and the rule) to hold.
  const auto spectrum = w.value().download().to_vector<double>();
  ASSERT_GT(spectrum[1] - spectrum[0], 1e-3);
  ASSERT_GT(std::abs(expectation), 0.1);  // a non-trivial derivative
  EXPECT_NEAR(de0_dj, expectation, 1e-10);
  // And against a finite difference of E0(J) (O(h^2) accurate): a second, independent check.
  const auto e0_at = [&](double jv) {
    EagerTensor hj = prims::add(prims::scale(hxxz, jv), hfield);
    return linalg::eigh(hj).w.download().to_vector<double>()[0];
  };
  const double step = 1e-4;
  EXPECT_NEAR(de0_dj, (e0_at(j0 + step) - e0_at(j0 - step)) / (2 * step), 1e-7);
}

}  // namespace
}  // namespace tenferro::ad_test
