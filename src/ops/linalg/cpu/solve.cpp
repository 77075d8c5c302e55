// solve(A, B) via getrf + getrs; an exactly singular A is a Numerical error.
#include <algorithm>

#include "ops/linalg/cpu/kernels.hpp"

namespace tenferro::linalg_cpu {
namespace {

template <class T>
std::vector<Tensor> solve_typed(const CpuCall& call, const Tensor& a, const Tensor& b_in) {
  const auto d = linalg_internal::matrix_dims(a.shape());
  const std::int64_t n = d.rows;
  const bool vector = b_in.rank() + 1 == a.rank();
  const std::int64_t nrhs = vector ? 1 : b_in.shape()[1];
  Tensor x = host_clone(call, b_in);  // getrs overwrites B with X
  const T* in = a.data<T>();
  check_finite_batch(call, in, n * n, d.batch, d.batch_shape, "A");
  check_finite_batch(call, x.data<T>(), n * nrhs, d.batch, d.batch_shape, "B");
  if (n == 0) return {x};
  std::vector<T> work_a(static_cast<std::size_t>(n * n));
  std::vector<lapack::lint> ipiv(static_cast<std::size_t>(n));
  for (std::int64_t b = 0; b < d.batch; ++b) {
    std::copy_n(in + b * n * n, n * n, work_a.data());
    count_lapack_call();
    lapack::lint info = lapack::getrf(li(n), li(n), work_a.data(), ld(n), ipiv.data());
    if (info < 0) throw_lapack_argument(call, "getrf", info);
    if (info > 0) {
      throw_numerical(call, b, d.batch_shape,
                      "A is singular (U(" + std::to_string(info - 1) + ", " +
                          std::to_string(info - 1) + ") of its LU factorisation is exactly zero)");
    }
    if (nrhs == 0) continue;
    count_lapack_call();
    info = lapack::getrs('N', li(n), li(nrhs), work_a.data(), ld(n), ipiv.data(),
                         x.data<T>() + b * n * nrhs, ld(n));
    if (info < 0) throw_lapack_argument(call, "getrs", info);
  }
  return {x};
}

}  // namespace

std::vector<Tensor> run_solve(const CpuCall& call, Inputs inputs) {
  const Tensor a = compact_host(call, inputs[0]);
  const Tensor b = compact_host(call, inputs[1]);
  return visit_dtype(a.dtype(), [&](auto zero) { return solve_typed<decltype(zero)>(call, a, b); });
}

}  // namespace tenferro::linalg_cpu
