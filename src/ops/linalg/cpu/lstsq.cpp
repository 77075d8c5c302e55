// Least squares / minimum norm solutions of full-rank systems via gels (QR or LQ).
#include <algorithm>

#include "ops/linalg/cpu/kernels.hpp"
#include "ops/linalg/cpu/workspace.hpp"

namespace tenferro::linalg_cpu {
namespace {

using linalg_internal::concat;

template <class T>
std::vector<Tensor> lstsq_typed(const CpuCall& call, const Tensor& a, const Tensor& b_in) {
  const auto d = linalg_internal::matrix_dims(a.shape());
  const std::int64_t m = d.rows, n = d.cols;
  const bool vector = b_in.rank() + 1 == a.rank();
  const std::int64_t nrhs = vector ? 1 : b_in.shape()[1];
  Tensor x = Tensor::zeros(a.dtype(),
                           vector ? concat({n}, d.batch_shape) : concat({n, nrhs}, d.batch_shape));
  const T* in = a.data<T>();
  const T* rhs = b_in.data<T>();
  check_finite_batch(call, in, m * n, d.batch, d.batch_shape, "A");
  check_finite_batch(call, rhs, m * nrhs, d.batch, d.batch_shape, "B");
  // With m == 0 or n == 0 the minimum-norm solution is zero; with nrhs == 0 it is empty.
  if (m == 0 || n == 0 || nrhs == 0 || d.batch == 0) return {x};

  const std::int64_t ldb = std::max(m, n);  // gels returns X in the first n rows of B
  std::vector<T> work_a(static_cast<std::size_t>(m * n)),
      work_b(static_cast<std::size_t>(ldb * nrhs));
  WorkspaceLease<T> lease(
      call, "lstsq|" + std::to_string(m) + "x" + std::to_string(n) + "|" + std::to_string(nrhs),
      [&] {
        T query{};
        lapack::gels(li(m), li(n), li(nrhs), work_a.data(), ld(m), work_b.data(), ld(ldb), &query,
                     -1);
        return WorkspaceSizes{queried_size(query), 1, 1};
      });
  Workspace<T>& ws = lease.get();
  for (std::int64_t b = 0; b < d.batch; ++b) {
    std::copy_n(in + b * m * n, m * n, work_a.data());
    for (std::int64_t j = 0; j < nrhs; ++j) {
      std::copy_n(rhs + b * m * nrhs + j * m, m, work_b.data() + j * ldb);
    }
    count_lapack_call();
    const lapack::lint info = lapack::gels(li(m), li(n), li(nrhs), work_a.data(), ld(m),
                                           work_b.data(), ld(ldb), ws.work.data(), ws.lwork());
    if (info < 0) throw_lapack_argument(call, "gels", info);
    if (info > 0) {
      throw_numerical(call, b, d.batch_shape,
                      "A does not have full rank (diagonal entry " + std::to_string(info - 1) +
                          " of its triangular factor is zero); lstsq needs a full-rank A");
    }
    T* xb = x.data<T>() + b * n * nrhs;
    for (std::int64_t j = 0; j < nrhs; ++j) std::copy_n(work_b.data() + j * ldb, n, xb + j * n);
  }
  return {x};
}

}  // namespace

std::vector<Tensor> run_lstsq(const CpuCall& call, Inputs inputs) {
  const Tensor a = compact_host(inputs[0]);
  const Tensor b = compact_host(inputs[1]);
  return visit_dtype(a.dtype(), [&](auto zero) { return lstsq_typed<decltype(zero)>(call, a, b); });
}

}  // namespace tenferro::linalg_cpu
