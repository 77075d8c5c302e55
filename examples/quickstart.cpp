// Quickstart: the default CPU runtime, explicit transfers, an N-ary einsum, QR checked with
// element-wise ops and a reduction, a truncated SVD and an FFT, with every result checked and
// the runtime's statistics printed.
#include <algorithm>
#include <cmath>
#include <complex>
#include <iostream>

#include "tenferro/tenferro.hpp"

int main() {
  using namespace tenferro;
  auto rt = EagerRuntime::cpu();
  std::cout << "runtime " << rt->id() << " on engine " << rt->engine_id().str() << "\n";

  // Element [i, j] is the same as in NumPy: row-major input is stored column-major.
  Tensor host = Tensor::from_row_major<double>({3, 3}, {4, 1, 2, 1, 5, 3, 2, 3, 6});
  EagerTensor a = rt->upload(host);
  std::cout << "a lives in " << a.placement().to_string() << "\n";

  // a @ a @ a through the N-ary path, then the path einsum chose.
  EagerTensor cube = einsum("ij,jk,kl->il", {a, a, a});
  std::cout << "(a^3)[0, 0] = " << cube.download().at<double>({0, 0}) << "\n";
  const std::vector<Shape> shapes(3, Shape{3, 3});
  std::cout << einsum_path("ij,jk,kl->il", shapes).to_string() << "\n";

  // QR reconstructs a: the largest entry of |q r - a|, computed in the runtime by an
  // element-wise op and a reduction (prims), downloaded as one number.
  auto [q, r] = linalg::qr(a);
  const EagerTensor residual = prims::abs(einsum("ij,jk->ik", {q, r}) - a);
  const double qr_error = prims::max(residual).download().at<double>({});
  std::cout << "Frobenius norm of a: " << prims::norm(a).download().at<double>({}) << "\n";
  // The truncated SVD keeps two singular values.
  auto svd = linalg::svd(a, {.truncation = {.max_rank = 2}});
  std::cout << "QR error " << qr_error << ", SVD rank " << svd.s.shape()[0] << ", discarded weight "
            << svd.discarded_weight.download().at<double>({}) << "\n";

  // The DFT of a constant signal is a spike at frequency 0.
  EagerTensor signal = rt->upload(Tensor::from_col_major<double>({4}, {1, 1, 1, 1}));
  const Tensor spectrum = fft::rfft(signal).download();
  std::cout << "rfft([1, 1, 1, 1]) = " << spectrum.at<std::complex<double>>({0}) << ", ...\n";

  std::cout << "stats: " << rt->stats().to_json() << "\n";
  const bool ok = qr_error < 1e-12 && svd.s.shape()[0] == 2 &&
                  std::abs(spectrum.at<std::complex<double>>({0}) - 4.0) < 1e-12;
  return ok ? 0 : 1;
}
