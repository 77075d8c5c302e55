// Operators with a spectrum known by construction, for the Krylov tests: A = Q T Q^H with a
// random unitary Q (from QR) and T diagonal (normal A) or upper triangular (non-normal A), so
// the eigenvalues are T's diagonal exactly, independent of any eigensolver.
#pragma once

#include <cmath>
#include <complex>
#include <cstdint>
#include <memory>
#include <random>
#include <vector>

#include "support/random_tensor.hpp"
#include "tenferro/einsum.hpp"
#include "tenferro/krylov.hpp"
#include "tenferro/linalg.hpp"
#include "tenferro/prims.hpp"
#include "tenferro/runtime/runtime.hpp"

namespace tenferro::krylov_test {

using cplx = std::complex<double>;

inline Tensor host_vector(DType dtype, const std::vector<cplx>& values) {
  Tensor t = Tensor::zeros(dtype, Shape{static_cast<std::int64_t>(values.size())});
  for (std::size_t i = 0; i < values.size(); ++i) {
    switch (dtype) {
      case DType::F32:
        t.data<float>()[i] = static_cast<float>(values[i].real());
        break;
      case DType::F64:
        t.data<double>()[i] = values[i].real();
        break;
      case DType::C32:
        t.data<std::complex<float>>()[i] = std::complex<float>(values[i]);
        break;
      case DType::C64:
        t.data<cplx>()[i] = values[i];
        break;
    }
  }
  return t;
}

// Q T Q^H for T = diag(eigenvalues) + `upper` * (a random strictly upper triangle).
inline EagerTensor matrix_with_spectrum(const std::shared_ptr<EagerRuntime>& rt, DType dtype,
                                        const std::vector<cplx>& eigenvalues, unsigned seed,
                                        double upper = 0.0) {
  const auto n = static_cast<std::int64_t>(eigenvalues.size());
  const EagerTensor g = rt->upload(testing::random_tensor(dtype, Shape{n, n}, seed));
  const EagerTensor q = linalg::qr(g).q;
  Tensor t = Tensor::zeros(dtype, Shape{n, n});
  const Tensor r = testing::random_tensor(dtype, Shape{n, n}, seed + 1);
  for (std::int64_t j = 0; j < n; ++j) {
    for (std::int64_t i = 0; i <= j; ++i) {
      const std::size_t at = static_cast<std::size_t>(i + j * n);
      const cplx value = i == j ? eigenvalues[static_cast<std::size_t>(i)] : cplx{};
      switch (dtype) {
        case DType::F32:
          t.data<float>()[at] =
              static_cast<float>(value.real() + upper * r.data<float>()[at] * (i < j));
          break;
        case DType::F64:
          t.data<double>()[at] = value.real() + upper * r.data<double>()[at] * (i < j);
          break;
        case DType::C32:
          t.data<std::complex<float>>()[at] = std::complex<float>(
              value + upper * cplx(r.data<std::complex<float>>()[at]) * double(i < j));
          break;
        case DType::C64:
          t.data<cplx>()[at] = value + upper * r.data<cplx>()[at] * double(i < j);
          break;
      }
    }
  }
  return einsum("ij,jk,lk->il", {q, rt->upload(t), prims::conj(q)});
}

// The eigs tests' spectrum: n values on an ellipse, two of them (2.5 + 0.5i, -2.2 - i) the
// largest in magnitude by a clear margin.
inline std::vector<cplx> non_normal_test_spectrum(std::int64_t n) {
  std::vector<cplx> spectrum;
  for (std::int64_t i = 0; i < n; ++i)
    spectrum.emplace_back(std::cos(0.7 * double(i)), 0.8 * std::sin(1.3 * double(i)));
  spectrum[17] = {2.5, 0.5};
  spectrum[33] = {-2.2, -1.0};
  return spectrum;
}

inline krylov::LinearOperator matvec(const EagerTensor& a) {
  return [a](const EagerTensor& x) { return einsum("ij,j->i", {a, x}); };
}

// ||A x - lambda x|| on the device, read back by an explicit download.
inline double residual(const krylov::LinearOperator& a, const EagerTensor& x, cplx lambda) {
  const EagerTensor r = a(x) - prims::scale(x, lambda);
  return prims::cast(prims::norm(r), DType::F64).download().data<double>()[0];
}

}  // namespace tenferro::krylov_test
