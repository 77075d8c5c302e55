// Matrices built from known factors, for tests whose reference is exact by construction:
// A = U diag(s) V^H from random orthonormal U and V gives the pseudo-inverse solution
// V diag(1/s) U^H B without any solver. Shared by the CPU lstsq tests and the CUDA ones.
#pragma once

#include <cmath>
#include <random>
#include <vector>

#include "linalg_test_util.hpp"

namespace linalg_test {

inline Mats subtract(Mats a, const Mats& b) {
  for (std::size_t i = 0; i < a.data.size(); ++i) a.data[i] -= b.data[i];
  return a;
}

// `cols` orthonormal columns of length `rows` per batch entry: Gram-Schmidt, applied twice so
// the columns are orthogonal to rounding, of random (complex when `complex`) columns.
inline Mats orthonormal(std::int64_t rows, std::int64_t cols, std::int64_t batch, bool complex,
                        std::mt19937& gen) {
  std::uniform_real_distribution<double> uni(-1.0, 1.0);
  Mats q{rows, cols, batch, std::vector<cd>(static_cast<std::size_t>(rows * cols * batch))};
  for (cd& v : q.data) v = cd(uni(gen), complex ? uni(gen) : 0.0);
  for (std::int64_t b = 0; b < batch; ++b)
    for (std::int64_t j = 0; j < cols; ++j)
      for (int sweep = 0; sweep < 2; ++sweep) {
        for (std::int64_t p = 0; p < j; ++p) {
          cd dot = 0;
          for (std::int64_t i = 0; i < rows; ++i) dot += std::conj(q.at(b, i, p)) * q.at(b, i, j);
          for (std::int64_t i = 0; i < rows; ++i) q.at(b, i, j) -= dot * q.at(b, i, p);
        }
        double len = 0;
        for (std::int64_t i = 0; i < rows; ++i) len += std::norm(q.at(b, i, j));
        for (std::int64_t i = 0; i < rows; ++i) q.at(b, i, j) /= std::sqrt(len);
      }
  return q;
}

// M diag(d) for every batch entry.
inline Mats scale_columns(Mats m, const std::vector<double>& d) {
  for (std::int64_t b = 0; b < m.batch; ++b)
    for (std::int64_t j = 0; j < m.cols; ++j)
      for (std::int64_t i = 0; i < m.rows; ++i) m.at(b, i, j) *= d[static_cast<std::size_t>(j)];
  return m;
}

}  // namespace linalg_test
