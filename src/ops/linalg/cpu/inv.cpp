// inv(A) via getrf + getri; an exactly singular A is a Numerical error.
#include <algorithm>

#include "ops/linalg/cpu/kernels.hpp"
#include "ops/linalg/cpu/workspace.hpp"

namespace tenferro::linalg_cpu {
namespace {

template <class T>
std::vector<Tensor> inv_typed(const CpuCall& call, const Tensor& a) {
  const auto d = linalg_internal::matrix_dims(a.shape());
  const std::int64_t n = d.rows;
  Tensor out = host_clone(call, a);  // getrf/getri work in place
  check_finite_batch(call, out.data<T>(), n * n, d.batch, d.batch_shape, "A");
  if (n == 0 || d.batch == 0) return {out};
  std::vector<lapack::lint> ipiv(static_cast<std::size_t>(n));
  WorkspaceLease<T> lease(call, "inv|" + std::to_string(n), [&] {
    T query{}, scratch{};
    lapack::lint pscratch = 1;
    lapack::getri(li(n), &scratch, ld(n), &pscratch, &query, -1);
    return WorkspaceSizes{queried_size(query), 1, 1};
  });
  Workspace<T>& ws = lease.get();
  for (std::int64_t b = 0; b < d.batch; ++b) {
    T* ab = out.data<T>() + b * n * n;
    count_lapack_call();
    lapack::lint info = lapack::getrf(li(n), li(n), ab, ld(n), ipiv.data());
    if (info < 0) throw_lapack_argument(call, "getrf", info);
    if (info > 0) {
      throw_numerical(call, b, d.batch_shape,
                      "A is singular (U(" + std::to_string(info - 1) + ", " +
                          std::to_string(info - 1) + ") of its LU factorisation is exactly zero)");
    }
    count_lapack_call();
    info = lapack::getri(li(n), ab, ld(n), ipiv.data(), ws.work.data(), ws.lwork());
    if (info < 0) throw_lapack_argument(call, "getri", info);
    if (info > 0) throw_numerical(call, b, d.batch_shape, "A is singular (getri)");
  }
  return {out};
}

}  // namespace

std::vector<Tensor> run_inv(const CpuCall& call, Inputs inputs) {
  const Tensor a = compact_host(call, inputs[0]);
  return visit_dtype(a.dtype(), [&](auto zero) { return inv_typed<decltype(zero)>(call, a); });
}

}  // namespace tenferro::linalg_cpu
