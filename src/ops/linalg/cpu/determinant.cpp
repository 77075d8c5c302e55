// det and slogdet from getrf: the product of U's diagonal times the sign of the row swaps.
// A singular matrix is not an error: det = 0, slogdet = (0, -inf).
#include <algorithm>
#include <cmath>
#include <limits>

#include "ops/linalg/cpu/kernels.hpp"

namespace tenferro::linalg_cpu {
namespace {

// Per batch entry: det as the plain product (what det returns, like NumPy), and the sign (a
// unit-modulus phase, or 0) with log|det| (what slogdet returns; no overflow).
template <class T>
void factor_determinants(const CpuCall& call, const Tensor& a, std::vector<T>& det,
                         std::vector<T>& sign, std::vector<Real<T>>& logabs) {
  using R = Real<T>;
  const auto d = linalg_internal::matrix_dims(a.shape());
  const std::int64_t n = d.rows;
  const T* in = a.data<T>();
  check_finite_batch(call, in, n * n, d.batch, d.batch_shape, "A");
  det.assign(static_cast<std::size_t>(d.batch), T(1));
  sign.assign(static_cast<std::size_t>(d.batch), T(1));
  logabs.assign(static_cast<std::size_t>(d.batch), R(0));
  if (n == 0) return;  // det of a 0x0 matrix is 1
  std::vector<T> work_a(static_cast<std::size_t>(n * n));
  std::vector<lapack::lint> ipiv(static_cast<std::size_t>(n));
  for (std::int64_t b = 0; b < d.batch; ++b) {
    std::copy_n(in + b * n * n, n * n, work_a.data());
    count_lapack_call();
    const lapack::lint info = lapack::getrf(li(n), li(n), work_a.data(), ld(n), ipiv.data());
    if (info < 0) throw_lapack_argument(call, "getrf", info);
    T phase(1), product(1);
    R log_sum(0);
    for (std::int64_t i = 0; i < n; ++i) {
      const T diag = work_a[i + i * n];
      product *= (ipiv[i] - 1 != i) ? -diag : diag;
      const R mag = std::abs(diag);
      if (mag == 0) {
        phase = T(0);
        product = T(0);
        log_sum = -std::numeric_limits<R>::infinity();
        break;
      }
      phase *= diag / mag;
      log_sum += std::log(mag);
      if (ipiv[i] - 1 != i) phase = -phase;
    }
    if (std::abs(phase) != 0) phase /= std::abs(phase);  // keep |sign| = 1 despite rounding
    det[b] = product;
    sign[b] = phase;
    logabs[b] = log_sum;
  }
}

template <class T>
std::vector<Tensor> det_typed(const CpuCall& call, const Tensor& a) {
  std::vector<T> det, sign;
  std::vector<Real<T>> logabs;
  factor_determinants(call, a, det, sign, logabs);
  const auto d = linalg_internal::matrix_dims(a.shape());
  Tensor out = host_zeros(call.ctx, a.dtype(), d.batch_shape);
  std::copy(det.begin(), det.end(), out.data<T>());
  return {out};
}

template <class T>
std::vector<Tensor> slogdet_typed(const CpuCall& call, const Tensor& a) {
  using R = Real<T>;
  std::vector<T> det, sign;
  std::vector<R> logabs;
  factor_determinants(call, a, det, sign, logabs);
  const auto d = linalg_internal::matrix_dims(a.shape());
  Tensor s = host_zeros(call.ctx, a.dtype(), d.batch_shape);
  Tensor l = host_zeros(call.ctx, dtype_of_v<R>, d.batch_shape);
  std::copy(sign.begin(), sign.end(), s.data<T>());
  std::copy(logabs.begin(), logabs.end(), l.data<R>());
  return {s, l};
}

}  // namespace

std::vector<Tensor> run_det(const CpuCall& call, Inputs inputs) {
  const Tensor a = compact_host(call, inputs[0]);
  return visit_dtype(a.dtype(), [&](auto zero) { return det_typed<decltype(zero)>(call, a); });
}

std::vector<Tensor> run_slogdet(const CpuCall& call, Inputs inputs) {
  const Tensor a = compact_host(call, inputs[0]);
  return visit_dtype(a.dtype(), [&](auto zero) { return slogdet_typed<decltype(zero)>(call, a); });
}

}  // namespace tenferro::linalg_cpu
