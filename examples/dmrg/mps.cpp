#include "mps.hpp"

#include <algorithm>
#include <complex>

#include "tenferro/einsum.hpp"
#include "tenferro/krylov.hpp"
#include "tenferro/linalg.hpp"
#include "tenferro/prims.hpp"

namespace dmrg {

using namespace tenferro;

namespace {

// conj for complex dtypes; real tensors are used as they are (conj would copy them).
EagerTensor bra(const EagerTensor& a) {
  return is_complex(a.dtype()) ? prims::conj(a) : a;
}

// Row `row` of the 5 x 5 identity as a [1, 5, 1] tensor of the runtime.
EagerTensor selector(const std::shared_ptr<EagerRuntime>& rt, DType dtype, std::int64_t row) {
  const EagerTensor eye = prims::eye(rt, dtype, 5);
  const prims::Slice slices[] = {{row, row + 1, 1}, {0, 5, 1}};
  return prims::reshape(prims::contiguous(prims::slice(eye, slices)), {1, 5, 1});
}

struct Factors {
  EagerTensor u, s, vh, discarded_weight;
};

// a [m, n] ~ u diag(s) vh with at most max_rank singular values.
Factors factorize(const EagerTensor& a, std::int64_t max_rank, Factorizer how) {
  if (how == Factorizer::Svd) {
    linalg::SvdOptions options;
    options.truncation.max_rank = max_rank;
    auto f = linalg::svd(a, options);
    return {f.u, f.s, f.vh, f.discarded_weight};
  }
  const std::int64_t k = std::min({max_rank, a.shape()[0], a.shape()[1]});
  auto f = krylov::svds(a, k);
  // |a|^2 - sum s^2, on the device.
  const EagerTensor kept = prims::sum(prims::square(f.s));
  const EagerTensor total = prims::sum(prims::square(prims::abs(a)));
  return {f.u, f.s, f.vh, prims::sub(total, kept)};
}

}  // namespace

EagerTensor heisenberg_mpo(const std::shared_ptr<EagerRuntime>& rt, DType dtype, double j) {
  // Built on the host in float64, converted there (WebGPU has no float64 to cast from), and
  // uploaded once.
  std::vector<double> w(5 * 5 * 2 * 2, 0.0);
  // Column-major [a, b, s, t]; spin 0 is up. S+ = |up><down|, S- = |down><up|.
  auto at = [&](int a, int b, int s, int t) -> double& {
    return w[static_cast<std::size_t>(a + 5 * (b + 5 * (s + 2 * t)))];
  };
  for (int s = 0; s < 2; ++s) at(0, 0, s, s) = at(4, 4, s, s) = 1.0;
  at(1, 0, 0, 1) = 1.0;  // S+ ends an S-S+ term
  at(2, 0, 1, 0) = 1.0;  // S- ends an S+S- term
  at(3, 0, 0, 0) = 0.5;  // Sz
  at(3, 0, 1, 1) = -0.5;
  at(4, 1, 1, 0) = 0.5 * j;  // (J/2) S- starts S-_i S+_{i+1}
  at(4, 2, 0, 1) = 0.5 * j;  // (J/2) S+ starts S+_i S-_{i+1}
  at(4, 3, 0, 0) = 0.5 * j;  // J Sz starts Sz_i Sz_{i+1}
  at(4, 3, 1, 1) = -0.5 * j;
  const Shape shape{5, 5, 2, 2};
  switch (dtype) {
    case DType::F64:
      return rt->upload(Tensor::from_col_major<double>(shape, w));
    case DType::F32:
      return rt->upload(
          Tensor::from_col_major<float>(shape, std::vector<float>(w.begin(), w.end())));
    default: {
      std::vector<std::complex<double>> c(w.begin(), w.end());
      const EagerTensor up = rt->upload(Tensor::from_col_major<std::complex<double>>(shape, c));
      return dtype == DType::C64 ? up : prims::cast(up, dtype);
    }
  }
}

EagerTensor left_boundary(const std::shared_ptr<EagerRuntime>& rt, DType dtype) {
  return selector(rt, dtype, 4);
}
EagerTensor right_boundary(const std::shared_ptr<EagerRuntime>& rt, DType dtype) {
  return selector(rt, dtype, 0);
}

std::vector<std::int64_t> bond_dims(int sites, std::int64_t max_bond) {
  std::vector<std::int64_t> dims;
  for (int i = 0; i <= sites; ++i) {
    const int exact = std::min(i, sites - i);  // log2 of the exact rank
    dims.push_back(exact >= 62 ? max_bond : std::min(max_bond, std::int64_t{1} << exact));
  }
  return dims;
}

std::vector<EagerTensor> random_mps(const std::shared_ptr<EagerRuntime>& rt, DType dtype, int sites,
                                    std::int64_t max_bond, std::uint64_t seed) {
  const auto dims = bond_dims(sites, max_bond);
  std::vector<EagerTensor> mps;
  for (int i = 0; i < sites; ++i) {
    const auto k = static_cast<std::size_t>(i);
    mps.push_back(prims::random_normal(rt, dtype, {dims[k], 2, dims[k + 1]}, seed + k));
  }
  return mps;
}

void right_canonicalize(std::vector<EagerTensor>& mps, Factorizer how) {
  for (std::size_t i = mps.size() - 1; i > 0; --i) {
    const Shape& s = mps[i].shape();
    auto f = factorize(prims::reshape(mps[i], {s[0], s[1] * s[2]}), s[0], how);
    const std::int64_t r = f.s.shape()[0];
    mps[i] = prims::reshape(f.vh, {r, s[1], s[2]});
    // Normalised as we go, so long chains stay in range; the state's norm does not matter.
    EagerTensor sv = f.s / prims::norm(f.s);
    if (sv.dtype() != f.u.dtype()) sv = prims::cast(sv, f.u.dtype());
    const EagerTensor us = einsum("ak,k->ak", {f.u, sv});
    mps[i - 1] = einsum("xsa,ak->xsk", {mps[i - 1], us});
  }
}

EagerTensor grow_left(const EagerTensor& l, const EagerTensor& a, const EagerTensor& w) {
  return einsum("yax,xtp,abst,ysq->qbp", {l, a, w, bra(a)});
}

EagerTensor grow_right(const EagerTensor& r, const EagerTensor& a, const EagerTensor& w) {
  return einsum("xtp,abst,ysq,qbp->yax", {a, w, bra(a), r});
}

EagerTensor two_site(const EagerTensor& a, const EagerTensor& b) {
  return einsum("xsq,qup->xsup", {a, b});
}

EagerTensor apply_two_site_hamiltonian(const EagerTensor& l, const EagerTensor& w,
                                       const EagerTensor& r, const EagerTensor& theta) {
  return einsum("yax,abst,bcuv,qcp,xtvp->ysuq", {l, w, w, r, theta});
}

Split split_two_site(const EagerTensor& theta, std::int64_t max_bond, bool centre_right,
                     Factorizer how) {
  const Shape& s = theta.shape();
  // Column-major reshape: row x + X s, column u + 2 p; the reshapes below undo it.
  auto f = factorize(prims::reshape(theta, {s[0] * s[1], s[2] * s[3]}), max_bond, how);
  const std::int64_t k = f.s.shape()[0];
  // einsum wants one dtype: the real singular values meet a complex theta as complex.
  const EagerTensor sv = f.s.dtype() == theta.dtype() ? f.s : prims::cast(f.s, theta.dtype());
  EagerTensor u = f.u, vh = f.vh;
  if (centre_right) {
    vh = einsum("k,kj->kj", {sv, f.vh});
  } else {
    u = einsum("ik,k->ik", {f.u, sv});
  }
  return {prims::reshape(u, {s[0], s[1], k}), prims::reshape(vh, {k, s[2], s[3]}),
          f.discarded_weight};
}

}  // namespace dmrg
