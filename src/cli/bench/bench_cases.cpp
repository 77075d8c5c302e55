// The cases of `tenferro bench`: a three-operand einsum chain (cannot take the direct binary
// path), QR, SVD, eigh and a complex FFT. Checks compare against host references or reconstruct the
// input; they run outside the timed loops.
#include <cmath>
#include <complex>
#include <random>
#include <stdexcept>

#include "cli/bench/bench_case.hpp"
#include "cli/bench/direct_call.hpp"
#include "ops/einsum/einsum_op.hpp"
#include "ops/einsum/expression.hpp"
#include "ops/einsum/path.hpp"
#include "ops/einsum/program.hpp"
#include "ops/einsum/registration.hpp"
#include "ops/fft/fft_op.hpp"
#include "ops/fft/registration.hpp"
#include "ops/linalg/linalg_op.hpp"
#include "ops/linalg/registration.hpp"
#include "tenferro/einsum.hpp"
#include "tenferro/fft.hpp"
#include "tenferro/linalg.hpp"

namespace tenferro::cli::bench {
namespace {

template <class T>
Tensor random_tensor(Shape shape, std::uint32_t seed) {
  std::mt19937 gen(seed);
  std::normal_distribution<double> dist;
  Tensor t = Tensor::zeros(dtype_of_v<T>, std::move(shape));
  T* p = t.data<T>();
  for (std::int64_t i = 0; i < t.numel(); ++i) {
    if constexpr (is_complex(dtype_of_v<T>)) {
      p[i] = T(static_cast<typename T::value_type>(dist(gen)),
               static_cast<typename T::value_type>(dist(gen)));
    } else {
      p[i] = static_cast<T>(dist(gen));
    }
  }
  return t;
}

Tensor random_of(DType dtype, Shape shape, std::uint32_t seed) {
  return visit_dtype(
      dtype, [&](auto zero) { return random_tensor<decltype(zero)>(std::move(shape), seed); });
}

// Column-major matrix product of rank-2 host tensors, in double precision complex.
using Matrix = std::vector<std::complex<double>>;
Matrix to_matrix(const Tensor& t) {
  Matrix m(static_cast<std::size_t>(t.numel()));
  visit_dtype(t.dtype(), [&](auto zero) {
    using T = decltype(zero);
    const std::vector<T> v = t.to_vector<T>();
    for (std::size_t i = 0; i < v.size(); ++i) m[i] = std::complex<double>(v[i]);
  });
  return m;
}
Matrix matmul(const Matrix& a, const Matrix& b, std::int64_t m, std::int64_t k, std::int64_t n) {
  Matrix c(static_cast<std::size_t>(m * n));
  for (std::int64_t j = 0; j < n; ++j)
    for (std::int64_t l = 0; l < k; ++l)
      for (std::int64_t i = 0; i < m; ++i)
        c[static_cast<std::size_t>(i + j * m)] +=
            a[static_cast<std::size_t>(i + l * m)] * b[static_cast<std::size_t>(l + j * k)];
  return c;
}
double relative_error(const Matrix& got, const Matrix& want) {
  double num = 0, den = 0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    num += std::norm(got[i] - want[i]);
    den += std::norm(want[i]);
  }
  return std::sqrt(num / (den > 0 ? den : 1));
}
double tolerance(DType d) {
  return is_double(d) ? 1e-10 : 1e-4;
}
void require(bool ok, const std::string& what) {
  if (!ok) throw std::runtime_error(what);
}

// The eager results as the vector the direct executor returns, moved in (a braced list would
// copy each tensor, which the direct side does not pay).
template <class... Tensors>
std::vector<EagerTensor> outputs_of(Tensors&&... tensors) {
  std::vector<EagerTensor> out;
  out.reserve(sizeof...(tensors));
  (out.push_back(std::forward<Tensors>(tensors)), ...);
  return out;
}

BenchCase einsum_case(DType dtype, std::int64_t n) {
  BenchCase c;
  c.name = "einsum";
  c.admission = &einsum_family::admission_table();
  c.admission_op = "einsum";
  c.description = "ij,jk,kl->il on three " + std::to_string(n) + "x" + std::to_string(n) +
                  " operands (N-ary path)";
  c.dtype = dtype;
  for (std::uint32_t s = 0; s < 3; ++s) c.inputs.push_back(random_of(dtype, {n, n}, 11 + s));
  static constexpr const char* kSubscripts = "ij,jk,kl->il";
  c.eager = [](std::span<const EagerTensor> in) { return outputs_of(einsum(kSubscripts, in)); };
  c.prepare_direct = [dtype, n](const std::shared_ptr<EagerRuntime>& rt) {
    using namespace einsum_internal;
    const std::vector<Shape> shapes(3, Shape{n, n});
    const std::vector<std::int64_t> ranks(3, 2);
    EinsumExpression expr = parse_subscripts(kSubscripts, ranks);
    std::vector<std::int64_t> sizes = label_sizes(expr, shapes);
    EinsumPath path = plan_path(expr, sizes, EinsumOptions{});
    auto plan = std::make_shared<const EinsumPlan>(
        build_plan(std::move(expr), std::move(sizes), std::move(path), dtype, shapes));
    return direct_executor_call(std::make_shared<EinsumOp>(plan), einsum_module_for, rt);
  };
  c.check = [dtype, n](std::span<const Tensor> in, std::span<const Tensor> out) {
    const Matrix want =
        matmul(matmul(to_matrix(in[0]), to_matrix(in[1]), n, n, n), to_matrix(in[2]), n, n, n);
    const double err = relative_error(to_matrix(out[0]), want);
    require(err < tolerance(dtype), "einsum relative error " + std::to_string(err));
  };
  return c;
}

// A linalg case on one n x n input: its name (the admission table's op), what it computes,
// and the LinalgOp its direct side calls; the eager call and the check are the case's own.
BenchCase linalg_case(const char* name, linalg_internal::LinalgKind kind, DType dtype,
                      std::string description, Tensor input) {
  BenchCase c;
  c.name = name;
  c.admission = &linalg_family::admission_table();
  c.admission_op = name;
  c.description = std::move(description);
  c.dtype = dtype;
  c.inputs.push_back(std::move(input));
  c.prepare_direct = [kind](const std::shared_ptr<EagerRuntime>& rt) {
    return direct_executor_call(std::make_shared<linalg_internal::LinalgOp>(kind),
                                linalg_internal::linalg_module_for, rt);
  };
  return c;
}

std::string n_by_n(std::int64_t n) {
  return std::to_string(n) + "x" + std::to_string(n);
}

BenchCase qr_case(DType dtype, std::int64_t n) {
  BenchCase c =
      linalg_case("qr", linalg_internal::LinalgKind::Qr, dtype,
                  "reduced QR of a " + n_by_n(n) + " matrix", random_of(dtype, {n, n}, 21));
  c.eager = [](std::span<const EagerTensor> in) {
    auto [q, r] = linalg::qr(in[0]);
    return outputs_of(std::move(q), std::move(r));
  };
  c.check = [dtype, n](std::span<const Tensor> in, std::span<const Tensor> out) {
    const double err =
        relative_error(matmul(to_matrix(out[0]), to_matrix(out[1]), n, n, n), to_matrix(in[0]));
    require(err < tolerance(dtype), "QR reconstruction error " + std::to_string(err));
  };
  return c;
}

BenchCase svd_case(DType dtype, std::int64_t n) {
  BenchCase c = linalg_case("svd", linalg_internal::LinalgKind::Svd, dtype,
                            "thin SVD of a " + n_by_n(n) + " matrix", random_of(dtype, {n, n}, 31));
  c.eager = [](std::span<const EagerTensor> in) {
    auto r = linalg::svd(in[0]);
    return outputs_of(std::move(r.u), std::move(r.s), std::move(r.vh));
  };
  c.check = [dtype, n](std::span<const Tensor> in, std::span<const Tensor> out) {
    Matrix us = to_matrix(out[0]);
    const Matrix s = to_matrix(out[1]);
    for (std::int64_t j = 0; j < n; ++j)
      for (std::int64_t i = 0; i < n; ++i)
        us[static_cast<std::size_t>(i + j * n)] *= s[static_cast<std::size_t>(j)];
    const double err = relative_error(matmul(us, to_matrix(out[2]), n, n, n), to_matrix(in[0]));
    require(err < tolerance(dtype), "SVD reconstruction error " + std::to_string(err));
  };
  return c;
}

BenchCase eigh_case(DType dtype, std::int64_t n) {
  // A + A^T, made on the host (the case times eigh alone).
  Tensor a = random_of(dtype, {n, n}, 51);
  visit_dtype(dtype, [&](auto zero) {
    using T = decltype(zero);
    T* p = a.data<T>();
    for (std::int64_t j = 0; j < n; ++j)
      for (std::int64_t i = 0; i <= j; ++i) {
        const T sum = p[i + j * n] + p[j + i * n];
        p[i + j * n] = sum;
        p[j + i * n] = sum;
      }
  });
  BenchCase c = linalg_case("eigh", linalg_internal::LinalgKind::Eigh, dtype,
                            "eigh of a symmetric " + n_by_n(n) + " matrix", std::move(a));
  c.eager = [](std::span<const EagerTensor> in) {
    auto r = linalg::eigh(in[0]);
    return outputs_of(std::move(r.w), std::move(r.v));
  };
  c.check = [dtype, n](std::span<const Tensor> in, std::span<const Tensor> out) {
    // V diag(w) V^T against the input.
    const Matrix w = to_matrix(out[0]);
    const Matrix v = to_matrix(out[1]);
    Matrix vw = v, vt(v.size());
    for (std::int64_t j = 0; j < n; ++j)
      for (std::int64_t i = 0; i < n; ++i) {
        vw[static_cast<std::size_t>(i + j * n)] *= w[static_cast<std::size_t>(j)];
        vt[static_cast<std::size_t>(j + i * n)] = v[static_cast<std::size_t>(i + j * n)];
      }
    const double err = relative_error(matmul(vw, vt, n, n, n), to_matrix(in[0]));
    require(err < tolerance(dtype), "eigh reconstruction error " + std::to_string(err));
  };
  return c;
}

BenchCase fft_case(DType dtype, std::int64_t length) {
  BenchCase c;
  c.name = "fft";
  c.admission = &fft_family::admission_table();
  c.admission_op = "fft";
  c.description = "complex FFT of length " + std::to_string(length);
  c.dtype = dtype;
  c.inputs.push_back(random_of(dtype, {length}, 41));
  c.eager = [](std::span<const EagerTensor> in) { return outputs_of(fft::fft(in[0])); };
  c.prepare_direct = [dtype, length](const std::shared_ptr<EagerRuntime>& rt) {
    using namespace fft_internal;
    FftRequest request;
    request.kind = FftOpKind::Fft;
    const Shape shape{length};
    FftSpec spec = resolve(request, dtype, shape);
    return direct_executor_call(std::make_shared<FftOp>(request, dtype, shape, std::move(spec)),
                                fft_module_for, rt);
  };
  c.check = [dtype, length](std::span<const Tensor> in, std::span<const Tensor> out) {
    const Matrix x = to_matrix(in[0]);
    const Matrix y = to_matrix(out[0]);
    Matrix want(x.size());
    const double two_pi = 2 * std::acos(-1.0);
    for (std::int64_t k = 0; k < length; ++k) {
      std::complex<double> acc = 0;
      for (std::int64_t j = 0; j < length; ++j) {
        acc += x[static_cast<std::size_t>(j)] *
               std::polar(1.0, -two_pi * static_cast<double>((j * k) % length) / length);
      }
      want[static_cast<std::size_t>(k)] = acc;
    }
    const double err = relative_error(y, want);
    require(err < (is_double(dtype) ? 1e-10 : 1e-3),
            "FFT error against the DFT " + std::to_string(err));
  };
  return c;
}

}  // namespace

const std::vector<std::string>& all_case_names() {
  static const std::vector<std::string> names{"einsum", "qr", "svd", "eigh", "fft"};
  return names;
}

std::vector<BenchCase> make_cases(BackendKind backend, const std::vector<std::string>& names,
                                  const CaseSizes& sizes) {
  // WGSL has no f64: WebGPU runs the single-precision types, the others double precision.
  const bool single = backend == BackendKind::WebGpu;
  const DType real = single ? DType::F32 : DType::F64;
  const DType complex = single ? DType::C32 : DType::C64;
  std::vector<BenchCase> cases;
  for (const std::string& name : names) {
    if (name == "einsum") cases.push_back(einsum_case(real, sizes.matrix));
    if (name == "qr") cases.push_back(qr_case(real, sizes.matrix));
    if (name == "svd") cases.push_back(svd_case(real, sizes.matrix));
    if (name == "eigh") cases.push_back(eigh_case(real, sizes.matrix));
    if (name == "fft") cases.push_back(fft_case(complex, sizes.fft_length));
  }
  return cases;
}

}  // namespace tenferro::cli::bench
