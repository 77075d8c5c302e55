// What the distributed linear-algebra tests share: the dtypes and block/grid configurations
// they sweep, scattering a host matrix, and dense column-major complex<double> copies of
// small host matrices for checks on the root (the naive product, a relative difference).
#pragma once

#include <algorithm>
#include <complex>
#include <cstdint>
#include <vector>

#include "dist_context.hpp"

namespace tenferro::dist::testing {

using cd = std::complex<double>;

inline const DType kDtypes[] = {DType::F32, DType::F64, DType::C32, DType::C64};

struct Config {
  std::int64_t block;
  GridShape grid;
};
inline std::vector<Config> configs(int size) {
  std::vector<Config> s{{2, {}}, {3, {1, size}}, {64, {}}};
  if (size == 4) s.push_back({2, {2, 2}});
  return s;
}

inline Matrix spread(const Tensor& x, const Config& s) {
  const auto& ctx = context();
  return scatter(ctx, ctx->is_root() ? x : Tensor(), {s.block, s.block, s.grid});
}

// Dense column-major complex<double> copy of a host matrix, and the naive product.
struct Dense {
  std::int64_t rows = 0, cols = 0;
  std::vector<cd> v;
  cd& operator()(std::int64_t i, std::int64_t j) {
    return v[static_cast<std::size_t>(j * rows + i)];
  }
  cd operator()(std::int64_t i, std::int64_t j) const {
    return v[static_cast<std::size_t>(j * rows + i)];
  }
};
inline Dense dense(const Tensor& t) {
  Dense d{t.shape()[0], t.shape()[1], {}};
  d.v.resize(static_cast<std::size_t>(d.rows * d.cols));
  for (std::int64_t j = 0; j < d.cols; ++j)
    for (std::int64_t i = 0; i < d.rows; ++i) d(i, j) = at(t, i, j);
  return d;
}
inline Dense product(const Dense& a, const Dense& b, bool conj_a = false) {
  const std::int64_t m = conj_a ? a.cols : a.rows, k = conj_a ? a.rows : a.cols;
  Dense c{m, b.cols, std::vector<cd>(static_cast<std::size_t>(m * b.cols))};
  for (std::int64_t j = 0; j < b.cols; ++j)
    for (std::int64_t i = 0; i < m; ++i) {
      cd s = 0;
      for (std::int64_t p = 0; p < k; ++p) s += (conj_a ? std::conj(a(p, i)) : a(i, p)) * b(p, j);
      c(i, j) = s;
    }
  return c;
}
// max |x - y| / (max |y| + 1)
inline double rel_diff(const Dense& x, const Dense& y) {
  double worst = 0, scale = 0;
  for (std::size_t k = 0; k < y.v.size(); ++k) {
    worst = std::max(worst, std::abs(x.v[k] - y.v[k]));
    scale = std::max(scale, std::abs(y.v[k]));
  }
  return worst / (scale + 1);
}
inline Dense identity(std::int64_t n) {
  Dense d{n, n, std::vector<cd>(static_cast<std::size_t>(n * n))};
  for (std::int64_t i = 0; i < n; ++i) d(i, i) = 1;
  return d;
}

}  // namespace tenferro::dist::testing
