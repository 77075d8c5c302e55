// The gradient checker: every AD rule is compared with central finite differences, and the VJP
// with the JVP, in F64/C64 on random inputs.
//
// For f: inputs -> outputs, random cotangents v and tangents u:
//  1. VJP vs finite differences, entry by entry: for L(x) = sum_j Re<v_j, f_j(x)>, each real
//     coordinate c of each input (the real and imaginary parts of a complex entry), the
//     gradient's entry (its real or imaginary part, PyTorch's convention) must match
//     (L(x + h e_c) - L(x - h e_c)) / 2h.
//  2. JVP vs finite differences, as whole tensors: J u against (f(x + h u) - f(x - h u)) / 2h.
//  3. Consistency: sum_j Re<v_j, J u> = sum_i Re<J^T v, u_i>.
// Tolerance: ||ad - fd||_inf <= rtol * max(||fd||_inf, 1) with rtol = 1e-6 and h = 1e-6 (the
// central difference's error is O(h^2) + O(eps/h), about 1e-10 here), and 1e-10 relative for
// the consistency identity, which has no truncation error.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "tenferro/ad.hpp"
#include "tenferro/prims.hpp"
#include "tenferro/runtime/runtime.hpp"

namespace tenferro::ad_test {

using C = std::complex<double>;
using Fn = std::function<std::vector<ad::Variable>(std::span<const ad::Variable>)>;

// The entries of x in column-major order, as complex doubles.
inline std::vector<C> entries(const EagerTensor& x) {
  Tensor h = x.download();
  return visit_dtype(h.dtype(), [&](auto tag) {
    using T = decltype(tag);
    std::vector<C> out;
    for (const T& v : h.to_vector<T>()) out.emplace_back(v);
    return out;
  });
}

// x with entry k (column-major) shifted by delta (only its real part for a real x).
inline EagerTensor shifted(const EagerTensor& x, std::int64_t k, C delta) {
  Tensor h = x.download().clone();
  visit_dtype(h.dtype(), [&](auto tag) {
    using T = decltype(tag);
    T* p = h.data<T>();
    if constexpr (std::is_floating_point_v<T>) {
      p[k] += static_cast<T>(delta.real());
    } else {
      p[k] += T(delta);
    }
  });
  return x.runtime()->upload(h);
}

// x + s * u on the host, uploaded.
inline EagerTensor axpy_host(const EagerTensor& x, double s, const EagerTensor& u) {
  return prims::add(x, prims::scale(u, s));
}

inline double real_inner(const std::vector<C>& a, const std::vector<C>& b) {
  double s = 0;
  for (std::size_t i = 0; i < a.size(); ++i) s += (std::conj(a[i]) * b[i]).real();
  return s;
}

inline std::vector<EagerTensor> evaluate(const Fn& f, std::span<const EagerTensor> xs) {
  std::vector<ad::Variable> vs(xs.begin(), xs.end());
  std::vector<EagerTensor> out;
  for (const auto& y : f(vs)) out.push_back(y.value());
  return out;
}

inline EagerTensor random_like(const EagerTensor& x, std::uint64_t seed) {
  return prims::random_normal(x.runtime(), x.dtype(), x.shape(), seed);
}

struct CheckOptions {
  double h = 1e-6;
  double rtol = 1e-6;
  // For <v, J u> = <J^T v, u>; loosen only where a rule computes in F32.
  double consistency_rtol = 1e-10;
  std::uint64_t seed = 1234;
  // Skip the entry-wise VJP check for inputs with more entries (the JVP and consistency checks
  // still cover them).
  std::int64_t max_fd_entries = 400;
};

inline double max_abs(const std::vector<C>& v) {
  double m = 0;
  for (const auto& x : v) m = std::max(m, std::abs(x));
  return m;
}

// Runs the three checks; failures are reported with `what` and the input/output index.
inline void check_gradients(const std::string& what, const Fn& f,
                            const std::vector<EagerTensor>& xs, CheckOptions o = {}) {
  SCOPED_TRACE(what);
  const std::vector<EagerTensor> ys = evaluate(f, xs);
  std::vector<EagerTensor> vs, us;
  for (std::size_t j = 0; j < ys.size(); ++j) vs.push_back(random_like(ys[j], o.seed + 17 * j));
  for (std::size_t i = 0; i < xs.size(); ++i)
    us.push_back(random_like(xs[i], o.seed + 1000 + 31 * i));

  // Reverse mode.
  ad::GradientTape tape(xs[0].runtime());
  std::vector<ad::Variable> xv;
  for (const auto& x : xs) xv.push_back(tape.watch(x));
  std::vector<ad::Variable> yv = f(xv);
  std::vector<EagerTensor> g = tape.vjp(yv, vs, xv);
  ASSERT_EQ(g.size(), xs.size());

  std::vector<std::vector<C>> vh;
  for (const auto& v : vs) vh.push_back(entries(v));
  const auto loss = [&](std::span<const EagerTensor> at) {
    const auto y = evaluate(f, at);
    double s = 0;
    for (std::size_t j = 0; j < y.size(); ++j) s += real_inner(vh[j], entries(y[j]));
    return s;
  };

  // 1. VJP entry by entry.
  for (std::size_t i = 0; i < xs.size(); ++i) {
    ASSERT_EQ(g[i].shape(), xs[i].shape()) << "gradient " << i;
    ASSERT_EQ(g[i].dtype(), xs[i].dtype()) << "gradient " << i;
    if (xs[i].numel() > o.max_fd_entries) continue;
    const auto gh = entries(g[i]);
    std::vector<C> fd(gh.size());
    const bool cplx = is_complex(xs[i].dtype());
    for (std::int64_t k = 0; k < xs[i].numel(); ++k) {
      for (int part = 0; part < (cplx ? 2 : 1); ++part) {
        const C d = part == 0 ? C(o.h, 0) : C(0, o.h);
        std::vector<EagerTensor> plus = xs, minus = xs;
        plus[i] = shifted(xs[i], k, d);
        minus[i] = shifted(xs[i], k, -d);
        const double dl = (loss(plus) - loss(minus)) / (2 * o.h);
        fd[static_cast<std::size_t>(k)] += part == 0 ? C(dl, 0) : C(0, dl);
      }
    }
    double err = 0;
    for (std::size_t k = 0; k < fd.size(); ++k) err = std::max(err, std::abs(gh[k] - fd[k]));
    EXPECT_LE(err, o.rtol * std::max(max_abs(fd), 1.0))
        << "VJP of input " << i << " differs from finite differences (max |fd| = " << max_abs(fd)
        << ")";
  }

  // 2. JVP against finite differences of the whole output.
  auto [y0, t] = ad::jvp(f, xs, us);
  ASSERT_EQ(t.size(), ys.size());
  std::vector<EagerTensor> xp, xm;
  for (std::size_t i = 0; i < xs.size(); ++i) {
    xp.push_back(axpy_host(xs[i], o.h, us[i]));
    xm.push_back(axpy_host(xs[i], -o.h, us[i]));
  }
  const auto yp = evaluate(f, xp), ym = evaluate(f, xm);
  double lhs = 0;
  for (std::size_t j = 0; j < ys.size(); ++j) {
    ASSERT_EQ(t[j].shape(), ys[j].shape()) << "tangent " << j;
    ASSERT_EQ(t[j].dtype(), ys[j].dtype()) << "tangent " << j;
    const auto th = entries(t[j]), ph = entries(yp[j]), mh = entries(ym[j]);
    std::vector<C> fd(th.size());
    double err = 0;
    for (std::size_t k = 0; k < th.size(); ++k) {
      fd[k] = (ph[k] - mh[k]) / (2 * o.h);
      err = std::max(err, std::abs(th[k] - fd[k]));
    }
    EXPECT_LE(err, o.rtol * std::max(max_abs(fd), 1.0))
        << "JVP of output " << j << " differs from finite differences";
    lhs += real_inner(vh[j], th);
  }

  // 3. <v, J u> = <J^T v, u>.
  double rhs = 0;
  for (std::size_t i = 0; i < xs.size(); ++i) rhs += real_inner(entries(g[i]), entries(us[i]));
  EXPECT_NEAR(lhs, rhs, o.consistency_rtol * std::max({std::abs(lhs), std::abs(rhs), 1.0}))
      << "<v, J u> != <J^T v, u>";
}

// One-input, one-output shorthand.
inline void check_unary(const std::string& what,
                        const std::function<ad::Variable(const ad::Variable&)>& f,
                        const EagerTensor& x, CheckOptions o = {}) {
  check_gradients(
      what, [f](std::span<const ad::Variable> v) { return std::vector<ad::Variable>{f(v[0])}; },
      {x}, o);
}

inline std::shared_ptr<EagerRuntime> cpu() {
  static auto rt = EagerRuntime::cpu();
  return rt;
}

inline EagerTensor randn(DType d, Shape s, std::uint64_t seed, double mean = 0.0,
                         double stddev = 1.0) {
  return prims::random_normal(cpu(), d, std::move(s), seed, mean, stddev);
}

}  // namespace tenferro::ad_test

#include "support/random_tensor.hpp"

namespace tenferro::ad_test {
// A reproducible host tensor, uniform in [-1, 1] (both parts).
inline Tensor random_tensor_host(DType d, Shape s, unsigned seed) {
  return testing::random_tensor(d, std::move(s), seed);
}
}  // namespace tenferro::ad_test
