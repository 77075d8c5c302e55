// What the tests of the kernels with one matrix per vector lane share (jacobi_eigh_test.cpp,
// jacobi_svd_test.cpp, lane_qr_test.cpp): the ISAs this CPU runs them on, their names, the
// matrices one call takes, and random matrices.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "backends/cpu/cpu_isa.hpp"
#include "backends/cpu/jacobi_eigh.hpp"

namespace jacobi_test {

using tenferro::cpu_isa::Isa;

inline std::vector<Isa> isas() {
  std::vector<Isa> out;
  for (Isa isa : {Isa::Avx2, Isa::Avx512})
    if (tenferro::cpu_isa::isa_available(isa) && tenferro::cpu_blas::jacobi_eigh_applies(isa, 1))
      out.push_back(isa);
  return out;
}

inline const char* name(Isa isa) {
  return isa == Isa::Avx512 ? "AVX-512" : "AVX2";
}

template <class T>
int lanes(Isa isa) {
  return tenferro::cpu_blas::matrix_lanes(isa, sizeof(T) == 8);
}

// `count` column-major m x n matrices, entries uniform in [-1, 1].
template <class T>
std::vector<T> random_matrices(int m, int n, int count, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::vector<T> a(static_cast<std::size_t>(m * n * count));
  for (T& x : a) x = static_cast<T>(u(rng));
  return a;
}

// Every entry of `a` but NaNs times 2^-133 (float) or 2^-1060 (double): entries of order one
// become subnormal numbers.
template <class T>
void make_subnormal(std::vector<T>& a) {
  const int exponent = sizeof(T) == 4 ? -133 : -1060;
  for (T& x : a)
    if (x == x) x = std::ldexp(x, exponent);
}

// Whether the k columns of the m x k column-major `q` (leading dimension ld) are orthonormal
// to `tol` (in long double): the largest |Q^T Q - I| entry.
template <class T>
long double orthogonality_error(const T* q, int m, int k, int ld) {
  long double worst = 0;
  for (int p = 0; p < k; ++p)
    for (int r = 0; r < k; ++r) {
      long double dot = 0;
      for (int i = 0; i < m; ++i)
        dot += static_cast<long double>(q[i + p * ld]) * static_cast<long double>(q[i + r * ld]);
      const long double e = dot - (p == r ? 1.0L : 0.0L);
      worst = std::max(worst, e < 0 ? -e : e);
    }
  return worst;
}

}  // namespace jacobi_test
