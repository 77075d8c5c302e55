// triangular_solve via trtrs. LAPACK solves only op(A) X = B, so the right-side form
// X op(A) = B is solved as its transpose, op(A)^T X^T = B^T, or (for the conjugate transpose)
// as its adjoint, A X^H = B^H.
#include <algorithm>

#include "ops/linalg/cpu/kernels.hpp"

namespace tenferro::linalg_cpu {
namespace {

using linalg::TriangularOp;

char trans_char(TriangularOp op) {
  switch (op) {
    case TriangularOp::None:
      return 'N';
    case TriangularOp::Transpose:
      return 'T';
    case TriangularOp::ConjugateTranspose:
      return 'C';
  }
  return 'N';
}

template <class T>
std::vector<Tensor> triangular_solve_typed(const CpuCall& call, const Tensor& a,
                                           const Tensor& b_in) {
  const auto& opt = call.op.payload().triangular;
  const auto d = linalg_internal::matrix_dims(a.shape());
  const std::int64_t n = d.rows;
  const bool vector = b_in.rank() + 1 == a.rank();
  // k right-hand sides: columns of B (left) or rows of B (right).
  const std::int64_t k = vector ? 1 : (opt.left ? b_in.shape()[1] : b_in.shape()[0]);
  Tensor x = host_clone(call, b_in);
  const T* in = a.data<T>();
  for (std::int64_t b = 0; b < d.batch; ++b) {
    check_finite_triangle(call, in + b * n * n, n, opt.lower, !opt.unit_diagonal, b, d.batch_shape,
                          "A");
  }
  check_finite_batch(call, x.data<T>(), n * k, d.batch, d.batch_shape, "B");
  if (n == 0 || k == 0) return {x};

  const char uplo = opt.lower ? 'L' : 'U';
  const char diag = opt.unit_diagonal ? 'U' : 'N';
  // Right side: which LAPACK op solves the transposed system, and whether B/X are conjugated.
  char trans = trans_char(opt.transpose);
  bool conjugate = false;
  if (!opt.left) {
    switch (opt.transpose) {
      case TriangularOp::None:
        trans = 'T';
        break;
      case TriangularOp::Transpose:
        trans = 'N';
        break;
      case TriangularOp::ConjugateTranspose:
        trans = 'N';
        conjugate = kIsComplex<T>;
        break;
    }
  }
  std::vector<T> bt(static_cast<std::size_t>(n * k));
  for (std::int64_t b = 0; b < d.batch; ++b) {
    T* xb = x.data<T>() + b * n * k;
    T* rhs = xb;
    if (!opt.left) {  // B is [k, n]: solve on its (conjugate) transpose [n, k]
      for (std::int64_t j = 0; j < n; ++j) {
        for (std::int64_t i = 0; i < k; ++i) {
          const T v = xb[i + j * k];
          bt[j + i * n] = conjugate ? conj_of(v) : v;
        }
      }
      rhs = bt.data();
    }
    count_lapack_call();
    const lapack::lint info =
        lapack::trtrs(uplo, trans, diag, li(n), li(k), in + b * n * n, ld(n), rhs, ld(n));
    if (info < 0) throw_lapack_argument(call, "trtrs", info);
    if (info > 0) {
      throw_numerical(
          call, b, d.batch_shape,
          "A is singular (its diagonal entry " + std::to_string(info - 1) + " is zero)");
    }
    if (!opt.left) {
      for (std::int64_t j = 0; j < n; ++j) {
        for (std::int64_t i = 0; i < k; ++i) {
          const T v = bt[j + i * n];
          xb[i + j * k] = conjugate ? conj_of(v) : v;
        }
      }
    }
  }
  return {x};
}

}  // namespace

std::vector<Tensor> run_triangular_solve(const CpuCall& call, Inputs inputs) {
  const Tensor a = compact_host(call, inputs[0]);
  const Tensor b = compact_host(call, inputs[1]);
  return visit_dtype(a.dtype(),
                     [&](auto zero) { return triangular_solve_typed<decltype(zero)>(call, a, b); });
}

}  // namespace tenferro::linalg_cpu
