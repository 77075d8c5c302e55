// Cholesky A = L L^H via potrf on the lower triangle.
#include <algorithm>

#include "ops/linalg/cpu/kernels.hpp"

namespace tenferro::linalg_cpu {
namespace {

template <class T>
std::vector<Tensor> cholesky_typed(const CpuCall& call, const Tensor& a) {
  const auto d = linalg_internal::matrix_dims(a.shape());
  const std::int64_t n = d.rows;
  Tensor l = host_zeros(call.ctx, a.dtype(), a.shape());
  const T* in = a.data<T>();
  for (std::int64_t b = 0; b < d.batch; ++b) {
    check_finite_triangle(call, in + b * n * n, n, true, true, b, d.batch_shape, "A");
  }
  for (std::int64_t b = 0; b < d.batch && n > 0; ++b) {
    T* lb = l.data<T>() + b * n * n;
    for (std::int64_t j = 0; j < n; ++j) {  // the lower triangle only; the rest stays zero
      std::copy(in + b * n * n + j * n + j, in + b * n * n + (j + 1) * n, lb + j * n + j);
    }
    count_lapack_call();
    const lapack::lint info = lapack::potrf('L', li(n), lb, ld(n));
    if (info < 0) throw_lapack_argument(call, "potrf", info);
    if (info > 0) {
      throw_numerical(call, b, d.batch_shape,
                      "A is not positive definite (its leading minor of order " +
                          std::to_string(info) + " is not positive)");
    }
  }
  return {l};
}

}  // namespace

std::vector<Tensor> run_cholesky(const CpuCall& call, Inputs inputs) {
  const Tensor a = compact_host(call, inputs[0]);
  return visit_dtype(a.dtype(), [&](auto zero) { return cholesky_typed<decltype(zero)>(call, a); });
}

}  // namespace tenferro::linalg_cpu
