// LU with partial pivoting via getrf, returned as SciPy does: A = P L U.
#include <algorithm>
#include <numeric>

#include "ops/linalg/cpu/kernels.hpp"

namespace tenferro::linalg_cpu {
namespace {

using linalg_internal::concat;

template <class T>
std::vector<Tensor> lu_typed(const CpuCall& call, const Tensor& a) {
  const auto d = linalg_internal::matrix_dims(a.shape());
  const std::int64_t m = d.rows, n = d.cols, k = std::min(m, n);
  Tensor p = host_zeros(call.ctx, a.dtype(), concat({m, m}, d.batch_shape));
  Tensor l = host_zeros(call.ctx, a.dtype(), concat({m, k}, d.batch_shape));
  Tensor u = host_zeros(call.ctx, a.dtype(), concat({k, n}, d.batch_shape));
  const T* in = a.data<T>();
  check_finite_batch(call, in, m * n, d.batch, d.batch_shape, "A");

  std::vector<T> work_a(static_cast<std::size_t>(m * n));
  std::vector<lapack::lint> ipiv(static_cast<std::size_t>(std::max<std::int64_t>(k, 1)));
  std::vector<std::int64_t> perm(static_cast<std::size_t>(m));
  for (std::int64_t b = 0; b < d.batch; ++b) {
    std::copy_n(in + b * m * n, m * n, work_a.data());
    if (k > 0) {
      count_lapack_call();
      // info > 0 (an exactly zero pivot) still leaves a valid factorisation: not an error here.
      const lapack::lint info = lapack::getrf(li(m), li(n), work_a.data(), ld(m), ipiv.data());
      if (info < 0) throw_lapack_argument(call, "getrf", info);
    }
    T* lb = l.data<T>() + b * m * k;
    T* ub = u.data<T>() + b * k * n;
    for (std::int64_t j = 0; j < k; ++j) {
      lb[j + j * m] = T(1);
      for (std::int64_t i = j + 1; i < m; ++i) lb[i + j * m] = work_a[i + j * m];
    }
    for (std::int64_t j = 0; j < n; ++j) {
      for (std::int64_t i = 0; i <= std::min(j, k - 1); ++i) ub[i + j * k] = work_a[i + j * m];
    }
    // getrf's row swaps applied in order to the identity give perm with (P^T A)[i] = A[perm[i]],
    // so P[perm[i], i] = 1.
    std::iota(perm.begin(), perm.end(), 0);
    for (std::int64_t i = 0; i < k; ++i) std::swap(perm[i], perm[ipiv[i] - 1]);
    T* pb = p.data<T>() + b * m * m;
    for (std::int64_t i = 0; i < m; ++i) pb[perm[i] + i * m] = T(1);
  }
  return {p, l, u};
}

}  // namespace

std::vector<Tensor> run_lu(const CpuCall& call, Inputs inputs) {
  const Tensor a = compact_host(call, inputs[0]);
  return visit_dtype(a.dtype(), [&](auto zero) { return lu_typed<decltype(zero)>(call, a); });
}

}  // namespace tenferro::linalg_cpu
