// The small projected problems of the Krylov solvers, solved on the host in double precision
// by LAPACK (the matrices are at most ncv x ncv). Column-major, complex<double> throughout; the
// Hermitian solver uses the real routine when the matrix is real so that real problems keep
// real Ritz vectors.
#pragma once

#include <cstdint>
#include <vector>

#include "ops/krylov/vector_space.hpp"

namespace tenferro::krylov_internal {

// A column-major n x n (or rows x cols) host matrix.
struct HostMatrix {
  std::int64_t rows = 0, cols = 0;
  std::vector<cplx> a;
  HostMatrix() = default;
  HostMatrix(std::int64_t r, std::int64_t c)
      : rows(r), cols(c), a(static_cast<std::size_t>(r * c)) {}
  cplx& operator()(std::int64_t i, std::int64_t j) {
    return a[static_cast<std::size_t>(i + j * rows)];
  }
  cplx operator()(std::int64_t i, std::int64_t j) const {
    return a[static_cast<std::size_t>(i + j * rows)];
  }
  HostMatrix block(std::int64_t r, std::int64_t c) const;  // the leading r x c block
  std::vector<cplx> column(std::int64_t j) const;
};

HostMatrix multiply(const HostMatrix& x, const HostMatrix& y);

struct HermitianEigen {
  std::vector<double> values;  // ascending
  HostMatrix vectors;          // unit columns
};
// Eigen-decomposition of the Hermitian part (A + A^H)/2 of a square matrix; `real` uses dsyev
// on the real parts (the caller vouches the imaginary parts are zero).
HermitianEigen hermitian_eigen(const HostMatrix& a, bool real, const std::string& op);

struct GeneralEigen {
  std::vector<cplx> values;
  HostMatrix vectors;  // unit right eigenvectors
};
GeneralEigen general_eigen(const HostMatrix& a, const std::string& op);

// Complex Schur form A = Q T Q^H with the eigenvalues marked in `select` moved to the leading
// block (zgees, then ztrsen).
struct Schur {
  HostMatrix t, q;
};
Schur ordered_schur(const HostMatrix& a, const std::vector<bool>& select_by_eigenvalue_index,
                    const std::vector<cplx>& eigenvalues, const std::string& op);

// exp(a) by scaling and squaring with a Taylor series (a is small and its scaled norm <= 1/2,
// so 20 terms reach double precision); through the eigen-decomposition when `hermitian_times`
// is set: exp(z H) for a Hermitian H and a complex z.
HostMatrix expm(const HostMatrix& a);
HostMatrix expm_hermitian(const HostMatrix& h, cplx z, const std::string& op);

}  // namespace tenferro::krylov_internal
