#include "ops/krylov/small_dense.hpp"

#include <algorithm>
#include <cmath>

#include "backends/cpu/lapacke.hpp"
#include "tenferro/core/error.hpp"

namespace tenferro::krylov_internal {
namespace {

void check_info(lapack_int info, const char* routine, const std::string& op) {
  if (info != 0) {
    throw_error(ErrorKind::Numerical, ErrorPhase::Execute, op,
                std::string("the projected problem's ") + routine + " failed (info " +
                    std::to_string(info) + ")");
  }
}

lapack_logical select_none(const lapack_complex_double*) {
  return 0;
}

double norm1(const HostMatrix& a) {
  double best = 0;
  for (std::int64_t j = 0; j < a.cols; ++j) {
    double s = 0;
    for (std::int64_t i = 0; i < a.rows; ++i) s += std::abs(a(i, j));
    best = std::max(best, s);
  }
  return best;
}

}  // namespace

HostMatrix HostMatrix::block(std::int64_t r, std::int64_t c) const {
  HostMatrix out(r, c);
  for (std::int64_t j = 0; j < c; ++j)
    for (std::int64_t i = 0; i < r; ++i) out(i, j) = (*this)(i, j);
  return out;
}

std::vector<cplx> HostMatrix::column(std::int64_t j) const {
  return {a.begin() + j * rows, a.begin() + (j + 1) * rows};
}

HostMatrix multiply(const HostMatrix& x, const HostMatrix& y) {
  HostMatrix out(x.rows, y.cols);
  for (std::int64_t j = 0; j < y.cols; ++j)
    for (std::int64_t l = 0; l < x.cols; ++l) {
      const cplx ylj = y(l, j);
      if (ylj == cplx{}) continue;
      for (std::int64_t i = 0; i < x.rows; ++i) out(i, j) += x(i, l) * ylj;
    }
  return out;
}

HermitianEigen hermitian_eigen(const HostMatrix& a, bool real, const std::string& op) {
  const lapack_int n = static_cast<lapack_int>(a.rows);
  HermitianEigen out;
  out.values.resize(static_cast<std::size_t>(n));
  out.vectors = HostMatrix(n, n);
  if (real) {
    std::vector<double> m(static_cast<std::size_t>(n * n));
    for (lapack_int j = 0; j < n; ++j)
      for (lapack_int i = 0; i < n; ++i)
        m[static_cast<std::size_t>(i + j * n)] = 0.5 * (a(i, j).real() + a(j, i).real());
    check_info(TENFERRO_BLAS_NAME(LAPACKE_dsyev)(LAPACK_COL_MAJOR, 'V', 'L', n, m.data(), n,
                                                 out.values.data()),
               "dsyev", op);
    for (std::size_t i = 0; i < m.size(); ++i) out.vectors.a[i] = m[i];
  } else {
    HostMatrix m(n, n);
    for (lapack_int j = 0; j < n; ++j)
      for (lapack_int i = 0; i < n; ++i) m(i, j) = 0.5 * (a(i, j) + std::conj(a(j, i)));
    check_info(TENFERRO_BLAS_NAME(LAPACKE_zheev)(LAPACK_COL_MAJOR, 'V', 'L', n, m.a.data(), n,
                                                 out.values.data()),
               "zheev", op);
    out.vectors = std::move(m);
  }
  return out;
}

GeneralEigen general_eigen(const HostMatrix& a, const std::string& op) {
  const lapack_int n = static_cast<lapack_int>(a.rows);
  HostMatrix m = a;
  GeneralEigen out;
  out.values.resize(static_cast<std::size_t>(n));
  out.vectors = HostMatrix(n, n);
  check_info(
      TENFERRO_BLAS_NAME(LAPACKE_zgeev)(LAPACK_COL_MAJOR, 'N', 'V', n, m.a.data(), n,
                                        out.values.data(), nullptr, 1, out.vectors.a.data(), n),
      "zgeev", op);
  return out;  // zgeev normalises each eigenvector to unit 2-norm
}

Schur ordered_schur(const HostMatrix& a, const std::vector<bool>& select,
                    const std::vector<cplx>& eigenvalues, const std::string& op) {
  const lapack_int n = static_cast<lapack_int>(a.rows);
  Schur out{a, HostMatrix(n, n)};
  std::vector<cplx> w(static_cast<std::size_t>(n));
  lapack_int sdim = 0;
  check_info(
      TENFERRO_BLAS_NAME(LAPACKE_zgees)(LAPACK_COL_MAJOR, 'V', 'N', select_none, n, out.t.a.data(),
                                        n, &sdim, w.data(), out.q.a.data(), n),
      "zgees", op);
  // zgees orders the diagonal its own way: mark the diagonal entries that match the selected
  // eigenvalues (nearest unused match, so repeated eigenvalues are each taken once).
  std::vector<lapack_logical> pick(static_cast<std::size_t>(n), 0);
  for (std::size_t e = 0; e < eigenvalues.size(); ++e) {
    if (!select[e]) continue;
    std::size_t best = 0;
    double best_dist = INFINITY;
    for (std::size_t d = 0; d < w.size(); ++d) {
      if (pick[d]) continue;
      const double dist = std::abs(w[d] - eigenvalues[e]);
      if (dist < best_dist) best_dist = dist, best = d;
    }
    pick[best] = 1;
  }
  lapack_int m = 0;
  double s = 0, sep = 0;
  check_info(
      TENFERRO_BLAS_NAME(LAPACKE_ztrsen)(LAPACK_COL_MAJOR, 'N', 'V', pick.data(), n, out.t.a.data(),
                                         n, out.q.a.data(), n, w.data(), &m, &s, &sep),
      "ztrsen", op);
  return out;
}

HostMatrix expm(const HostMatrix& a) {
  const std::int64_t n = a.rows;
  int squarings = 0;
  const double nrm = norm1(a);
  if (nrm > 0.5) squarings = static_cast<int>(std::ceil(std::log2(nrm / 0.5)));
  const double scale = std::ldexp(1.0, -squarings);
  HostMatrix x = a;
  for (cplx& v : x.a) v *= scale;
  HostMatrix result(n, n), term(n, n);
  for (std::int64_t i = 0; i < n; ++i) result(i, i) = term(i, i) = 1.0;
  for (int k = 1; k <= 24; ++k) {
    term = multiply(term, x);
    for (cplx& v : term.a) v /= static_cast<double>(k);
    for (std::size_t i = 0; i < result.a.size(); ++i) result.a[i] += term.a[i];
  }
  for (int s = 0; s < squarings; ++s) result = multiply(result, result);
  return result;
}

HostMatrix expm_hermitian(const HostMatrix& h, cplx z, const std::string& op) {
  const HermitianEigen e = hermitian_eigen(h, false, op);
  const std::int64_t n = h.rows;
  HostMatrix scaled = e.vectors;  // Z exp(z Lambda)
  for (std::int64_t j = 0; j < n; ++j) {
    const cplx f = std::exp(z * e.values[static_cast<std::size_t>(j)]);
    for (std::int64_t i = 0; i < n; ++i) scaled(i, j) *= f;
  }
  HostMatrix zh(n, n);
  for (std::int64_t j = 0; j < n; ++j)
    for (std::int64_t i = 0; i < n; ++i) zh(i, j) = std::conj(e.vectors(j, i));
  return multiply(scaled, zh);
}

}  // namespace tenferro::krylov_internal
